// Kernel 07 (going further, an optional exercise): warp tiling and a block shape tuned for the H100.
// Kernel 06 gives thread t the 8 x 8 block at (8 * (t / 16), 8 * (t % 16)): neighbouring
// threads read B 64 bytes apart, and a 16-byte shared-memory load of 8 such threads hits the
// same banks four times over. Here each warp owns a 64 x 32 tile of C and its 32 threads are
// laid out 8 x 4 inside it; a thread's 8 rows (and 8 columns) are four pairs spaced 16 rows
// (8 columns) apart, so the 8 threads of each quarter-warp read one contiguous 128-byte run:
// every shared-memory load is conflict-free or a broadcast.
// The block shrinks to 64 x 128 (4 warps side by side, 128 threads): with about 250
// registers per thread, two such blocks fit on a multiprocessor where one block of 256
// threads did, and while one block waits at its barrier the other one computes.
// You write the warp tile (TODO 3, 4 and 6) and, for this kernel's tiles, the loads and stores
// of kernel 06 (TODO 1 and 2) and the outer product of kernel 05 (TODO 5).
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
    // Kernel 06's loads for this block's tiles: kPairsA pieces of A and kPairsB pieces of B per
    // thread now (the A tile has half as many rows), the i-th one piece threadIdx.x + i * kThreads
    // of its tile, numbered row after row, read with one 16-byte load into r.a[i] or r.b[i].
    (void)a_block;
    (void)b_block;
    (void)n;
    (void)k0;
    (void)r;
    // <<< TODO 1
}

__device__ void store_tile(const TileRegisters& r, double* a_tile_t, double* b_tile) {
    // >>> TODO 2: those pieces into the shared tiles, A transposed, as in kernel 06
    // Kernel 06's stores for this block's tiles, into flat arrays: the A tile k-major,
    // a_tile_t[k * kStrideA + row] (two 8-byte stores per piece), the B tile as it is,
    // b_tile[k * kBlockN + col] (one 16-byte store per piece).
    (void)r;
    (void)a_tile_t;
    (void)b_tile;
    // <<< TODO 2
}

__global__ void __launch_bounds__(kThreads) warp_tile(const double* a, const double* b, double* c, int n) {
    __shared__ __align__(16) double shared[2 * kBufferDoubles];  // two buffers: 25 KB
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    // >>> TODO 3: where this thread's outputs start in the block tile: its warp's 64 x 32 tile, then its lane
    // Declare first_row and first_col: the row and column of the block tile where this thread's
    // outputs start. The 4 warps sit side by side, each owning kWarpM x kWarpN outputs; inside its
    // warp's tile, lane % 8 chooses the thread's pair of rows in each group of 16 rows, and lane / 8
    // its pair of columns in each group of 8 columns (the lesson page's figure).
    (void)warp;
    (void)lane;
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
            // As kernel 06 reads its operands, for this layout: a_reg[2 h] and a_reg[2 h + 1] are the A
            // tile's values at step k for the thread's h-th pair of rows, b_reg[2 h] and b_reg[2 h + 1]
            // the B tile's for its h-th pair of columns (h = 0..3), each pair one 16-byte load from
            // a_tile_t[k * kStrideA + row] or b_tile[k * kBlockN + col].
            (void)a_tile_t;
            (void)b_tile;
            // <<< TODO 4
            // >>> TODO 5: the outer product a_reg x b_reg added to the 8 x 8 accumulators
            // Kernel 05's step: each of the 64 accumulators gains one product of a value of a_reg and
            // one of b_reg. Index registers only with compile-time constants (unrolled loops).
            (void)a_reg;
            (void)b_reg;
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
    // acc[i][j] belongs at the thread's i-th row and j-th column, counted as a_reg and b_reg
    // count them (pairs of rows, pairs of columns); each pair of neighbouring columns of a row
    // goes to c_block (row-major, n doubles a row) in one 16-byte store.
    (void)c_block;
    (void)acc;
    // <<< TODO 6
}

}  // namespace

void launch_warp_tile(const double* a, const double* b, double* c, int n) {
    require_multiple("warp_tile", n, kBlockN);
    const dim3 grid(n / kBlockN, n / kBlockM);
    warp_tile<<<grid, kThreads>>>(a, b, c, n);
    WB_CHECK_LAUNCH("warp_tile");
}
