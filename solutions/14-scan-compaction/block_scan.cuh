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
    const T inclusive = warp_inclusive_scan(value);
    const T before_in_warp = __shfl_up_sync(kFullWarp, inclusive, 1);
    const T exclusive_in_warp = lane == 0 ? T(0) : before_in_warp;
    if (lane == 31) storage.warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const T total = warp_inclusive_scan(lane < warps ? storage.warp_totals[lane] : T(0));
        if (lane < warps) storage.warp_totals[lane] = total;
    }
    __syncthreads();
    block_total = storage.warp_totals[warps - 1];
    const T result = warp == 0 ? exclusive_in_warp : storage.warp_totals[warp - 1] + exclusive_in_warp;
    __syncthreads();
    return result;
    // <<< TODO 2
}
