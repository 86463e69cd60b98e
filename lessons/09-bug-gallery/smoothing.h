/// @file smoothing.h
/// @brief Bug gallery, program missing-barrier: rows smoothed again and again in shared memory.
#pragma once

#include <cuda_runtime.h>

/// The longest row: one block per row, one thread per element.
constexpr int kMaxSmoothCols = 1024;

/// Smooths every row of the row-major rows x cols matrix d_in `iterations` times (each element
/// becomes the mean of itself and its two neighbours; the ends use themselves as the missing
/// neighbour) and writes the result to d_out. cols <= kMaxSmoothCols. Device pointers.
void smooth_rows(const double* d_in, double* d_out, int rows, int cols, int iterations);

/// One step of the smoothing for one element: the kernel and the CPU reference both use it.
__host__ __device__ inline double smoothed(double left, double middle, double right) {
    return (left + middle + right) / 3.0;
}
