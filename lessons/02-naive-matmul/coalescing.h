// Lesson 02, second program: how the threads of a warp touch memory.
#pragma once

#include <cuda_runtime.h>

// out[row][col] = in[row][col] * row_scale[row] for a rows x cols row-major matrix of doubles.
__global__ void scale_rows_kernel(const double* in, const double* row_scale, double* out, int rows, int cols);

// Launches scale_rows_kernel on `block`-shaped blocks that cover the matrix (x along columns,
// y along rows) and checks the launch.
void launch_scale_rows(const double* in, const double* row_scale, double* out, int rows, int cols, dim3 block);
