#include "wb/kernel_watchdog.h"

#include "wb/cuda_check.h"
#include "wb/exit_codes.h"
#include "wb/lesson.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

namespace wb {

namespace {

// A continuation line of a kernel's report: under the text after the kernel's name.
const std::string kMore = "\n                       ";

// "  kernel" padded to 20 characters, and the space after it.
std::string name_column(const std::string& kernel) {
    return "  " + kernel + std::string(kernel.size() < 20 ? 20 - kernel.size() : 0, ' ') + " ";
}

// "FAILED: kernel never finished. See the hints ..."
std::string verdict(const std::string& kernel, const std::string& what, const std::string& hints) {
    return "FAILED: " + kernel + " " + what + "." + (hints.empty() ? "" : " " + hints) + "\n";
}

std::string whole_seconds(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.0f", seconds);
    return text;
}

}  // namespace

// The errors that a kernel's own code raises while it runs: an address outside every allocation,
// a misaligned or wrong-space access, a stack overflow, a failed device-side assert or __trap(),
// an instruction used against its rules (an mbarrier given more arrivals than its phase expects),
// a jump to no instruction, a kernel stopped for running too long. In a check the code under test
// is the exercise's: the harness's own kernels pass with the reference solution, so such a fault
// is the exercise's failure. Every other error is no fault of the kernel's code, and stays a CUDA
// error: a launch refused for its configuration or resources (reported at the launch, as lesson
// 02 shows), memory, the driver, the hardware (ECC, NVLink), a build for another GPU.
bool is_kernel_fault(cudaError_t err) {
    switch (err) {
        case cudaErrorIllegalAddress:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorHardwareStackError:
        case cudaErrorAssert:
        case cudaErrorIllegalInstruction:
        case cudaErrorInvalidPc:
        case cudaErrorLaunchFailure:
        case cudaErrorLaunchTimeout: return true;
        default: return false;
    }
}

// Each text breaks its line after a word that leaves the sentence open, so that scripts/progress
// quotes the whole sentence.
std::string likely_fault_cause(cudaError_t fault) {
    switch (fault) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
            return "The usual cause is an" + kMore + "index outside an array (compute-sanitizer names the line).";
        case cudaErrorMisalignedAddress:
            return "The usual cause is a" + kMore + "vector access (float4, double2) at an address that is not a" +
                   kMore + "multiple of its size.";
        case cudaErrorHardwareStackError:
            return "The usual cause is" + kMore + "deep recursion, or a large array local to each thread.";
        case cudaErrorLaunchTimeout:
            return "The usual cause is a" + kMore + "loop that runs far too long or never ends.";
        case cudaErrorAssert: return "A device-side assert" + kMore + "failed: the line above names it.";
        default:
            return "The usual cause is a" + kMore + "barrier or an instruction used against its rules, or a" + kMore +
                   "pointer into the wrong memory (compute-sanitizer names the line).";
    }
}

KernelWaitEnd kernel_wait_end(const std::string& kernel, double seconds, DeviceWait outcome, cudaError_t fault,
                              bool checking, const StuckKernelText& text) {
    if (outcome == DeviceWait::finished) return {kExitPass, ""};
    if (outcome == DeviceWait::still_running)
        return {kExitCheckFailed, name_column(kernel) + "did not finish within " + whole_seconds(seconds) + " s: " +
                                      text.never_finished + ".\n" + verdict(kernel, "never finished", text.hints)};
    if (!checking || !is_kernel_fault(fault)) return {kExitCudaError, ""};
    const std::string cause = text.fault.empty() ? likely_fault_cause(fault) : text.fault;
    return {kExitCheckFailed, name_column(kernel) + "stopped with a fault (" + cudaGetErrorString(fault) + "). " +
                                  cause + "\n" + verdict(kernel, "stopped with a fault", text.hints)};
}

StuckKernelText general_kernel_text() {
    return {"a loop that runs far too many times (a bound" + kMore +
                "multiplied where it should be divided) or never ends, or threads waiting" + kMore +
                "for something that never comes (each case needs well under a second)",
            "", lesson_hints()};
}

// How long a check waits for a kernel of a lesson that sets no limit of its own, before the scale.
constexpr double kCheckKernelLimitS = 20.0;

double check_kernel_limit_s() { return kCheckKernelLimitS * check_time_scale(); }

void end_failed_check(const std::string& report) {
    std::fflush(stdout);
    std::fputs(report.c_str(), stdout);
    std::fflush(stdout);
    std::_Exit(kExitCheckFailed);  // no clean-up: it would wait for the kernel forever
}

void wait_for_queued(const std::string& kernel, double seconds, const StuckKernelText& text) {
    cudaError_t fault = cudaSuccess;
    const DeviceWait outcome = wait_for_device(seconds, &fault);
    const KernelWaitEnd end = kernel_wait_end(kernel, seconds, outcome, fault, checking(), text);
    if (end.exit_code == kExitCudaError) cuda_fail(fault, ("waiting for " + kernel).c_str(), __FILE__, __LINE__);
    if (end.exit_code == kExitCheckFailed) end_failed_check(end.report);
}

void wait_for_kernel(const std::string& kernel, double seconds, const StuckKernelText& text) {
    WB_CHECK_LAUNCH(kernel.c_str());
    wait_for_queued(kernel, seconds, text);
}

}  // namespace wb
