/// @file async_copy.cuh
/// @brief Lesson 07: copies from global to shared memory that do not pass through registers
/// (`cp.async`, compute capability 8.0 and later), for the pipelines of kernels 08, 09 and 10.
///
/// A thread's copies form groups: `copy_async_16` adds a copy to the current group,
/// `commit_copies` closes it, and `wait_copies<N>` waits until at most N of the thread's groups
/// are still in flight. Only the thread's own copies are waited for: a `__syncthreads()` after
/// the wait makes every thread's copies visible to the whole block.
#pragma once

#include "wb/ampere_ops.cuh"

// The copies themselves, shared with other lessons' kernels: 16 bytes (two doubles) or 8 bytes
// (one double) from global to shared memory, and the waits for them.
using wb::commit_copies;
using wb::copy_async_16;
using wb::copy_async_8;
using wb::wait_copies;

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
