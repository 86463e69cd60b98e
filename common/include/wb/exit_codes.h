/// @file exit_codes.h
/// @brief Exit codes shared by every workbook program (CTest reads them).
#pragma once

namespace wb {

/// Exit codes of every lesson program.
enum ExitCode : int {
    kExitPass = 0,         ///< the check passed (or the benchmark completed)
    kExitCheckFailed = 1,  ///< the check ran and found wrong results
    kExitUsage = 2,        ///< bad arguments or bad input: a one-line message says which
    kExitCudaError = 3,    ///< a CUDA call or a kernel launch failed
    kExitNoGpu = 77,       ///< no usable GPU (or missing optional data): CTest reports "skipped"
};

}  // namespace wb
