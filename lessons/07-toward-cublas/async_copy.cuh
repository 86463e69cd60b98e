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

/// The pipeline of kernels 08 and 09: `stages` shared-memory stages of `stage_doubles` each,
/// taken in turn; the copies of tile t + stages - 1 start while the block computes on tile t.
/// `load(tile, stage)` starts the copies of one k tile into a stage; `compute(stage)` uses a
/// stage whose copies have landed for every thread of the block.
template <int stages, class Load, class Compute>
__device__ __forceinline__ void run_copy_pipeline(double* shared, int stage_doubles, int tiles, Load load,
                                                  Compute compute) {
    // Prologue: start the first stages - 1 tiles.
#pragma unroll
    for (int s = 0; s < stages - 1; ++s) {
        if (s < tiles) load(s, shared + s * stage_doubles);
        commit_copies();
    }
    for (int t = 0; t < tiles; ++t) {
        wait_copies<stages - 2>();  // tile t has landed (for this thread's copies) ...
        __syncthreads();            // ... and for everyone's; stage (t - 1) % stages is free
        const int next = t + stages - 1;
        if (next < tiles) load(next, shared + (next % stages) * stage_doubles);
        commit_copies();  // an empty group at the end keeps the count in wait_copies right
        compute(shared + (t % stages) * stage_doubles);
    }
    wait_copies<0>();
}
