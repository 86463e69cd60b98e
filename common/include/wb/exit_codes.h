/// @file exit_codes.h
/// @brief Exit codes shared by every workbook program (CTest reads them).
#pragma once

namespace wb {

/// Exit codes of every lesson program.
enum ExitCode : int {
    kExitPass = 0,  ///< the check passed (or the benchmark completed)
    /// The check ran and found wrong results, with its FAILED verdict. In a check, a kernel that
    /// stopped with a fault of its own code or never finished is one too (wb::kernel_wait_end),
    /// as is a benchmark's kernel that never finished.
    kExitCheckFailed = 1,
    kExitUsage = 2,  ///< bad arguments or bad input: a one-line message says which
    /// A CUDA call or a kernel launch failed: the call, CUDA's error and a hint. Every error of a
    /// benchmark; in a check, every error that is no kernel fault (wb::is_kernel_fault): a launch
    /// refused, memory, the driver, the hardware.
    kExitCudaError = 3,
    kExitNoGpu = 77,  ///< no usable GPU (or missing optional data): CTest reports "skipped"
};

}  // namespace wb
