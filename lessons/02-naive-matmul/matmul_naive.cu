// Lesson 02 exercise: the matrix product with one GPU thread per element of C.
// Check your work with:  scripts/check 02-naive-matmul   (rebuilds, then runs the check)
// The lesson page has the steps and the hints; driver.cu calls these three functions.
#include "matmul_naive.h"

#include "wb/cuda_check.h"

#include <cstddef>

// Matrices are row-major: element (row, col) of an n x n matrix m is m[row * n + col].

__global__ void matmul_naive_kernel(const double* a, const double* b, double* c, int n) {
    // >>> TODO 1: one thread per element of C: its row, its column, its dot product
    // Each thread finds the one element of C it owns from where it sits in the grid (y gives
    // the row, x the column) and writes that element's dot product. The grid is rounded up,
    // so some threads fall outside the n x n matrix: they must touch nothing. An index such
    // as row times n overflows an int for large n: compute indexes in std::size_t.
    (void)a;
    (void)b;
    (void)c;
    (void)n;
    // <<< TODO 1
}

void launch_matmul_naive(const double* d_a, const double* d_b, double* d_c, int n, dim3 block) {
    // >>> TODO 2: enough blocks to cover the matrix, the launch, then the launch check
    // Every element of C needs a thread: enough blocks of `block` threads to cover n columns
    // (x) and n rows (y), including the last partial block. Check the launch itself, as every
    // launch of the course is checked (wb/cuda_check.h).
    (void)d_a;
    (void)d_b;
    (void)d_c;
    (void)n;
    (void)block;
    // <<< TODO 2
}

void matmul_on_gpu(const double* a, const double* b, double* c, int n, dim3 block) {
    // >>> TODO 3: the round trip: allocate, copy the inputs in, launch, copy C back, free
    // The whole trip of one product through the GPU: device room for A, B and C, the inputs
    // sent over, the kernel run through launch_matmul_naive, the result brought back into c,
    // and nothing left allocated. Every CUDA call is checked (wb/cuda_check.h).
    (void)a;
    (void)b;
    (void)c;
    (void)n;
    (void)block;
    // <<< TODO 3
}
