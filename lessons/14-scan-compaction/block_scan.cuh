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
    // A thread's exclusive sum over the block is its exclusive sum within its warp plus the
    // totals of all the warps before its own. The warps' totals are shared through
    // storage.warp_totals, and scanning them is itself a warp's scan. Every thread reads the
    // block's total. Shared memory written by one warp and read by another needs a barrier
    // between, and the function may be called again at once: no warp may overwrite
    // warp_totals while another still reads them.
    (void)lane;
    (void)warp;
    (void)warps;
    (void)storage;
    block_total = value;
    return T(0);
    // <<< TODO 2
}
