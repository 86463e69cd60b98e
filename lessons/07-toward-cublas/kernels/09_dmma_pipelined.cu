// Kernel 09 (going further, an optional exercise): kernel 08 rebuilt for the H100, which reaches about half of the
// FP64 tensor-core peak. Three changes:
// - The sm_90 shape mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64: one instruction
//   multiplies a 16 x 16 block of A by a 16 x 8 block of B, 2048 multiply-adds against the 256
//   of m8n8k4, so the warps issue 8 times fewer of them. The H100's FP64 tensor cores reach
//   their peak with this shape (the course's roof probe, common/src/roofs.cu, measures it so).
// - A bigger block: 128 x 128 (8 warps, 256 threads, one block per multiprocessor) instead of
//   64 x 64. Each double brought from global memory (the L2 cache) serves 128 multiply-adds
//   instead of 64: half the L2 traffic per operation, which matters near 60 TFLOP/s.
// - Three stages of cp.async instead of two, 32 deep in k: while the warps compute on one tile,
//   the copies of the next two are in flight, so one slow copy does not stall the tensor cores.
// Each warp owns a 64 x 32 tile of C: 4 x 4 fragments of 16 x 8, 64 accumulators per thread.
// The shape needs compute capability 9.0; the driver leaves this kernel out on older GPUs.
// You write the fragments of the new shape (TODO 1 and 2) and the multiply-adds of a stage, as
// in kernel 08 (TODO 3); the three-stage pipeline runs as kernel 08's does (run_copy_pipeline).
#include "async_copy.cuh"
#include "kernels.h"
#include "wb/tile_order.h"
#include "wb/workbook.h"

namespace {

constexpr int kBlockM = 128, kBlockN = 128, kBlockK = 32;
constexpr int kWarpM = 64, kWarpN = 32;  // 2 x 4 warps
// One mma.sync multiplies a kMmaM x kMmaK block of A by a kMmaK x kMmaN block of B.
constexpr int kMmaM = 16, kMmaN = 8, kMmaK = 16;
constexpr int kFragmentsM = kWarpM / kMmaM, kFragmentsN = kWarpN / kMmaN;  // 4 x 4 per warp
constexpr int kThreads = 256;
constexpr int kStages = 3;
// Row strides in shared memory, padded by 4 doubles: a multiple of 16 plus 4. A fragment load
// has lane l read row l / 4 and column l % 4 of A (or row l % 4 and column l / 4 of B), so the
// 16 lanes of a half-warp read 4 rows x 4 neighbouring doubles; with the pad, row r starts at
// bank pair 4r mod 16 and the 16 reads land on 16 different bank pairs (no conflict), while
// every row stays 16-byte aligned for cp.async.
constexpr int kStrideA = kBlockK + 4;  // a_tile[row][k]: 36
constexpr int kStrideB = kBlockN + 4;  // b_tile[k][col]: 132
constexpr int kStageDoubles = kBlockM * kStrideA + kBlockK * kStrideB;
constexpr int kSharedBytes = kStages * kStageDoubles * static_cast<int>(sizeof(double));  // 211968
static_assert(kSharedBytes <= 227 * 1024, "an H100 block may use at most 227 KiB of shared memory");

// The 16 x 8 x 16 shape exists from compute capability 9.0 on; a build for an older GPU
// compiles this helper to a trap (the driver never launches this kernel there).
#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
#define WB_DMMA_16X8X16_AVAILABLE 1
#endif

// D = A * B + D on one 16 x 8 fragment of C, summing over 16 values of k. With g = lane / 4
// and t = lane % 4, each thread passes (PTX ISA, "Matrix fragments for mma.m16n8k16" with .f64):
//   a[v] = A(row g + 8 (v % 2), column t + 4 (v / 2))   of the 16 x 16 block of A, v = 0..7
//   b[v] = B(row t + 4 v, column g)                      of the 16 x 8 block of B,  v = 0..3
//   d[v] = C(row g + 8 (v / 2), column 2 t + v % 2)      of the 16 x 8 block of C,  v = 0..3
__device__ void mma_m16n8k16(double (&d)[4], const double (&a)[8], const double (&b)[4]) {
#ifdef WB_DMMA_16X8X16_AVAILABLE
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]),
          "d"(b[2]), "d"(b[3]));
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

// Starts the copies of k tile `tile` into shared-memory stage `stage`: a 128 x 32 tile of A and
// a 32 x 128 tile of B, 8 + 8 pieces of 16 bytes per thread. Consecutive threads copy
// consecutive pieces of a row, so each warp reads whole 128-byte lines of A and B.
__device__ void load_tile_async(const double* a_block, const double* b_block, int n, int tile, double* stage) {
    double* a_tile = stage;
    double* b_tile = stage + kBlockM * kStrideA;
    const int k0 = tile * kBlockK;
#pragma unroll
    for (int i = 0; i < kBlockM * kBlockK / 2 / kThreads; ++i) {
        const int index = threadIdx.x + i * kThreads;
        const int a_row = index / (kBlockK / 2), a_k = index % (kBlockK / 2) * 2;
        copy_async_16(&a_tile[a_row * kStrideA + a_k], &a_block[a_row * n + k0 + a_k]);
    }
#pragma unroll
    for (int i = 0; i < kBlockK * kBlockN / 2 / kThreads; ++i) {
        const int index = threadIdx.x + i * kThreads;
        const int b_k = index / (kBlockN / 2), b_col = index % (kBlockN / 2) * 2;
        copy_async_16(&b_tile[b_k * kStrideB + b_col], &b_block[(k0 + b_k) * n + b_col]);
    }
}

// This thread's 8 doubles of the 16 x 16 block of A whose top-left corner is a_tile[row][k].
__device__ void load_a_fragment(const double* a_tile, int row, int k, int lane, double (&a)[8]) {
    // >>> TODO 1: this thread's 8 doubles of the 16 x 16 A fragment whose corner is a_tile[row][k]
    // a[v] is element (row g + 8 (v % 2), column t + 4 (v / 2)) of the 16 x 16 block of A whose
    // top-left corner is a_tile[row][k] (the table above mma_m16n8k16; g = lane / 4, t = lane % 4).
    // The A tile is row-major in shared memory: element (r, c) of the tile is a_tile[r * kStrideA + c].
    (void)a_tile;
    (void)row;
    (void)k;
    (void)lane;
    (void)a;
    // <<< TODO 1
}

// This thread's 4 doubles of the 16 x 8 block of B whose top-left corner is b_tile[k][col].
__device__ void load_b_fragment(const double* b_tile, int k, int col, int lane, double (&b)[4]) {
    // >>> TODO 2: this thread's 4 doubles of the 16 x 8 B fragment whose corner is b_tile[k][col]
    // b[v] is element (row t + 4 v, column g) of the 16 x 8 block of B whose top-left corner is
    // b_tile[k][col]; the B tile is row-major too: element (r, c) is b_tile[r * kStrideB + c].
    (void)b_tile;
    (void)k;
    (void)col;
    (void)lane;
    (void)b;
    // <<< TODO 2
}

// acc += (this warp's 64 x 32 slice of the A tile) * (the 32 x 32 slice of the B tile), in two
// steps of k = 16. Per step the warp reads its 4 B fragments once and keeps them; then, one
// A fragment at a time, it multiplies that fragment by all 4 of them: every fragment read from
// shared memory serves 4 mma.sync, and only 8 + 16 doubles of fragments live in registers
// beside the 64 accumulators.
__device__ void compute_stage(const double* stage, int warp_row, int warp_col, int lane,
                              double (&acc)[kFragmentsM][kFragmentsN][4]) {
    const double* a_tile = stage;                       // a_tile[row * kStrideA + k]
    const double* b_tile = stage + kBlockM * kStrideA;  // b_tile[k * kStrideB + col]
#pragma unroll
    for (int k = 0; k < kBlockK; k += kMmaK) {
        // >>> TODO 3: the warp's 4 B fragments once, then each A fragment and its 4 tensor-core multiply-adds
        // At this step of k (16 deep), the warp's tile is kFragmentsM x kFragmentsN fragments of
        // 16 x 8 of C, from its row warp_row and column warp_col: fragment (i, j) takes the product of
        // the A fragment of its row i and the B fragment of its column j (one mma_m16n8k16 into
        // acc[i][j]). Read the 4 B fragments once and keep them; then read one A fragment at a time and
        // use it 4 times: every fragment read from shared memory serves 4 instructions, and only 8 + 16
        // doubles of fragments live in registers beside the 64 accumulators.
        (void)a_tile;
        (void)b_tile;
        (void)warp_row;
        (void)warp_col;
        (void)lane;
        (void)acc;
        // <<< TODO 3
    }
}

// Which tile of C each block computes (wb::tile_in_bands), as in kernel 08: consecutive blocks walk down a group of
// kGroupRows block-rows before moving one block-column right, so the blocks resident at the
// same time share their A and B tiles through the L2 cache.
constexpr int kGroupRows = 8;

// Writes this warp's 64 x 32 tile of C: each thread's two pairs of neighbouring columns of each
// fragment (rows g and g + 8), one 16-byte store per pair.
__device__ void store_tile(double* c_block, int n, int warp_row, int warp_col, int lane,
                           const double (&acc)[kFragmentsM][kFragmentsN][4]) {
#pragma unroll
    for (int i = 0; i < kFragmentsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragmentsN; ++j) {
            const int row = warp_row + kMmaM * i + lane / 4;
            const int col = warp_col + kMmaN * j + lane % 4 * 2;
            *reinterpret_cast<double2*>(&c_block[row * n + col]) = make_double2(acc[i][j][0], acc[i][j][1]);
            *reinterpret_cast<double2*>(&c_block[(row + 8) * n + col]) = make_double2(acc[i][j][2], acc[i][j][3]);
        }
}

// 64 accumulators (128 registers) plus fragments need more than the 128 registers per thread
// that two blocks of 256 threads would leave: one block per multiprocessor, up to 255 each.
__global__ void __launch_bounds__(kThreads, 1) dmma_pipelined(const double* a, const double* b, double* c, int n) {
    extern __shared__ __align__(16) double shared[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_row = warp / (kBlockN / kWarpN) * kWarpM;
    const int warp_col = warp % (kBlockN / kWarpN) * kWarpN;
    const wb::TilePosition tile = wb::tile_in_bands(blockIdx.x, n / kBlockM, n / kBlockN, kGroupRows);
    const int block_row = tile.row, block_col = tile.col;
    const double* a_block = a + block_row * kBlockM * n;
    const double* b_block = b + block_col * kBlockN;
    const int tiles = n / kBlockK;

    double acc[kFragmentsM][kFragmentsN][4] = {};
    run_copy_pipeline<kStages>(
        shared, kStageDoubles, tiles,
        [&](int k_tile, double* stage) { load_tile_async(a_block, b_block, n, k_tile, stage); },
        [&](const double* stage) { compute_stage(stage, warp_row, warp_col, lane, acc); });

    store_tile(c + block_row * kBlockM * n + block_col * kBlockN, n, warp_row, warp_col, lane, acc);
}

}  // namespace

void launch_dmma_pipelined(const double* a, const double* b, double* c, int n) {
    require_multiple("dmma_pipelined", n, kBlockM);
    WB_CUDA_CHECK(cudaFuncSetAttribute(dmma_pipelined, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    const dim3 grid((n / kBlockN) * (n / kBlockM));  // one dimension: tile_in_bands() places the blocks
    dmma_pipelined<<<grid, kThreads, kSharedBytes>>>(a, b, c, n);
    WB_CHECK_LAUNCH("dmma_pipelined");
}
