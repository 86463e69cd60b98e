// Kernel 01 (step 1, given): BF16 tensor cores the way Ampere uses them. One warp-wide
// instruction,
//   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// multiplies a 16 x 16 block of A by a 16 x 8 block of B and adds the 16 x 8 product to
// float accumulators. A block of 256 threads (8 warps) computes a 128 x 128 tile of C; each
// warp owns 64 x 32 of it, 4 x 4 fragments of 16 x 8 (64 accumulators per thread). Every k step
// the block copies a 128 x 32 tile of A and of Bt into shared memory, then every thread loads
// its fragments from there into registers. That last part is what Hopper removes: wgmma
// (kernel 02) reads its operands straight from shared memory.
#include "kernels.h"
#include "wb/ampere_ops.cuh"
#include "wb/workbook.h"

#include <cstdint>

namespace {

constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 32;
constexpr int kWarpM = 64, kWarpN = 32;  // 2 x 4 warps
constexpr int kFragmentsM = kWarpM / 16, kFragmentsN = kWarpN / 8;
constexpr int kThreads = 256;
// Rows padded by 8 bf16 (16 bytes): 80 bytes = 20 banks apart, so the 8 rows one fragment load
// touches start on 8 different groups of 4 banks (no conflict), and rows stay 16-byte aligned.
constexpr int kStride = kBlockK + 8;

// Each thread's fragments of one mma_16x8x16 (wb/ampere_ops.cuh has the whole layout): with
// g = lane / 4 and t = lane % 4, a register holds two neighbouring bf16 along k, e.g.
// A(g, 2t..2t+1), and B(2t..2t+1, g), which is Bt(g, 2t..2t+1): a row of Bt in shared memory.
using wb::bf16_pair;
using wb::mma_16x8x16;

// The block's 128 x 32 tiles of A and Bt at k0 into shared memory, 16 bytes per copy.
__device__ void load_tiles(const bf16* a, const bf16* bt, int k, int k0, bf16 (*a_tile)[kStride],
                           bf16 (*b_tile)[kStride]) {
    constexpr int kPiecesPerRow = kBlockK / 8;
    for (int piece = threadIdx.x; piece < kBlockM * kPiecesPerRow; piece += kThreads) {
        const int row = piece / kPiecesPerRow, col = piece % kPiecesPerRow * 8;
        *reinterpret_cast<uint4*>(&a_tile[row][col]) =
            *reinterpret_cast<const uint4*>(a + static_cast<long>(row) * k + k0 + col);
        *reinterpret_cast<uint4*>(&b_tile[row][col]) =
            *reinterpret_cast<const uint4*>(bt + static_cast<long>(row) * k + k0 + col);
    }
}

__global__ void __launch_bounds__(kThreads) mma_sync_bf16(const bf16* a, const bf16* bt, float* c, int n, int k) {
    __shared__ __align__(16) bf16 a_tile[kBlockM][kStride];
    __shared__ __align__(16) bf16 b_tile[kBlockN][kStride];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
    const int warp_row = warp / (kBlockN / kWarpN) * kWarpM, warp_col = warp % (kBlockN / kWarpN) * kWarpN;
    const bf16* a_block = a + static_cast<long>(blockIdx.y) * kBlockM * k;
    const bf16* bt_block = bt + static_cast<long>(blockIdx.x) * kBlockN * k;

    float acc[kFragmentsM][kFragmentsN][4] = {};
    for (int k0 = 0; k0 < k; k0 += kBlockK) {
        load_tiles(a_block, bt_block, k, k0, a_tile, b_tile);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < kBlockK; kk += 16) {
            uint32_t a_frag[kFragmentsM][4], b_frag[kFragmentsN][2];
#pragma unroll
            for (int i = 0; i < kFragmentsM; ++i) {
                const bf16* top = a_tile[warp_row + 16 * i + g];
                const bf16* bottom = a_tile[warp_row + 16 * i + g + 8];
                a_frag[i][0] = bf16_pair(top, kk + 2 * t);
                a_frag[i][1] = bf16_pair(bottom, kk + 2 * t);
                a_frag[i][2] = bf16_pair(top, kk + 2 * t + 8);
                a_frag[i][3] = bf16_pair(bottom, kk + 2 * t + 8);
            }
#pragma unroll
            for (int j = 0; j < kFragmentsN; ++j) {
                const bf16* column = b_tile[warp_col + 8 * j + g];
                b_frag[j][0] = bf16_pair(column, kk + 2 * t);
                b_frag[j][1] = bf16_pair(column, kk + 2 * t + 8);
            }
#pragma unroll
            for (int i = 0; i < kFragmentsM; ++i)
#pragma unroll
                for (int j = 0; j < kFragmentsN; ++j) mma_16x8x16(acc[i][j], a_frag[i], b_frag[j]);
        }
        __syncthreads();  // everyone is done with the tiles before the next copy overwrites them
    }

    float* c_warp = c + (static_cast<long>(blockIdx.y) * kBlockM + warp_row) * n + blockIdx.x * kBlockN + warp_col;
#pragma unroll
    for (int i = 0; i < kFragmentsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragmentsN; ++j) {
            float* top = c_warp + static_cast<long>(16 * i + g) * n + 8 * j + 2 * t;
            *reinterpret_cast<float2*>(top) = make_float2(acc[i][j][0], acc[i][j][1]);
            *reinterpret_cast<float2*>(top + 8L * n) = make_float2(acc[i][j][2], acc[i][j][3]);
        }
}

}  // namespace

void launch_mma_sync(const bf16* a, const bf16* bt, float* c, int m, int n, int k) {
    const dim3 grid(n / kBlockN, m / kBlockM);
    mma_sync_bf16<<<grid, kThreads>>>(a, bt, c, n, k);
    WB_CHECK_LAUNCH("mma_sync_bf16");
}
