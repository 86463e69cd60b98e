/// @file row_state.cuh
/// @brief Lesson 16: what a thread of the fused kernels (steps 2 and 3) knows of its rows of
/// queries, and the reductions over the 4 threads of a quad, which share a row. In both kernels'
/// tensor-core layouts a thread holds two rows, g and g + 8 of its warp's 16 (g = lane / 4), and
/// the 4 threads of a quad (lanes 4 g .. 4 g + 3) hold the columns of those rows between them.
#pragma once

#include "wb/register_array.h"

#include <cmath>

/// What a thread knows of its two rows (g and g + 8 of its warp's 16): the running max of their
/// scores (in log2 units) and its own part of their running sums of exponentials (each row's 64
/// columns of a tile are spread over the 4 threads of a quad, 16 each).
struct RowState {
    wb::RegisterArray<float, 2> max = {-INFINITY, -INFINITY};
    wb::RegisterArray<float, 2> sum = {0.0f, 0.0f};
};

/// The largest (the sum) of x over the 4 threads of a quad, which hold one row's columns.
__device__ inline float quad_max(float x) {
    x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
    return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}
__device__ inline float quad_sum(float x) {
    x += __shfl_xor_sync(0xffffffffu, x, 1);
    return x + __shfl_xor_sync(0xffffffffu, x, 2);
}
