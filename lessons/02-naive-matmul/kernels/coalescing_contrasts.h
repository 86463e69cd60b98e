// Lesson 02, program "coalescing": the given kernels that the check and the benchmark run beside
// yours. Each launcher checks its launch.
#pragma once

#include <cuda_runtime.h>

// scale_rows_strided.cu: the same product as your scale_rows_kernel with x along the rows, so a
// warp's threads sit in one column (the grid's x covers the rows and its y the columns).
void launch_scale_rows_strided(const double* in, const double* row_scale, double* out, int rows, int cols, dim3 block);

// divergence.cu: `work` dependent multiply-adds on each of `count` elements, one loop for even
// elements and another for odd ones, on `blocks` blocks of `threads` threads. By lane, every warp
// holds both parities; by warp, each warp holds one (count must be a multiple of 64 there).
void launch_branch_by_lane(const double* in, double* out, long long count, int work, int blocks, int threads);
void launch_branch_by_warp(const double* in, double* out, long long count, int work, int blocks, int threads);
