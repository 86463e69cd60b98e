/// @file column_sums.h
/// @brief Bug gallery, programs dropped-rows and oversized-block: column sums of a matrix.
#pragma once

/// sums[j] = sum over i of mat[i * n + j], for an m x n row-major double matrix on the device.
/// d_sums may hold anything on entry.
void column_sums(const double* d_mat, double* d_sums, int m, int n);
