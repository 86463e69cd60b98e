// Lesson 02 reference solution, program "coalescing".
#include "coalescing.h"

#include "wb/cuda_check.h"

#include <cstddef>

__global__ void scale_rows_kernel(const double* in, const double* row_scale, double* out, int rows, int cols) {
    // >>> TODO 1: which element is this thread's?
    // Threads are numbered x fastest, then y, and a warp is 32 consecutive numbers, so x is
    // the index that changes from one thread of a warp to the next (a block narrower than 32
    // gives a warp several rows of blockDim.x threads). A row's columns are neighbours in
    // memory: x picks the column.
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= rows || col >= cols) return;
    const std::size_t at = static_cast<std::size_t>(row) * cols + col;
    out[at] = in[at] * row_scale[row];
    // <<< TODO 1
}

void launch_scale_rows(const double* in, const double* row_scale, double* out, int rows, int cols, dim3 block) {
    // The grid's x covers the columns and its y the rows.
    const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    scale_rows_kernel<<<grid, block>>>(in, row_scale, out, rows, cols);
    WB_CHECK_LAUNCH("scale_rows_kernel");
}
