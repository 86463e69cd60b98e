#include "wb/cuda_check.h"

#include "wb/device.h"
#include "wb/exit_codes.h"
#include "wb/kernel_watchdog.h"
#include "wb/lesson.h"

#include <cstdio>
#include <cstdlib>

namespace wb {

const char* cuda_error_hint(cudaError_t err) {
    switch (err) {
        case cudaErrorInvalidConfiguration:
            return "the launch asks for more threads per block (or shared memory) than the device allows; "
                   "blocks hold at most 1024 threads, e.g. 32x32, never 64x64";
        case cudaErrorMemoryAllocation: return "not enough device memory for this problem size; try smaller sizes";
        case cudaErrorIllegalAddress:
            return "a kernel read or wrote outside its arrays; check the bounds tests (run compute-sanitizer)";
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver: return "no usable GPU on this machine";
        case cudaErrorNoKernelImageForDevice:
            return "the program was not built for this GPU; reconfigure with -DCMAKE_CUDA_ARCHITECTURES=<yours>";
        case cudaErrorInvalidValue:
            return "an argument is out of range (a null pointer, a size of zero, a grid too large?)";
        default: return "";
    }
}

void cuda_fail(cudaError_t err, const char* call, const char* file, int line) {
    const bool exercise_fault = checking() && is_kernel_fault(err);
    std::fflush(stdout);
    std::fprintf(stderr, "CUDA error at %s:%d\n  %s\n  -> %s: %s\n", file, line, call, cudaGetErrorName(err),
                 cudaGetErrorString(err));
    const char* hint = cuda_error_hint(err);
    if (hint[0] != '\0' && !exercise_fault) std::fprintf(stderr, "  hint: %s\n", hint);
    if (exercise_fault)
        end_failed_check(kernel_wait_end("a kernel", 0, DeviceWait::faulted, err, true, general_kernel_text()).report);
    std::fflush(stdout);
    std::exit(kExitCudaError);
}

void check_launch(const char* kernel_name, const char* file, int line) {
    const cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "kernel launch failed: %s\n", kernel_name);
    cuda_fail(err, "cudaGetLastError() after the launch", file, line);
}

// In a check, a kernel that runs far longer than its case needs is ended by wait_for_queued,
// with the likely causes, instead of holding the check until its overall time limit.
void wait_and_check_kernel(const char* kernel_name, const char* file, int line) {
    if (checking()) {
        wait_for_queued(kernel_name, check_kernel_limit_s(), general_kernel_text());
        return;
    }
    const cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "kernel failed while running: %s\n", kernel_name);
    cuda_fail(err, "cudaDeviceSynchronize() after the launch", file, line);
}

void check_launch_and_wait(const char* kernel_name, const char* file, int line) {
    check_launch(kernel_name, file, line);
    wait_and_check_kernel(kernel_name, file, line);
}

}  // namespace wb
