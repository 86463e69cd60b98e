/// @file cuda_check.h
/// @brief Checking every CUDA call and every kernel launch.
///
/// Wrap each runtime call in WB_CUDA_CHECK and follow each launch with WB_CHECK_LAUNCH:
/// @code
///   WB_CUDA_CHECK(cudaMalloc(&d_a, bytes));
///   my_kernel<<<grid, block>>>(d_a, n);
///   WB_CHECK_LAUNCH("my_kernel");
/// @endcode
/// On failure the program prints the file, line, call and CUDA's error text, a hint for the
/// common mistakes, and exits with wb::kExitCudaError. In a check, a fault that a kernel raised
/// while it ran (wb::is_kernel_fault) is the exercise's: the check fails (wb::kExitCheckFailed).
#pragma once

#include <cuda_runtime.h>

namespace wb {

/// Prints the failed call and exits with kExitCudaError; in a check, a kernel fault ends it
/// with the FAILED verdict and kExitCheckFailed (wb::kernel_wait_end, general words).
[[noreturn]] void cuda_fail(cudaError_t err, const char* call, const char* file, int line);

/// Checks one CUDA runtime call's result.
inline void cuda_check(cudaError_t err, const char* call, const char* file, int line) {
    if (err != cudaSuccess) cuda_fail(err, call, file, line);
}

/// Checks that the last kernel launch was accepted (bad configuration, too many threads per
/// block, too much shared memory). Errors raised while the kernel runs surface at the next
/// synchronising call, which is checked too.
void check_launch(const char* kernel_name, const char* file, int line);

/// Waits for the kernels queued so far and checks that they ran, without checking the last
/// launch (where the exercise must check its own, as lesson 09 teaches). In a check it waits at
/// most wb::check_kernel_limit_s(): a kernel still running then, or stopped by a fault, fails
/// the check (wb::wait_for_queued, general words); elsewhere any error is a CUDA error.
void wait_and_check_kernel(const char* kernel_name, const char* file, int line);

/// Checks the launch, then waits for the kernel as wait_and_check_kernel does.
void check_launch_and_wait(const char* kernel_name, const char* file, int line);

/// A hint for a CUDA error that students meet often, or "" when there is none.
const char* cuda_error_hint(cudaError_t err);

}  // namespace wb

/// Checks a CUDA runtime call; on failure prints where and why, then exits.
#define WB_CUDA_CHECK(call) ::wb::cuda_check((call), #call, __FILE__, __LINE__)
/// Checks that the kernel launch just made was accepted.
#define WB_CHECK_LAUNCH(kernel_name) ::wb::check_launch((kernel_name), __FILE__, __LINE__)
/// Waits for the kernel just launched and checks that it ran without error.
#define WB_CHECK_LAUNCH_AND_WAIT(kernel_name) ::wb::check_launch_and_wait((kernel_name), __FILE__, __LINE__)
/// Waits for the kernel just launched (its launch unchecked) and checks that it ran without error.
#define WB_WAIT_FOR_KERNEL(kernel_name) ::wb::wait_and_check_kernel((kernel_name), __FILE__, __LINE__)
