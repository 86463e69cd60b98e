/// @file async_copy.cuh
/// @brief Lesson 07: copies from global to shared memory that do not pass through registers
/// (`cp.async`, compute capability 8.0 and later), for the pipelines of kernels 08, 09 and 10.
///
/// A thread's copies form groups: `copy_async_16` adds a copy to the current group,
/// `commit_copies` closes it, and `wait_copies<N>` waits until at most N of the thread's groups
/// are still in flight. Only the thread's own copies are waited for: a `__syncthreads()` after
/// the wait makes every thread's copies visible to the whole block.
#pragma once

// A build for a GPU older than 8.0 compiles these helpers to a trap; the driver never launches
// the kernels that use them there.
#if __CUDA_ARCH__ >= 800 || !defined(__CUDA_ARCH__)
#define WB_ASYNC_COPY_AVAILABLE 1
#endif

/// Starts copying 16 bytes (two doubles, 16-byte aligned on both sides) from global to shared
/// memory. The "memory" clobbers keep the compiler from moving shared-memory reads across the
/// copies and the waits.
__device__ inline void copy_async_16(double* shared_dst, const double* global_src) {
#ifdef WB_ASYNC_COPY_AVAILABLE
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global_src) : "memory");
#else
    (void)shared_dst, (void)global_src;
    __trap();
#endif
}

/// Starts copying 8 bytes (one double) from global to shared memory. Copies of 8 bytes go
/// through the L1 cache (`.ca`): the bypassing form (`.cg`) takes only 16-byte copies.
__device__ inline void copy_async_8(double* shared_dst, const double* global_src) {
#ifdef WB_ASYNC_COPY_AVAILABLE
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(dst), "l"(global_src) : "memory");
#else
    (void)shared_dst, (void)global_src;
    __trap();
#endif
}

/// Closes this thread's current group of copies (an empty group is allowed).
__device__ inline void commit_copies() {
#ifdef WB_ASYNC_COPY_AVAILABLE
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most `pending` groups of this thread's copies are still in flight.
template <int pending>
__device__ inline void wait_copies() {
#ifdef WB_ASYNC_COPY_AVAILABLE
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
#endif
}
