/// @file high2_mapping.h
/// @brief Version 3 ("high2" in the assignment): which rows of which column one thread sums.
///
/// The assignment launches 8 blocks of 8 x 128 threads for every shape and derives each
/// thread's column and row segment from n. The same function serves the kernel and the CPU
/// check that finds the n for which the arithmetic covers every element exactly once.
#pragma once

#include <cuda_runtime.h>

constexpr int kHigh2Blocks = 8;    ///< grid: 8 blocks, whatever the shape
constexpr int kHigh2BlockX = 8;    ///< block: 8 threads across ...
constexpr int kHigh2BlockY = 128;  ///< ... and 128 down (1024 threads)

/// One thread's share of the work: rows [row_begin, row_end) of `column`.
struct High2Work {
    bool defined = false;     ///< false where the assignment's code divides by zero
    int column = -1;          ///< the column this thread sums
    long long row_begin = 0;  ///< first row
    long long row_end = 0;    ///< one past the last row
};

/// The assignment's index arithmetic, rewritten with names.
__host__ __device__ inline High2Work high2_work(long long m, int n, int block_x, int thread_x, int thread_y) {
    High2Work work;
    const int columns_per_block = n / kHigh2BlockX;  // 1 for n = 8, 4 for n = 32, 8 for n = 64
    if (columns_per_block < 1 || columns_per_block > kHigh2BlockX) return work;  // the original divides by zero
    const int threads_per_column_x = kHigh2BlockX / columns_per_block;           // 8, 2, 1
    int column_in_block;
    if (columns_per_block > 1 && columns_per_block < kHigh2BlockX) {
        column_in_block = thread_x / 2;  // the original's even/odd branch: right only if threads_per_column_x == 2
    } else {
        column_in_block = thread_x % columns_per_block;
    }
    const int segments = kHigh2BlockY * threads_per_column_x;  // every column is cut into this many pieces
    const long long rows_per_segment = (m + segments - 1) / segments;
    const int segment = thread_x % threads_per_column_x + thread_y * threads_per_column_x;
    work.defined = true;
    work.column = block_x * columns_per_block + column_in_block;
    work.row_begin = segment * rows_per_segment;
    work.row_end = work.row_begin + rows_per_segment < m ? work.row_begin + rows_per_segment : m;
    return work;
}
