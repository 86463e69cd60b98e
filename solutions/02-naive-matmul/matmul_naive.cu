// Lesson 02 reference solution.
#include "matmul_naive.h"

#include "wb/cuda_check.h"

#include <cstddef>

// Matrices are row-major: element (row, col) of an n x n matrix m is m[row * n + col].

__global__ void matmul_naive_kernel(const double* a, const double* b, double* c, int n) {
    // >>> TODO 1: one thread per element of C: its row, its column, its dot product
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;  // the last blocks stick out past the matrix's edge

    // size_t: row * n overflows an int once n passes 46340.
    const double* a_row = a + static_cast<std::size_t>(row) * n;
    double sum = 0.0;
    for (int k = 0; k < n; ++k) {
        sum += a_row[k] * b[static_cast<std::size_t>(k) * n + col];
    }
    c[static_cast<std::size_t>(row) * n + col] = sum;
    // <<< TODO 1
}

void launch_matmul_naive(const double* d_a, const double* d_b, double* d_c, int n, dim3 block) {
    // >>> TODO 2: enough blocks to cover the matrix, the launch, then the launch check
    const dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);  // round up
    matmul_naive_kernel<<<grid, block>>>(d_a, d_b, d_c, n);
    WB_CHECK_LAUNCH("matmul_naive_kernel");
    // <<< TODO 2
}

void matmul_on_gpu(const double* a, const double* b, double* c, int n, dim3 block) {
    // >>> TODO 3: the round trip: allocate, copy the inputs in, launch, copy C back, free
    const std::size_t bytes = static_cast<std::size_t>(n) * n * sizeof(double);
    double* d_a = nullptr;
    double* d_b = nullptr;
    double* d_c = nullptr;
    WB_CUDA_CHECK(cudaMalloc(&d_a, bytes));
    WB_CUDA_CHECK(cudaMalloc(&d_b, bytes));
    WB_CUDA_CHECK(cudaMalloc(&d_c, bytes));

    WB_CUDA_CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    WB_CUDA_CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));

    launch_matmul_naive(d_a, d_b, d_c, n, block);

    // cudaMemcpy waits for the kernel; an error raised while it ran is reported here.
    WB_CUDA_CHECK(cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost));

    WB_CUDA_CHECK(cudaFree(d_a));
    WB_CUDA_CHECK(cudaFree(d_b));
    WB_CUDA_CHECK(cudaFree(d_c));
    // <<< TODO 3
}
