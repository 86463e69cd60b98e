// Bug gallery, program early-return: reference version. Every thread of the block takes part
// in every barrier; loads outside the matrix read zero; only the store is guarded.
#include "tiled_matmul.h"

#include "wb/cuda_check.h"

// >>> FIX: the product of n x n matrices for any n, with a clean sanitizer run
__global__ void tiled_matmul_kernel(const float* a, const float* b, float* c, int n) {
    __shared__ float a_tile[kTile][kTile];
    __shared__ float b_tile[kTile][kTile];
    const int row = blockIdx.y * kTile + threadIdx.y;
    const int col = blockIdx.x * kTile + threadIdx.x;

    float sum = 0.0f;
    const int tiles = (n + kTile - 1) / kTile;
    for (int t = 0; t < tiles; ++t) {
        const int a_col = t * kTile + threadIdx.x;
        const int b_row = t * kTile + threadIdx.y;
        // Outside the matrix, load zero: it adds nothing to the sum.
        a_tile[threadIdx.y][threadIdx.x] = (row < n && a_col < n) ? a[row * n + a_col] : 0.0f;
        b_tile[threadIdx.y][threadIdx.x] = (b_row < n && col < n) ? b[b_row * n + col] : 0.0f;
        __syncthreads();  // reached by all threads of the block: nobody returned early
        for (int k = 0; k < kTile; ++k) sum += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = sum;
}
// <<< FIX

void tiled_matmul(const float* d_a, const float* d_b, float* d_c, int n) {
    const dim3 block(kTile, kTile);
    const dim3 grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile);
    tiled_matmul_kernel<<<grid, block>>>(d_a, d_b, d_c, n);
    WB_CHECK_LAUNCH("tiled_matmul_kernel");
}
