// Lesson 02 exercise: the matrix product with one GPU thread per element of C.
// Check your work with:  scripts/check 02-naive-matmul   (rebuilds, then runs the check)
// The lesson page has the steps and the hints; driver.cu calls these three functions.
#include "matmul_naive.h"

#include "wb/cuda_check.h"

#include <cstddef>

// Matrices are row-major: element (row, col) of an n x n matrix m is m[row * n + col].

__global__ void matmul_naive_kernel(const double* a, const double* b, double* c, int n) {
    // >>> TODO 1: one thread per element of C: its row, its column, its dot product
    // Compute this thread's row (from blockIdx.y, blockDim.y, threadIdx.y) and column
    // (the same in x). Threads outside the n x n matrix must do nothing. The others set
    // c[row * n + col] to the sum over k of a[row * n + k] * b[k * n + col].
    // Do the index products in std::size_t: row * n overflows an int for large n.
    (void)a;
    (void)b;
    (void)c;
    (void)n;
    // <<< TODO 1
}

void launch_matmul_naive(const double* d_a, const double* d_b, double* d_c, int n, dim3 block) {
    // >>> TODO 2: enough blocks to cover the matrix, the launch, then the launch check
    // A grid of enough blocks to cover n columns (x) and n rows (y): round up.
    // Launch matmul_naive_kernel<<<grid, block>>>(...), then WB_CHECK_LAUNCH("matmul_naive_kernel").
    (void)d_a;
    (void)d_b;
    (void)d_c;
    (void)n;
    (void)block;
    // <<< TODO 2
}

void matmul_on_gpu(const double* a, const double* b, double* c, int n, dim3 block) {
    // >>> TODO 3: the round trip: allocate, copy the inputs in, launch, copy C back, free
    // Every call wrapped in WB_CUDA_CHECK(...): cudaMalloc three device matrices of n * n
    // doubles; cudaMemcpy a and b to the device; launch_matmul_naive(...); cudaMemcpy the
    // result back into c; cudaFree all three.
    (void)a;
    (void)b;
    (void)c;
    (void)n;
    (void)block;
    // <<< TODO 3
}
