/// @file gemv_ceiling.h
/// @brief cuBLAS dgemv as the ceiling of column (or row) sums of a matrix.
///
/// The column sums of a row-major m x n matrix A are y = A^T * ones. cuBLAS is column-major,
/// and a row-major m x n matrix is, for cuBLAS, the column-major n x m matrix A^T with leading
/// dimension n: so y = A^T * ones is one plain (non-transposed) dgemv. Link `workbook_ceilings`.
#pragma once

#include "wb/timer.h"

#include <cstddef>

namespace wb {

/// Allocates `count` doubles on the device, all set to 1.0 (free them with cudaFree).
double* device_ones(std::size_t count);

/// Writes the n column sums of the row-major m x n matrix `d_matrix` into `d_sums` with one
/// cuBLAS dgemv call (y = A^T * ones, beta = 0); `d_ones` holds at least m ones. All pointers
/// are device pointers; m and n must fit in an int.
void cublas_column_sums(const double* d_matrix, long m, long n, const double* d_ones, double* d_sums);

}  // namespace wb
