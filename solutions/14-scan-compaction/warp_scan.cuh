/// @file warp_scan.cuh
/// @brief Lesson 14, exercise part 1: the inclusive scan of one warp's 32 values.
#pragma once

constexpr unsigned kFullWarp = 0xffffffffu;  ///< every lane of the warp takes part

/// Returns value(lane 0) + ... + value(this lane). Every lane of a full warp must call it.
template <class T>
__device__ inline T warp_inclusive_scan(T value) {
    // >>> TODO 1: each lane's inclusive sum over the warp, in log2(32) steps of shuffles
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int d = 1; d <= 16; d *= 2) {  // distances 1, 2, 4, 8, 16: half the warp is the last
        const T below = __shfl_up_sync(kFullWarp, value, d);
        if (lane >= d) value += below;
    }
    return value;
    // <<< TODO 1
}
