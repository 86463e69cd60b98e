// Lesson 02 exercise, program "coalescing": the same product as the given strided kernel,
// but with the 32 threads of a warp on 32 neighbouring addresses.
// Check your work with:  scripts/check 02-naive-matmul.coalescing   (rebuilds, then runs the check)
// The lesson page's section "How a warp reads memory" has the steps and the hints.
#include "coalescing.h"

#include "wb/cuda_check.h"

#include <cstddef>

__global__ void scale_rows_kernel(const double* in, const double* row_scale, double* out, int rows, int cols) {
    // >>> TODO 1: which element is this thread's?
    // The threads of a block are numbered x fastest, then y (threadIdx.x + threadIdx.y *
    // blockDim.x), and a warp is 32 consecutive numbers: with blockDim.x >= 32 its threads share
    // threadIdx.y and have consecutive threadIdx.x; a narrower block (16 x 16, 8 x 4) puts
    // blockDim.x consecutive x values on each of several y values. Choose the thread's row and
    // column so that consecutive x read neighbouring doubles of `in`, skip threads outside the
    // matrix, and write out[row][col] = in[row][col] * row_scale[row].
    (void)in;
    (void)row_scale;
    (void)out;
    (void)rows;
    (void)cols;
    // <<< TODO 1
}

void launch_scale_rows(const double* in, const double* row_scale, double* out, int rows, int cols, dim3 block) {
    // The grid's x covers the columns and its y the rows.
    const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    scale_rows_kernel<<<grid, block>>>(in, row_scale, out, rows, cols);
    WB_CHECK_LAUNCH("scale_rows_kernel");
}
