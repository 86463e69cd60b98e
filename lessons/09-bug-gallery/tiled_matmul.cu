// Bug gallery, program early-return. Correct when n is a multiple of 32, wrong at n = 60:
// find out why.   scripts/check 09-bug-gallery.early-return
// Then run compute-sanitizer on it (memcheck and synccheck): what do they say?
// Hints: docs page "Lesson 09: bug gallery", or  scripts/progress hint 09-bug-gallery.early-return
#include "tiled_matmul.h"

#include "wb/cuda_check.h"

// >>> FIX: the product of n x n matrices for any n, with a clean sanitizer run
__global__ void tiled_matmul_kernel(const float* a, const float* b, float* c, int n) {
    __shared__ float a_tile[kTile][kTile];
    __shared__ float b_tile[kTile][kTile];
    const int row = blockIdx.y * kTile + threadIdx.y;
    const int col = blockIdx.x * kTile + threadIdx.x;
    if (row >= n || col >= n) return;  // this thread has no element of C

    float sum = 0.0f;
    const int tiles = (n + kTile - 1) / kTile;
    for (int t = 0; t < tiles; ++t) {
        // Each thread loads one element of each tile...
        a_tile[threadIdx.y][threadIdx.x] = a[row * n + t * kTile + threadIdx.x];
        b_tile[threadIdx.y][threadIdx.x] = b[(t * kTile + threadIdx.y) * n + col];
        __syncthreads();  // ...and waits until the whole block has loaded both tiles
        for (int k = 0; k < kTile; ++k) sum += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
        __syncthreads();  // everyone is done with the tiles before they are overwritten
    }
    c[row * n + col] = sum;
}
// <<< FIX

void tiled_matmul(const float* d_a, const float* d_b, float* d_c, int n) {
    const dim3 block(kTile, kTile);
    const dim3 grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile);
    tiled_matmul_kernel<<<grid, block>>>(d_a, d_b, d_c, n);
    WB_CHECK_LAUNCH("tiled_matmul_kernel");
}
