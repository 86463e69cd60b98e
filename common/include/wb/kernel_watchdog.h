/// @file kernel_watchdog.h
/// @brief A check's wait for a kernel that may never finish (a pipeline whose threads wait for
/// each other) or may stop with a fault: both are the exercise's failure, reported as a failed
/// check in the lesson's own words, never a hang, a crash or a CUDA error.
///
/// Every wait of a check ends here: wb::wait_for_kernel and wb::wait_for_queued (a lesson's
/// words), WB_CHECK_LAUNCH_AND_WAIT and WB_WAIT_FOR_KERNEL (general words, wb/cuda_check.h), and
/// wb::cuda_fail for a fault that another CUDA call of a check returns.
#pragma once

#include "wb/device.h"

#include <cuda_runtime.h>

#include <string>

namespace wb {

/// What the check says about a kernel that failed this way, in the lesson's words. Each text
/// goes into a line of its own that starts with the kernel's name padded to 20 characters, so a
/// continuation line is indented by 23 spaces.
struct StuckKernelText {
    /// Why the kernel may never finish, after "did not finish within N s: " (no final period).
    std::string never_finished;
    /// The usual cause of a fault, after "stopped with a fault (ERROR). "; empty: the usual
    /// cause of that fault in any kernel (wb::likely_fault_cause).
    std::string fault;
    /// Where to read on, after the FAILED verdict: "See the hints on the lesson 13 page."
    std::string hints;
};

/// True for a fault that a kernel's own code raises while it runs; in a check it is the
/// exercise's failure (exit 1), elsewhere a CUDA error (exit 3).
bool is_kernel_fault(cudaError_t err);

/// The usual cause of a kernel fault in any lesson, worded to follow "stopped with a fault (ERROR). ".
std::string likely_fault_cause(cudaError_t fault);

/// How a wait for a kernel ends the program.
struct KernelWaitEnd {
    int exit_code = 0;   ///< kExitPass: go on; kExitCheckFailed: print `report`; kExitCudaError
    std::string report;  ///< the lines for standard output, ending with the FAILED verdict
};

/// Chooses how a wait for `kernel` that ended with `outcome` (and `fault`) ends, with no CUDA
/// call: finished goes on; still running after `seconds` fails, naming the likely cause; a
/// kernel fault fails the same way in a check (`checking`) and is a CUDA error elsewhere, as is
/// any other error.
KernelWaitEnd kernel_wait_end(const std::string& kernel, double seconds, DeviceWait outcome, cudaError_t fault,
                              bool checking, const StuckKernelText& text);

/// The words for a kernel whose lesson gives none: a loop that never ends or threads that wait
/// for each other, the fault's usual cause, and the lesson page's hints (wb::lesson_hints).
StuckKernelText general_kernel_text();

/// How long a check waits for one kernel whose lesson sets no limit: each case needs well under
/// a second, so 20 s times wb::check_time_scale().
double check_kernel_limit_s();

/// Prints `report` (a KernelWaitEnd's) after what the check printed so far and ends the process
/// at once with wb::kExitCheckFailed.
[[noreturn]] void end_failed_check(const std::string& report);

/// Waits at most `seconds` for the work queued so far, the kernel named last (wb::wait_for_device),
/// without checking its launch. A kernel still running then, or a kernel fault in a check,
/// prints what happened and the FAILED verdict and ends the process at once with
/// wb::kExitCheckFailed: no clean-up, which would wait for the kernel forever, and the GPU can
/// run nothing more after a fault. Any other error (and a fault outside a check) is a CUDA error.
void wait_for_queued(const std::string& kernel, double seconds, const StuckKernelText& text);

/// Checks the launch of `kernel`, then waits for it as wb::wait_for_queued does.
void wait_for_kernel(const std::string& kernel, double seconds, const StuckKernelText& text);

}  // namespace wb
