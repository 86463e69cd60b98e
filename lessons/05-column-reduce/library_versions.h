/// @file library_versions.h
/// @brief Lesson 05: what a practitioner would call before writing a kernel, measured beside
/// the hand-written versions (cuBLAS dgemv is the ceiling; see wb/gemv_ceiling.h).
#pragma once

#include <cstddef>

/// Bytes of device scratch space that cub_column_sums needs for an m x n matrix.
std::size_t cub_column_sums_scratch_bytes(long long m, int n);

/// The n column sums of the row-major m x n matrix `d_matrix` with CUB's segmented reduction:
/// the matrix is read through a column-major view (element i is row i % m of column i / m), and
/// each column is one segment. `d_scratch` holds `scratch_bytes` (cub_column_sums_scratch_bytes).
/// Enqueued on the default stream; does not wait.
void cub_column_sums(const double* d_matrix, double* d_sums, long long m, int n, void* d_scratch,
                     std::size_t scratch_bytes);

/// The same sums with Thrust's reduce_by_key: the key of element i of the column-major view is
/// its column, i / m, so each run of m equal keys is one column. Thrust allocates its scratch
/// space inside the call (counted in its time). `d_keys_out` holds n ints (the columns found).
void thrust_column_sums(const double* d_matrix, double* d_sums, int* d_keys_out, long long m, int n);
