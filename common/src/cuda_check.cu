#include "wb/cuda_check.h"

#include "wb/device.h"
#include "wb/exit_codes.h"
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
    std::fprintf(stderr, "CUDA error at %s:%d\n  %s\n  -> %s: %s\n", file, line, call, cudaGetErrorName(err),
                 cudaGetErrorString(err));
    const char* hint = cuda_error_hint(err);
    if (hint[0] != '\0') std::fprintf(stderr, "  hint: %s\n", hint);
    std::fflush(stdout);
    std::exit(kExitCudaError);
}

void check_launch(const char* kernel_name, const char* file, int line) {
    const cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "kernel launch failed: %s\n", kernel_name);
    cuda_fail(err, "cudaGetLastError() after the launch", file, line);
}

// In a check, a kernel that runs far longer than its case needs is ended here, with the likely
// causes, instead of holding the check until its overall time limit.
constexpr double kCheckKernelSeconds = 20;

void check_launch_and_wait(const char* kernel_name, const char* file, int line) {
    check_launch(kernel_name, file, line);
    cudaError_t err = cudaSuccess;
    if (checking()) {
        const double limit_s = kCheckKernelSeconds * check_time_scale();
        const DeviceWait outcome = wait_for_device(limit_s, &err);
        if (outcome == DeviceWait::still_running) {
            std::fflush(stdout);
            std::printf("\nFAILED: kernel %s did not finish within %.0f s, where each case of the check needs well "
                        "under a second. Likely causes: a loop that runs far too many times (a bound multiplied "
                        "where it should be divided) or never ends, or threads waiting for something that never "
                        "comes.\n",
                        kernel_name, limit_s);
            std::fflush(stdout);
            std::_Exit(kExitCheckFailed);
        }
        if (outcome == DeviceWait::finished) return;
    } else {
        err = cudaDeviceSynchronize();
        if (err == cudaSuccess) return;
    }
    std::fprintf(stderr, "kernel failed while running: %s\n", kernel_name);
    cuda_fail(err, "cudaDeviceSynchronize() after the launch", file, line);
}

}  // namespace wb
