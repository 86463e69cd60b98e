/// @file device.h
/// @brief Device query, "no usable GPU" detection and launch/memory limits.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <string>

namespace wb {

/// What a lesson needs to know about the GPU it runs on.
struct DeviceInfo {
    int id = 0;                                  ///< CUDA device index
    std::string name;                            ///< e.g. "NVIDIA H100 80GB HBM3"
    int cc_major = 0;                            ///< compute capability, major
    int cc_minor = 0;                            ///< compute capability, minor
    int sm_count = 0;                            ///< streaming multiprocessors (those granted under WB_SM_LIMIT)
    int sm_total = 0;                            ///< streaming multiprocessors of the whole GPU
    int warp_size = 32;                          ///< threads per warp
    int max_threads_per_block = 0;               ///< 1024 on current GPUs
    int max_block_dim[3] = {0, 0, 0};            ///< per-dimension block limit
    int max_grid_dim[3] = {0, 0, 0};             ///< per-dimension grid limit
    std::size_t shared_mem_per_block = 0;        ///< default limit (48 KiB)
    std::size_t shared_mem_per_block_optin = 0;  ///< limit after cudaFuncSetAttribute
    std::size_t global_mem = 0;                  ///< device memory, bytes
    std::size_t l2_bytes = 0;                    ///< L2 cache, bytes
    int memory_bus_bits = 0;                     ///< memory bus width

    /// The compute capability as printed, e.g. "9.0".
    std::string capability() const { return std::to_string(cc_major) + "." + std::to_string(cc_minor); }
};

/// Returns the device's properties, or prints "SKIP: no usable CUDA GPU (...)" and exits with
/// kExitNoGpu (77), which CTest reports as skipped. Setting WB_FORCE_NO_GPU=1 in the
/// environment simulates a machine without a GPU. With WB_REQUIRE_GPU=1 (and no WB_FORCE_NO_GPU) a
/// missing GPU is an error instead (exit kExitCudaError): the GPU check sets it, so that a broken
/// driver can never turn every GPU test into a skip. With WB_SM_LIMIT=N the program then runs on
/// N of the GPU's SMs (a green context, wb/sm_limit.h), and sm_count says how many; a bad value
/// ends it with exit code 2 before the GPU is looked for.
DeviceInfo require_gpu(int device = 0);

/// The multiprocessors that this thread's launches on the current device can use:
/// cudaDevAttrMultiProcessorCount, or fewer under WB_SM_LIMIT (the SMs of its green context,
/// wb/sm_limit.h). Size a grid that should fill the GPU exactly once (a persistent or grid-stride
/// kernel) from this count.
int multiprocessor_count();

/// True when a GPU is present and usable (no exit).
bool gpu_available(std::string* why_not = nullptr);

/// How waiting for the device ended (wait_for_device).
enum class DeviceWait { finished, still_running, faulted };

/// Waits at most `seconds` for the work queued so far on the current device. A fault inside a
/// kernel is returned (DeviceWait::faulted, the error in *fault) instead of ending the program;
/// after a fault the GPU can run nothing more in this process. A check waits through
/// wb::wait_for_kernel (wb/kernel_watchdog.h), which ends it with the FAILED verdict when the
/// kernel is still running or faulted.
DeviceWait wait_for_device(double seconds, cudaError_t* fault);

/// Prints a short device report in the style of the CUDA samples' deviceQuery.
void print_device_info(const DeviceInfo& info, std::FILE* out = stdout);

/// Empty string when the block fits the device's limits, else the reason it does not.
std::string block_problem(const DeviceInfo& info, dim3 block, std::size_t shared_bytes = 0);

/// Exits with kExitUsage and a clear message when the block does not fit the device.
void require_block_fits(const DeviceInfo& info, dim3 block, std::size_t shared_bytes = 0);

/// Exits with kExitUsage and a clear message when `bytes` of device memory are not free.
void require_device_memory(std::size_t bytes, const char* what);

/// Fills device memory with 0xFF bytes: every float and double reads as NaN, so an element a
/// kernel forgets to write can never pass a check.
void poison_device(void* ptr, std::size_t bytes);

/// The host CPU's model name (from /proc/cpuinfo), for CSV rows of CPU benchmarks.
std::string host_cpu_name();

/// The host's physical memory in bytes (sysconf), or 0 when the system does not say.
std::size_t host_memory_bytes();

/// Converts a byte count to GiB for messages.
inline double gib(std::size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }

}  // namespace wb
