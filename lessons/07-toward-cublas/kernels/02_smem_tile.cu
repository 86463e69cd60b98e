// Kernel 02 (the tiled-matmul lesson's kernel, the baseline): the classic 32 x 32 shared-memory
// tile. Each block stages a 32 x 32 tile of A and of B in shared memory, so every element loaded
// from global memory is used 32 times; each thread still computes one element of C and reads two
// shared-memory values per multiply-add.
#include "kernels.h"
#include "wb/workbook.h"

namespace {

constexpr int kTile = 32;

__global__ void smem_tile(const double* a, const double* b, double* c, int n) {
    __shared__ double a_tile[kTile][kTile];
    __shared__ double b_tile[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty;
    const int col = blockIdx.x * kTile + tx;
    double sum = 0.0;
    for (int k0 = 0; k0 < n; k0 += kTile) {
        a_tile[ty][tx] = (row < n && k0 + tx < n) ? a[row * n + k0 + tx] : 0.0;
        b_tile[ty][tx] = (k0 + ty < n && col < n) ? b[(k0 + ty) * n + col] : 0.0;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = sum;
}

}  // namespace

void launch_smem_tile(const double* a, const double* b, double* c, int n) {
    const dim3 block(kTile, kTile);
    const dim3 grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile);
    smem_tile<<<grid, block>>>(a, b, c, n);
    WB_CHECK_LAUNCH("smem_tile");
}
