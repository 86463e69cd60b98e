#include "wb/device.h"

#include "wb/cuda_check.h"
#include "wb/exit_codes.h"
#include "wb/sm_limit.h"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace wb {

namespace {

// "12.4" from CUDA's 12040.
std::string cuda_version_text(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

// True when the NVIDIA driver's library can be loaded: the driver is installed.
bool driver_installed() {
    void* library = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!library) return false;
    dlclose(library);
    return true;
}

// Why the runtime found no usable GPU, in words a student can act on, then the CUDA error.
std::string explain_no_gpu(cudaError_t err) {
    const std::string code = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
    if (!driver_installed())
        return "no NVIDIA driver is installed on this machine (no GPU, or a container started without GPU "
               "access) [" +
               code + "]";
    if (err == cudaErrorInsufficientDriver) {
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        return "the NVIDIA driver supports CUDA " + cuda_version_text(driver) + ", older than this program's CUDA " +
               cuda_version_text(runtime) + ": update the driver [" + code + "]";
    }
    if (err == cudaErrorNoDevice) {
        const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
        return std::string("the NVIDIA driver sees no CUDA device") +
               (visible ? " (CUDA_VISIBLE_DEVICES='" + std::string(visible) + "')" : "") + " [" + code + "]";
    }
    return code;
}

}  // namespace

namespace {
cudaError_t g_last_gpu_error = cudaSuccess;  // why gpu_available last said no
}  // namespace

bool gpu_available(std::string* why_not) {
    const char* forced = std::getenv("WB_FORCE_NO_GPU");
    if (forced && forced[0] == '1') {
        if (why_not) *why_not = "WB_FORCE_NO_GPU=1 is set";
        return false;
    }
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess && count == 0) err = cudaErrorNoDevice;
    if (err == cudaSuccess) err = cudaFree(nullptr);  // creates the context: fails on a broken driver
    g_last_gpu_error = err;
    if (err != cudaSuccess) {
        if (why_not) *why_not = explain_no_gpu(err);
        cudaGetLastError();  // clear the sticky error state where possible
        return false;
    }
    return true;
}

DeviceInfo require_gpu(int device) {
    requested_sm_limit();  // a bad WB_SM_LIMIT is bad input, on any machine
    std::string why;
    if (!gpu_available(&why)) {
        // A GPU that is there but full (another program holds its memory) is not a missing GPU:
        // say so, and exit as for any input the machine cannot take.
        if (g_last_gpu_error == cudaErrorMemoryAllocation) {
            std::fprintf(stderr,
                         "error: the GPU has too little free memory to start this program; another program "
                         "holds it (nvidia-smi shows which) [%s]\n",
                         why.c_str());
            std::exit(kExitUsage);
        }
        // On a machine that must have a GPU (the GPU check sets WB_REQUIRE_GPU=1), a missing or
        // broken GPU is an error, never a skip; WB_FORCE_NO_GPU still simulates a machine without one.
        const char* required = std::getenv("WB_REQUIRE_GPU");
        const char* forced = std::getenv("WB_FORCE_NO_GPU");
        if (required && required[0] == '1' && !(forced && forced[0] == '1')) {
            std::fprintf(stderr, "error: no usable CUDA GPU (%s), and WB_REQUIRE_GPU=1 requires one\n", why.c_str());
            std::exit(kExitCudaError);
        }
        std::printf("SKIP: no usable CUDA GPU (%s)\n", why.c_str());
        std::fflush(stdout);
        std::exit(kExitNoGpu);
    }
    WB_CUDA_CHECK(cudaSetDevice(device));
    const SmLimit limit = apply_sm_limit(device);
    cudaDeviceProp prop{};
    WB_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    DeviceInfo info;
    info.id = device;
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.sm_total = prop.multiProcessorCount;
    info.sm_count = limit.granted > 0 ? limit.granted : prop.multiProcessorCount;
    info.warp_size = prop.warpSize;
    info.max_threads_per_block = prop.maxThreadsPerBlock;
    for (int d = 0; d < 3; ++d) {
        info.max_block_dim[d] = prop.maxThreadsDim[d];
        info.max_grid_dim[d] = prop.maxGridSize[d];
    }
    info.shared_mem_per_block = prop.sharedMemPerBlock;
    info.shared_mem_per_block_optin = prop.sharedMemPerBlockOptin;
    info.global_mem = prop.totalGlobalMem;
    info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.memory_bus_bits = prop.memoryBusWidth;
    return info;
}

int multiprocessor_count() {
    const int granted = granted_sms_here();
    if (granted > 0) return granted;
    int device = 0, count = 0;
    WB_CUDA_CHECK(cudaGetDevice(&device));
    WB_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
}

void print_device_info(const DeviceInfo& info, std::FILE* out) {
    std::fprintf(out, "Device %d: %s (compute capability %d.%d)\n", info.id, info.name.c_str(), info.cc_major,
                 info.cc_minor);
    // multiprocessor_count() (what the course sizes full-GPU grids from) must say the same.
    if (info.sm_total > 0 && info.sm_count != info.sm_total)
        std::fprintf(out, "  WB_SM_LIMIT: running on %d of the GPU's %d multiprocessors, grids sized for %d\n",
                     info.sm_count, info.sm_total, multiprocessor_count());
    std::fprintf(out, "  multiprocessors: %d, warp size: %d, max threads per block: %d (%d x %d x %d)\n", info.sm_count,
                 info.warp_size, info.max_threads_per_block, info.max_block_dim[0], info.max_block_dim[1],
                 info.max_block_dim[2]);
    std::fprintf(out, "  shared memory per block: %zu KiB (up to %zu KiB on request), L2: %zu MiB\n",
                 info.shared_mem_per_block / 1024, info.shared_mem_per_block_optin / 1024,
                 info.l2_bytes / (1024 * 1024));
    std::fprintf(out, "  global memory: %.1f GiB, memory bus: %d bits\n", gib(info.global_mem), info.memory_bus_bits);
}

std::string block_problem(const DeviceInfo& info, dim3 block, std::size_t shared_bytes) {
    std::ostringstream why;
    const long threads = static_cast<long>(block.x) * block.y * block.z;
    if (block.x == 0 || block.y == 0 || block.z == 0) {
        why << "a block dimension is zero";
    } else if (threads > info.max_threads_per_block) {
        why << "block " << block.x << "x" << block.y;
        if (block.z > 1) why << "x" << block.z;
        why << " has " << threads << " threads; " << info.name << " allows at most " << info.max_threads_per_block
            << " per block";
    } else if (static_cast<int>(block.x) > info.max_block_dim[0] || static_cast<int>(block.y) > info.max_block_dim[1] ||
               static_cast<int>(block.z) > info.max_block_dim[2]) {
        why << "block " << block.x << "x" << block.y << "x" << block.z << " exceeds the per-dimension limit "
            << info.max_block_dim[0] << "x" << info.max_block_dim[1] << "x" << info.max_block_dim[2];
    } else if (shared_bytes > info.shared_mem_per_block_optin) {
        why << "the block needs " << shared_bytes / 1024 << " KiB of shared memory; the device has at most "
            << info.shared_mem_per_block_optin / 1024 << " KiB per block";
    }
    return why.str();
}

void require_block_fits(const DeviceInfo& info, dim3 block, std::size_t shared_bytes) {
    const std::string why = block_problem(info, block, shared_bytes);
    if (why.empty()) return;
    std::fprintf(stderr, "error: %s\n", why.c_str());
    std::exit(kExitUsage);
}

void require_device_memory(std::size_t bytes, const char* what) {
    std::size_t free_bytes = 0, total_bytes = 0;
    WB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    if (bytes <= free_bytes) return;
    std::fprintf(stderr, "error: %s needs %.2f GiB of device memory; only %.2f of %.2f GiB are free\n", what,
                 gib(bytes), gib(free_bytes), gib(total_bytes));
    std::exit(kExitUsage);
}

std::string host_cpu_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) != 0) continue;
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
    return "unknown CPU";
}

std::size_t host_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : 0;
}

DeviceWait wait_for_device(double seconds, cudaError_t* fault) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    cudaError_t status = cudaErrorNotReady;
    while ((status = cudaStreamQuery(nullptr)) == cudaErrorNotReady) {
        if (std::chrono::steady_clock::now() > deadline) return DeviceWait::still_running;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (status == cudaSuccess) status = cudaDeviceSynchronize();  // work on other streams, finished too
    if (status == cudaSuccess) return DeviceWait::finished;
    if (fault) *fault = status;
    return DeviceWait::faulted;
}

void poison_device(void* ptr, std::size_t bytes) { WB_CUDA_CHECK(cudaMemset(ptr, 0xFF, bytes)); }

}  // namespace wb
