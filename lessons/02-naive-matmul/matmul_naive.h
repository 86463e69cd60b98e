/// @file matmul_naive.h
/// @brief Lesson 02: the matrix product with one GPU thread per element of C.
#pragma once

#include <cuda_runtime.h>

/// C = A * B for n x n row-major double matrices on the device: the thread at (row, col) of
/// the grid computes C[row][col], the dot product of row `row` of A and column `col` of B.
__global__ void matmul_naive_kernel(const double* a, const double* b, double* c, int n);

/// Launches matmul_naive_kernel on device pointers with `block` threads per block and enough
/// blocks to cover the n x n matrix, then checks the launch. Returns without waiting.
void launch_matmul_naive(const double* d_a, const double* d_b, double* d_c, int n, dim3 block);

/// The whole round trip on host matrices: allocate device memory, copy A and B in, launch,
/// copy C out, free. Every CUDA call and the launch are checked.
void matmul_on_gpu(const double* a, const double* b, double* c, int n, dim3 block);
