// The roofline probes and the run's environment (wb/roofs.h).
#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/device_buffer.h"
#include "wb/roofs.h"
#include "wb/timer.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace wb {
namespace {

// Streaming copy, 16 bytes per thread per step: what the memory system sustains for a kernel.
__global__ void stream_copy_kernel(const double2* in, double2* out, long long count) {
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
        out[i] = in[i];
}

// Sixteen independent chains of FMAs per thread keep the FMA pipes busy (one chain would wait for
// each result). The constants are immediates of the FMA instructions, so that each reads one
// register only. The loop is unrolled 8 times (128 FMAs per loop test), so that the loop's own
// instructions take few of the issue slots (FP32 FMAs need every one of them). The result is
// stored so that the compiler cannot drop the work.
constexpr int kFmaChains = 16;

template <typename T>
__global__ void fma_probe_kernel(T* out, int iterations) {
    T chain[kFmaChains];
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) chain[c] = static_cast<T>(threadIdx.x + c);
#pragma unroll 8
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int c = 0; c < kFmaChains; ++c) chain[c] = chain[c] * static_cast<T>(0.999) + static_cast<T>(0.001);
    }
    T sum = 0;
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) sum += chain[c];
    out[static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x] = sum;
}

// FP64 tensor cores (DMMA, compute capability 8.0 and later): per warp, eight independent
// products with accumulators of their own. Compute capability 9.0 has the 16x8x16 shape (2048
// FMAs per mma.sync), which its tensor cores run at full rate; 8.x has only 8x8x4 (256 FMAs).
constexpr int kDmmaChains = 8;

__global__ void dmma_probe_kernel(double* out, int iterations) {
    double acc[kDmmaChains][4];
#pragma unroll
    for (int c = 0; c < kDmmaChains; ++c) acc[c][0] = acc[c][1] = acc[c][2] = acc[c][3] = 0.0;
    const double a = 1.0 + threadIdx.x * 1e-3, b = 0.5;
#if __CUDA_ARCH__ >= 900
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int c = 0; c < kDmmaChains; ++c)
            asm volatile(
                "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %4, %4, %4, %4, %4, %4, %4}, "
                "{%5, %5, %5, %5}, {%0, %1, %2, %3};"
                : "+d"(acc[c][0]), "+d"(acc[c][1]), "+d"(acc[c][2]), "+d"(acc[c][3])
                : "d"(a), "d"(b));
    }
#elif __CUDA_ARCH__ >= 800
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int c = 0; c < kDmmaChains; ++c)
            asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
                         : "+d"(acc[c][0]), "+d"(acc[c][1])
                         : "d"(a), "d"(b));
    }
#else
    (void)a;
    (void)b;
    (void)iterations;
#endif
    double sum = 0.0;
#pragma unroll
    for (int c = 0; c < kDmmaChains; ++c) sum += acc[c][0] + acc[c][1] + acc[c][2] + acc[c][3];
    out[static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x] = sum;
}

double dmma_gflops(int sms, int major) {
    if (major < 8) return -1.0;
    const int blocks = sms * 4, threads = 256, iterations = 512;
    const double fmas_per_mma = major >= 9 ? 16 * 8 * 16 : 8 * 8 * 4;
    DeviceBuffer<double> out(static_cast<std::size_t>(blocks) * threads);
    const TimingStats t = measure_gpu(2, 5, [&] {
        dmma_probe_kernel<<<blocks, threads>>>(out.get(), iterations);
        WB_CHECK_LAUNCH("dmma_probe_kernel");
    });
    const double warps = static_cast<double>(blocks) * threads / 32;
    const double flops = 2.0 * fmas_per_mma * kDmmaChains * iterations * warps;
    return flops / (t.median_ms * 1e6);
}

// Reading alone (a sum per thread, one value stored): kernels that mostly read, such as
// lesson 05's column sums, reach more than a copy, whose reads and writes share the bus.
__global__ void stream_read_kernel(const double2* in, double* out, long long count) {
    // Four independent loads per thread in flight at a time: enough bytes on the way to cover
    // the memory latency (count is a multiple of 4 * the grid's threads).
    const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
    double sum[4] = {0.0, 0.0, 0.0, 0.0};
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i + 3 * threads < count;
         i += 4 * threads) {
#pragma unroll
        for (int u = 0; u < 4; ++u) {
            const double2 v = in[i + u * threads];
            sum[u] += v.x + v.y;
        }
    }
    out[static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x] = sum[0] + sum[1] + sum[2] + sum[3];
}

double stream_read_gbs(const double2* a, long long count, int sms) {
    const int blocks = sms * 8, threads = 256;
    const long long group = 4LL * blocks * threads;
    const long long used = count / group * group;  // whole groups of four loads per thread
    DeviceBuffer<double> out(static_cast<std::size_t>(blocks) * threads);
    // Launches back to back (wb::measure_gpu_batches), as a kernel inside a longer run: the
    // start and the tail of one launch overlap the next.
    const TimingStats t = measure_gpu_batches(10, 8, [&](int) {
        stream_read_kernel<<<blocks, threads>>>(a, out.get(), used);
        WB_CHECK_LAUNCH("stream_read_kernel");
    });
    return used * sizeof(double2) / (t.median_ms * 1e6);
}

double stream_gbs(double2* a, double2* b, long long count, int sms) {
    const TimingStats t = measure_gpu_batches(10, 8, [&](int) {
        stream_copy_kernel<<<sms * 8, 256>>>(a, b, count);
        WB_CHECK_LAUNCH("stream_copy_kernel");
    });
    return 2.0 * count * sizeof(double2) / (t.median_ms * 1e6);
}

template <typename T>
double fma_gflops(int sms) {
    // Long enough (about a millisecond) that the start and the tail of the grid do not count.
    const int blocks = sms * 8, threads = 256, iterations = 4096;
    DeviceBuffer<T> out(static_cast<std::size_t>(blocks) * threads);
    const TimingStats t = measure_gpu(2, 5, [&] {
        fma_probe_kernel<T><<<blocks, threads>>>(out.get(), iterations);
        WB_CHECK_LAUNCH("fma_probe_kernel");
    });
    const double flops = 2.0 * kFmaChains * iterations * static_cast<double>(blocks) * threads;
    return flops / (t.median_ms * 1e6);
}

Roofs measure_roofs() {
    if (!gpu_available()) return Roofs{};  // no GPU: no roofs, and rows get no place under them
    int device = 0, major = 0;
    const int sms = multiprocessor_count();
    WB_CUDA_CHECK(cudaGetDevice(&device));
    WB_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    Roofs roofs;
    const long long count = (1LL << 28) / sizeof(double2);  // 256 MiB read, 256 MiB written
    // The device copy first, with buffers of its own, before the probes' buffers are taken.
    roofs.copy_gbs = measure_copy_bandwidth_gbs(count * sizeof(double2), 10);
    DeviceBuffer<double2> a(2 * count), b(count);  // a: 512 MiB, read whole by the read probe
    WB_CUDA_CHECK(cudaMemset(a.get(), 0, a.bytes()));
    // The streaming roof: the faster of a copy and a pure read, 512 MiB of traffic per launch each.
    roofs.stream_gbs = std::max(stream_gbs(a.get(), b.get(), count, sms), stream_read_gbs(a.get(), 2 * count, sms));
    roofs.fp64_gflops = fma_gflops<double>(sms);
    roofs.fp32_gflops = fma_gflops<float>(sms);
    roofs.fp64_tensor_gflops = dmma_gflops(sms, major);
    return roofs;
}

std::vector<std::string>& notes() {
    static std::vector<std::string> list;
    return list;
}

// NVML, opened at run time (a machine without the driver has no libnvidia-ml): the driver's
// release and the largest SM and memory clocks, for the device with this PCI bus id. The clocks
// now are left out: read before the runs, they would not describe them (wb/power_sampler.h
// reads the clock while timed runs are on the GPU).
struct NvmlFacts {
    std::string driver = "unknown";
    unsigned sm_max_mhz = 0, memory_max_mhz = 0;
};

NvmlFacts nvml_facts(const char* pci_bus_id) {
    NvmlFacts facts;
    void* library = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!library) return facts;
    using Init = int (*)();
    using DriverVersion = int (*)(char*, unsigned);
    using ByPci = int (*)(const char*, void**);
    using Clock = int (*)(void*, int, unsigned*);
    auto init = reinterpret_cast<Init>(dlsym(library, "nvmlInit_v2"));
    auto driver_version = reinterpret_cast<DriverVersion>(dlsym(library, "nvmlSystemGetDriverVersion"));
    auto by_pci = reinterpret_cast<ByPci>(dlsym(library, "nvmlDeviceGetHandleByPciBusId_v2"));
    auto max_clock = reinterpret_cast<Clock>(dlsym(library, "nvmlDeviceGetMaxClockInfo"));
    if (init && init() == 0) {
        char text[96] = {};
        if (driver_version && driver_version(text, sizeof text) == 0) facts.driver = text;
        void* handle = nullptr;
        if (by_pci && by_pci(pci_bus_id, &handle) == 0) {
            const int kSm = 1, kMemory = 2;  // NVML_CLOCK_SM, NVML_CLOCK_MEM
            if (max_clock) max_clock(handle, kSm, &facts.sm_max_mhz);
            if (max_clock) max_clock(handle, kMemory, &facts.memory_max_mhz);
        }
    }
    return facts;  // the library stays loaded: unloading NVML while initialised is not allowed
}

std::string version_text(int version) {  // 13000 -> "13.0"
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

double measure_copy_bandwidth_gbs(std::size_t bytes, int repeats) {
    void* src = nullptr;
    void* dst = nullptr;
    WB_CUDA_CHECK(cudaMalloc(&src, bytes));
    WB_CUDA_CHECK(cudaMalloc(&dst, bytes));
    WB_CUDA_CHECK(cudaMemset(src, 1, bytes));
    const TimingStats stats =
        measure_gpu(3, repeats, [&] { WB_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice)); });
    WB_CUDA_CHECK(cudaFree(src));
    WB_CUDA_CHECK(cudaFree(dst));
    return 2.0 * static_cast<double>(bytes) / (stats.median_ms * 1e-3) / 1e9;
}

const Roofs& measured_roofs() {
    static const Roofs roofs = measure_roofs();
    return roofs;
}

double arithmetic_roof_gflops(const Roofs& roofs, const std::string& precision, bool tensor_cores) {
    if (tensor_cores) return precision == "double" ? roofs.fp64_tensor_gflops : -1.0;
    if (precision == "double") return roofs.fp64_gflops;
    if (precision == "float") return roofs.fp32_gflops;
    return -1.0;
}

bool add_environment_note(const std::string& note) {
    notes().push_back(note);
    return true;
}

std::vector<std::string> gpu_environment_lines() {
    int device = 0, runtime = 0, driver_api = 0;
    cudaDeviceProp props{};
    if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&props, device) != cudaSuccess) {
        cudaGetLastError();
        return {"gpu: none found"};
    }
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver_api);
    char pci[32] = {};
    cudaDeviceGetPCIBusId(pci, sizeof pci, device);
    const NvmlFacts facts = nvml_facts(pci);
    const std::string gpu = std::string("gpu: ") + props.name + ", compute capability " + std::to_string(props.major) +
                            "." + std::to_string(props.minor) + ", " + std::to_string(props.multiProcessorCount) +
                            " SMs, SM clock at most " + std::to_string(facts.sm_max_mhz) +
                            " MHz, memory clock at most " + std::to_string(facts.memory_max_mhz) + " MHz";
    std::string software = "software: driver " + facts.driver + " (CUDA " + version_text(driver_api) +
                           "), CUDA runtime " + version_text(runtime);
    for (const std::string& note : notes()) software += ", " + note;
    return {gpu, software};
}

}  // namespace wb
