/// @file kernel_watchdog.h
/// @brief A check's wait for a kernel that may never finish (a pipeline whose threads wait for
/// each other) or may stop with a fault: both are the exercise's failure, reported as a failed
/// check in the lesson's own words, never a hang or a crash.
#pragma once

#include <string>

namespace wb {

/// What the check says about a kernel that failed this way, in the lesson's words. Each text
/// goes into a line of its own that starts with the kernel's name padded to 20 characters, so a
/// continuation line is indented by 23 spaces.
struct StuckKernelText {
    /// Why the kernel may never finish, after "did not finish within N s: " (no final period).
    std::string never_finished;
    /// The usual cause of a fault, after "stopped with a fault (ERROR). ".
    std::string fault;
    /// Where to read on, after the FAILED verdict: "See the hints on the lesson 13 page."
    std::string hints;
};

/// Checks the launch of `kernel` and waits for it at most `seconds` (wb::wait_for_device). A
/// kernel still running after that, or one stopped by a fault that a wrong exercise causes (a
/// launch failure, an illegal instruction), prints what happened and the FAILED verdict and ends
/// the process at once with wb::kExitCheckFailed: no clean-up, which would wait for the kernel
/// forever, and the GPU can run nothing more after a fault. Any other error is a CUDA error.
void wait_for_kernel(const std::string& kernel, double seconds, const StuckKernelText& text);

}  // namespace wb
