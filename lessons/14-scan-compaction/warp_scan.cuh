/// @file warp_scan.cuh
/// @brief Lesson 14, exercise part 1: the inclusive scan of one warp's 32 values.
#pragma once

constexpr unsigned kFullWarp = 0xffffffffu;  ///< every lane of the warp takes part

/// Returns value(lane 0) + ... + value(this lane). Every lane of a full warp must call it.
template <class T>
__device__ inline T warp_inclusive_scan(T value) {
    // >>> TODO 1: each lane's inclusive sum over the warp, in log2(32) steps of shuffles
    // Each step doubles the span a lane's sum covers: after step d, lane i holds the sum of
    // lanes max(0, i - 2d + 1) .. i. __shfl_up_sync(kFullWarp, value, d) returns the value of
    // lane i - d (a lane below d gets its own value back: it must not add it).
    // threadIdx.x % 32 is the lane.
    return value;
    // <<< TODO 1
}
