// Kernel 07 (going further, solved): warp tiling and a block shape tuned for the H100.
// Kernel 06 gives thread t the 8 x 8 block at (8 * (t / 16), 8 * (t % 16)): neighbouring
// threads read B 64 bytes apart, and a 16-byte shared-memory load of 8 such threads hits the
// same banks four times over. Here each warp owns a 64 x 32 tile of C and its 32 threads are
// laid out 8 x 4 inside it; a thread's 8 rows (and 8 columns) are four pairs spaced 16 rows
// (8 columns) apart, so the 8 threads of each quarter-warp read one contiguous 128-byte run:
// every shared-memory load is conflict-free or a broadcast.
// The block shrinks to 64 x 128 (4 warps side by side, 128 threads): with about 250
// registers per thread, two such blocks fit on a multiprocessor where one block of 256
// threads did, and while one block waits at its barrier the other one computes.
#include "kernels.h"
#include "wb/workbook.h"

namespace {

constexpr int kBlockM = 64, kBlockN = 128, kBlockK = 8;
constexpr int kWarpM = 64, kWarpN = 32;  // 1 x 4 warps
constexpr int kThreads = 128;
constexpr int kThreadM = 8, kThreadN = 8;  // outputs per thread: 4 x 4 pairs
constexpr int kPadA = 4;
constexpr int kStrideA = kBlockM + kPadA;                  // a_tile_t[k][row], k-major
constexpr int kPairsA = kBlockM * kBlockK / 2 / kThreads;  // double2 of A per thread: 2
constexpr int kPairsB = kBlockK * kBlockN / 2 / kThreads;  // double2 of B per thread: 4
constexpr int kBufferDoubles = kBlockK * kStrideA + kBlockK * kBlockN;

struct TileRegisters {
    double2 a[kPairsA];
    double2 b[kPairsB];
};

__device__ void load_tile(const double* a_block, const double* b_block, int n, int k0, TileRegisters& r) {
    // >>> TODO 1: this thread's 16-byte pieces of the A and B tiles into registers, as in kernel 06
#pragma unroll
    for (int i = 0; i < kPairsA; ++i) {
        const int index = threadIdx.x + i * kThreads;
        const int a_row = index / (kBlockK / 2), a_k = index % (kBlockK / 2) * 2;
        r.a[i] = *reinterpret_cast<const double2*>(&a_block[a_row * n + k0 + a_k]);
    }
#pragma unroll
    for (int i = 0; i < kPairsB; ++i) {
        const int index = threadIdx.x + i * kThreads;
        const int b_k = index / (kBlockN / 2), b_col = index % (kBlockN / 2) * 2;
        r.b[i] = *reinterpret_cast<const double2*>(&b_block[(k0 + b_k) * n + b_col]);
    }
    // <<< TODO 1
}

__device__ void store_tile(const TileRegisters& r, double* a_tile_t, double* b_tile) {
    // >>> TODO 2: those pieces into the shared tiles, A transposed, as in kernel 06
#pragma unroll
    for (int i = 0; i < kPairsA; ++i) {
        const int index = threadIdx.x + i * kThreads;
        const int a_row = index / (kBlockK / 2), a_k = index % (kBlockK / 2) * 2;
        a_tile_t[a_k * kStrideA + a_row] = r.a[i].x;  // transposed: two scalar stores
        a_tile_t[(a_k + 1) * kStrideA + a_row] = r.a[i].y;
    }
#pragma unroll
    for (int i = 0; i < kPairsB; ++i) {
        const int index = threadIdx.x + i * kThreads;
        const int b_k = index / (kBlockN / 2), b_col = index % (kBlockN / 2) * 2;
        *reinterpret_cast<double2*>(&b_tile[b_k * kBlockN + b_col]) = r.b[i];
    }
    // <<< TODO 2
}

__global__ void __launch_bounds__(kThreads) warp_tile(const double* a, const double* b, double* c, int n) {
    __shared__ __align__(16) double shared[2 * kBufferDoubles];  // two buffers: 25 KB
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    // >>> TODO 3: where this thread's outputs start in the block tile: its warp's 64 x 32 tile, then its lane
    // Rows of this thread: warp_row + 16 h + 2 (lane % 8) + {0, 1}, h = 0..3;
    // columns: warp_col + 8 h + 2 (lane / 8) + {0, 1}, h = 0..3.
    const int first_row = warp / (kBlockN / kWarpN) * kWarpM + lane % 8 * 2;
    const int first_col = warp % (kBlockN / kWarpN) * kWarpN + lane / 8 * 2;
    // <<< TODO 3
    const double* a_block = a + blockIdx.y * kBlockM * n;
    const double* b_block = b + blockIdx.x * kBlockN;

    double acc[kThreadM][kThreadN] = {};
    TileRegisters next;
    load_tile(a_block, b_block, n, 0, next);
    store_tile(next, shared, shared + kBlockK * kStrideA);
    __syncthreads();
    const int tiles = n / kBlockK;
    for (int t = 0; t < tiles; ++t) {
        const double* a_tile_t = shared + (t % 2) * kBufferDoubles;
        const double* b_tile = a_tile_t + kBlockK * kStrideA;
        if (t + 1 < tiles) load_tile(a_block, b_block, n, (t + 1) * kBlockK, next);
#pragma unroll
        for (int k = 0; k < kBlockK; ++k) {
            double a_reg[kThreadM], b_reg[kThreadN];
            // >>> TODO 4: this thread's 8 values of the A tile and 8 of the B tile at step k, four pairs each
#pragma unroll
            for (int h = 0; h < 4; ++h) {
                const double2 a_pair = *reinterpret_cast<const double2*>(&a_tile_t[k * kStrideA + first_row + 16 * h]);
                a_reg[2 * h] = a_pair.x;
                a_reg[2 * h + 1] = a_pair.y;
                const double2 b_pair = *reinterpret_cast<const double2*>(&b_tile[k * kBlockN + first_col + 8 * h]);
                b_reg[2 * h] = b_pair.x;
                b_reg[2 * h + 1] = b_pair.y;
            }
            // <<< TODO 4
            // >>> TODO 5: the outer product a_reg x b_reg added to the 8 x 8 accumulators
#pragma unroll
            for (int i = 0; i < kThreadM; ++i)
#pragma unroll
                for (int j = 0; j < kThreadN; ++j) acc[i][j] += a_reg[i] * b_reg[j];
            // <<< TODO 5
        }
        if (t + 1 < tiles) {
            double* other = shared + ((t + 1) % 2) * kBufferDoubles;
            store_tile(next, other, other + kBlockK * kStrideA);
        }
        __syncthreads();
    }
    double* c_block = c + blockIdx.y * kBlockM * n + blockIdx.x * kBlockN;
    // >>> TODO 6: this thread's 8 x 8 outputs into C, one 16-byte store per pair of columns
#pragma unroll
    for (int i = 0; i < kThreadM; ++i)
#pragma unroll
        for (int h = 0; h < 4; ++h) {
            const int row = first_row + 16 * (i / 2) + i % 2;
            *reinterpret_cast<double2*>(&c_block[row * n + first_col + 8 * h]) =
                make_double2(acc[i][2 * h], acc[i][2 * h + 1]);
        }
    // <<< TODO 6
}

}  // namespace

void launch_warp_tile(const double* a, const double* b, double* c, int n) {
    require_multiple("warp_tile", n, kBlockN);
    const dim3 grid(n / kBlockN, n / kBlockM);
    warp_tile<<<grid, kThreads>>>(a, b, c, n);
    WB_CHECK_LAUNCH("warp_tile");
}
