#include "wb/kernel_watchdog.h"

#include "wb/cuda_check.h"
#include "wb/device.h"
#include "wb/exit_codes.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace wb {

void wait_for_kernel(const std::string& kernel, double seconds, const StuckKernelText& text) {
    WB_CHECK_LAUNCH(kernel.c_str());
    cudaError_t fault = cudaSuccess;
    const DeviceWait outcome = wait_for_device(seconds, &fault);
    if (outcome == DeviceWait::still_running) {
        std::printf("  %-20s did not finish within %.0f s: %s.\n", kernel.c_str(), seconds,
                    text.never_finished.c_str());
        std::printf("FAILED: %s never finished. %s\n", kernel.c_str(), text.hints.c_str());
        std::fflush(stdout);
        std::_Exit(kExitCheckFailed);  // no clean-up: it would wait for the kernel forever
    }
    if (outcome == DeviceWait::faulted) {
        if (fault != cudaErrorLaunchFailure && fault != cudaErrorIllegalInstruction)
            cuda_fail(fault, "waiting for the kernel", __FILE__, __LINE__);
        // A fault inside the kernel: the exercise is wrong. The GPU cannot run anything more in
        // this process, so the check ends here.
        std::printf("  %-20s stopped with a fault (%s). %s\n", kernel.c_str(), cudaGetErrorString(fault),
                    text.fault.c_str());
        std::printf("FAILED: %s stopped with a fault. %s\n", kernel.c_str(), text.hints.c_str());
        std::fflush(stdout);
        std::_Exit(kExitCheckFailed);
    }
}

}  // namespace wb
