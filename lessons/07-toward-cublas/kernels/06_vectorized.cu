// Kernel 06 (going further, an optional exercise): the 128 x 128 x 8 tiles of kernel 05, with
// - 16-byte loads: global reads of two doubles at once (double2), shared-memory reads of the
//   thread's 8 + 8 operands as 4 + 4 double2 loads;
// - two shared-memory buffers: while the block computes on one tile, the next tile's global
//   loads are already in flight into registers and are stored into the other buffer, so one
//   barrier per tile suffices and the load latency hides behind 512 multiply-adds.
// The double buffering is given; you write the 16-byte accesses (TODO 1 to 3) and kernel 05's
// outer product again (TODO 4).
#include "kernels.h"
#include "wb/workbook.h"

namespace {

constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 8;
constexpr int kThreadM = 8, kThreadN = 8;
constexpr int kThreads = 256;
constexpr int kPadA = 4;  // keeps rows 16-byte aligned and spreads the transposed stores
constexpr int kPairsPerThread = kBlockM * kBlockK / 2 / kThreads;  // double2 of A (and of B) per thread: 2

struct TileRegisters {  // one tile's share of this thread, in flight from global memory
    double2 a[kPairsPerThread];
    double2 b[kPairsPerThread];
};

__device__ void load_tile(const double* a_block, const double* b_block, int n, int k0, TileRegisters& r) {
#pragma unroll
    for (int i = 0; i < kPairsPerThread; ++i) {
        // >>> TODO 1: this thread's i-th 16-byte piece of the A tile and of the B tile, one load each
        // The A tile is kBlockK doubles of each of the kBlockM rows of a_block, from column k0; the
        // B tile kBlockN doubles of each of the kBlockK rows of b_block from row k0 (each row of
        // either matrix is n doubles long). Number each tile's pieces of two neighbouring doubles
        // row after row: this thread's i-th piece is piece threadIdx.x + i * kThreads. Read each
        // into r.a[i] and r.b[i] with one 16-byte load, the address of its first double seen as a
        // const double2* (16-byte aligned: n and k0 are even).
        (void)a_block;
        (void)b_block;
        (void)n;
        (void)k0;
        (void)r;
        // <<< TODO 1
    }
}

__device__ void store_tile(const TileRegisters& r, double (*a_tile_t)[kBlockM + kPadA], double (*b_tile)[kBlockN]) {
#pragma unroll
    for (int i = 0; i < kPairsPerThread; ++i) {
        // >>> TODO 2: those pieces into the shared tiles: A transposed (k-major), B as it is, 16 bytes at once
        // The same pieces, numbered as in load_tile. A is kept k-major, a_tile_t[k][row], so the
        // two doubles of an A piece (one row, two neighbouring k) go to two rows of a_tile_t: two
        // 8-byte stores. A B piece keeps its place, b_tile[k][col], and goes in one 16-byte store.
        (void)r;
        (void)a_tile_t;
        (void)b_tile;
        // <<< TODO 2
    }
}

__global__ void vectorized(const double* a, const double* b, double* c, int n) {
    __shared__ __align__(16) double a_tile_t[2][kBlockK][kBlockM + kPadA];
    __shared__ __align__(16) double b_tile[2][kBlockK][kBlockN];
    const int thread_row = threadIdx.x / (kBlockN / kThreadN) * kThreadM;
    const int thread_col = threadIdx.x % (kBlockN / kThreadN) * kThreadN;
    const double* a_block = a + blockIdx.y * kBlockM * n;
    const double* b_block = b + blockIdx.x * kBlockN;

    double acc[kThreadM][kThreadN] = {};
    TileRegisters next;
    load_tile(a_block, b_block, n, 0, next);
    store_tile(next, a_tile_t[0], b_tile[0]);
    __syncthreads();
    const int tiles = n / kBlockK;
    for (int t = 0; t < tiles; ++t) {
        const int buffer = t % 2;
        if (t + 1 < tiles) load_tile(a_block, b_block, n, (t + 1) * kBlockK, next);  // in flight
#pragma unroll
        for (int k = 0; k < kBlockK; ++k) {
            double a_reg[kThreadM], b_reg[kThreadN];
            // >>> TODO 3: this thread's 8 values of column k of the A tile and 8 of row k of the B tile, by pairs
            // As in kernel 05: a_reg gets the values of column k of the A tile at the thread's 8 rows
            // (thread_row on), b_reg those of row k of the B tile at its 8 columns (thread_col on), both
            // from shared-memory buffer `buffer`. Each pair of neighbours comes in one double2 load.
            // <<< TODO 3
            // >>> TODO 4: the outer product a_reg x b_reg added to the 8 x 8 accumulators
            // Kernel 05's step: each of the 64 accumulators gains one product of a value of a_reg and
            // one of b_reg. Index registers only with compile-time constants (unrolled loops).
            (void)a_reg;
            (void)b_reg;
            // <<< TODO 4
        }
        // The other buffer was last read before the previous barrier: safe to overwrite.
        if (t + 1 < tiles) store_tile(next, a_tile_t[1 - buffer], b_tile[1 - buffer]);
        __syncthreads();
    }
    double* c_block = c + blockIdx.y * kBlockM * n + blockIdx.x * kBlockN;
#pragma unroll
    for (int i = 0; i < kThreadM; ++i)
#pragma unroll
        for (int j = 0; j < kThreadN; j += 2)
            *reinterpret_cast<double2*>(&c_block[(thread_row + i) * n + thread_col + j]) =
                make_double2(acc[i][j], acc[i][j + 1]);
}

}  // namespace

void launch_vectorized(const double* a, const double* b, double* c, int n) {
    require_multiple("vectorized", n, kBlockM);
    const dim3 grid(n / kBlockN, n / kBlockM);
    vectorized<<<grid, kThreads>>>(a, b, c, n);
    WB_CHECK_LAUNCH("vectorized");
}
