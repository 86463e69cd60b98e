// Kernel 03: the same 32 x 32 tiles, with the layout every later kernel needs.
// - Global loads stay coalesced: a warp reads 32 consecutive doubles of one row of A or B.
// - The A tile is stored k-major (transposed), so that "column k of the A tile" is a
//   contiguous run in shared memory: later kernels read several rows' values of A with one
//   wide load. Written naively, the transposed store makes all 32 threads of a warp hit the
//   same bank (addresses 32 doubles apart); one double of padding per row spreads them over
//   all banks.
// - The thread block is 32 x 8: each thread loads 4 rows of each tile and computes 4 outputs
//   spaced 8 rows apart, a first taste of kernel 04.
#include "kernels.h"
#include "wb/workbook.h"

namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;  // blockDim.y
constexpr int kPad = 1;          // one double per row: the transposed store is conflict-free

__global__ void smem_transposed(const double* a, const double* b, double* c, int n) {
    __shared__ double a_tile_t[kTile][kTile + kPad];  // a_tile_t[k][row]
    __shared__ double b_tile[kTile][kTile];           // b_tile[k][col]
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int block_row = blockIdx.y * kTile, col = blockIdx.x * kTile + tx;
    double sum[kTile / kRowsPerPass] = {};
    for (int k0 = 0; k0 < n; k0 += kTile) {
        for (int r = ty; r < kTile; r += kRowsPerPass) {
            const int row = block_row + r;
            a_tile_t[tx][r] = (row < n && k0 + tx < n) ? a[row * n + k0 + tx] : 0.0;
            b_tile[r][tx] = (k0 + r < n && col < n) ? b[(k0 + r) * n + col] : 0.0;
        }
        __syncthreads();
        for (int k = 0; k < kTile; ++k) {
            const double b_value = b_tile[k][tx];
#pragma unroll
            for (int i = 0; i < kTile / kRowsPerPass; ++i) sum[i] += a_tile_t[k][ty + i * kRowsPerPass] * b_value;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < kTile / kRowsPerPass; ++i) {
        const int row = block_row + ty + i * kRowsPerPass;
        if (row < n && col < n) c[row * n + col] = sum[i];
    }
}

}  // namespace

void launch_smem_transposed(const double* a, const double* b, double* c, int n) {
    const dim3 block(kTile, kRowsPerPass);
    const dim3 grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile);
    smem_transposed<<<grid, block>>>(a, b, c, n);
    WB_CHECK_LAUNCH("smem_transposed");
}
