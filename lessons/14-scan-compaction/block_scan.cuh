/// @file block_scan.cuh
/// @brief Lesson 14, exercise part 2: the exclusive scan of one value per thread of a block,
/// built from warp scans.
#pragma once

#include "warp_scan.cuh"

/// Shared memory block_exclusive_scan needs: one value per warp of the block.
template <class T>
struct BlockScanStorage {
    T warp_totals[32];
};

/// Returns value(thread 0) + ... + value(thread - 1) (0 for thread 0) and sets `block_total` to
/// the sum over the whole block. Every thread of the block must call it (blockDim.x a multiple
/// of 32, at most 1024). It may be called again at once with the same storage.
template <class T>
__device__ inline T block_exclusive_scan(T value, BlockScanStorage<T>& storage, T& block_total) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const int warps = blockDim.x / 32;
    // >>> TODO 2: the block's exclusive scan and total, built from warp scans, safe to call again at once
    // 1. inclusive = warp_inclusive_scan(value); this thread's exclusive sum within its warp is
    //    the inclusive sum of the lane before it (__shfl_up_sync by 1; T(0) for lane 0).
    // 2. Lane 31 writes the warp's total to storage.warp_totals[warp]. __syncthreads().
    // 3. Warp 0 replaces warp_totals[0 .. warps) by their inclusive scan (lanes >= warps scan
    //    a T(0)). __syncthreads().
    // 4. block_total = warp_totals[warps - 1]; the result is the exclusive sum within the warp
    //    plus warp_totals[warp - 1] (nothing for warp 0).
    // 5. A last __syncthreads(), so that a next call does not overwrite warp_totals while
    //    another warp still reads them.
    (void)lane;
    (void)warp;
    (void)warps;
    (void)storage;
    block_total = value;
    return T(0);
    // <<< TODO 2
}
