/// @file matmul_cpu.h
/// @brief Lesson 01: the two loop orders of a CPU matrix product.
#pragma once

/// C = A * B for n x n row-major matrices, loops in i-j-k order: each C[i][j] is one dot
/// product of row i of A with column j of B.
void matmul_ijk(const double* a, const double* b, double* c, int n);

/// The same product with the loops in i-k-j order: the innermost loop walks along a row of B
/// and a row of C, so it reads memory contiguously.
void matmul_ikj(const double* a, const double* b, double* c, int n);
