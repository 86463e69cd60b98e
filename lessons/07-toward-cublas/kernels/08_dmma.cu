// Kernel 08 (the second exercise): FP64 tensor cores. One warp-wide instruction,
//   mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
// multiplies an 8 x 4 block of A by a 4 x 8 block of B and adds the 8 x 8 product to C: 256
// multiply-adds, each thread supplying one double of A, one of B and holding two of C
// (the "fragments"). A block of 128 threads (4 warps) computes a 64 x 64 tile of C; each warp
// owns a 32 x 32 tile of it, that is 4 x 4 fragments of 8 x 8 (32 accumulators per thread).
// Tiles of A (64 x 32) and B (32 x 64) travel from global to shared memory with cp.async into
// two stages: the copies of the next tile are in flight while the warps compute on this one.
// Small blocks with few registers let three blocks (12 warps) share a multiprocessor.
#include "async_copy.cuh"
#include "kernels.h"
#include "wb/tile_order.h"
#include "wb/workbook.h"

namespace {

constexpr int kBlockM = 64, kBlockN = 64, kBlockK = 32;
constexpr int kWarpM = 32, kWarpN = 32;                            // 2 x 2 warps
constexpr int kFragmentsM = kWarpM / 8, kFragmentsN = kWarpN / 8;  // 4 x 4 fragments per warp
constexpr int kThreads = 128;
constexpr int kStages = 2;
constexpr int kMinBlocksPerSM = 4;  // asks the compiler for at most 128 registers per thread
// Row strides in shared memory, padded so that a warp's fragment loads hit 32 different banks
// (see the lesson page) while rows stay 16-byte aligned for cp.async.
constexpr int kStrideA = kBlockK + 4;  // a_tile[row][k]
constexpr int kStrideB = kBlockN + 4;  // b_tile[k][col]
constexpr int kStageDoubles = kBlockM * kStrideA + kBlockK * kStrideB;
constexpr int kSharedBytes = kStages * kStageDoubles * static_cast<int>(sizeof(double));  // 71680

// D = A * B + D on one 8 x 8 fragment. Each thread passes its double of A (row lane / 4,
// column lane % 4 of the 8 x 4 block), its double of B (row lane % 4, column lane / 4 of the
// 4 x 8 block) and its two doubles of C (row lane / 4, columns 2 (lane % 4) and the next).
// Tensor cores for doubles need compute capability 8.0, as does cp.async (async_copy.cuh); a
// build for an older GPU compiles this helper to a trap, and the driver leaves kernel 08 out.
#if __CUDA_ARCH__ >= 800 || !defined(__CUDA_ARCH__)
#define WB_DMMA_AVAILABLE 1
#endif

__device__ void mma_m8n8k4(double (&d)[2], double a, double b) {
#ifdef WB_DMMA_AVAILABLE
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(d[0]), "+d"(d[1])
        : "d"(a), "d"(b));
#else
    (void)d, (void)a, (void)b;
    __trap();
#endif
}

// Starts the copies of k tile `tile` into shared-memory stage `stage` (8 + 8 per thread).
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

// acc += (this warp's 32 x 32 slice of the A tile) * (the 32 x 32 slice of the B tile).
__device__ void compute_stage(const double* stage, int warp_row, int warp_col, int lane,
                              double (&acc)[kFragmentsM][kFragmentsN][2]) {
    const double* a_tile = stage;                       // a_tile[row * kStrideA + k]
    const double* b_tile = stage + kBlockM * kStrideA;  // b_tile[k * kStrideB + col]
    double a_fragment[kFragmentsM];
    double b_fragment[kFragmentsN];
#pragma unroll
    for (int k = 0; k < kBlockK; k += 4) {
        // >>> TODO 1: this thread's double of each of the warp's 4 A fragments
        // Which element of the A tile a lane holds in an 8x4 fragment is fixed by the
        // instruction (the PTX ISA's figure of the m8n8k4 .f64 A fragment); fragment i covers
        // the 8 rows of the warp's tile that start at 8 i.
        // <<< TODO 1
        // >>> TODO 2: this thread's double of each of the warp's 4 B fragments
        // Likewise for B (the PTX ISA's figure of the m8n8k4 .f64 B fragment): fragment j
        // covers the 8 columns of the warp's tile that start at 8 j.
        // <<< TODO 2
        // >>> TODO 3: one tensor-core multiply-add per pair of fragments
        // Every accumulator of the warp's 4 x 4 grid of 8x8 tiles takes the product of its
        // row's A fragment and its column's B fragment (the helper beside this kernel issues
        // the instruction). Loops with constant bounds, unrolled, keep acc in registers.
        (void)a_tile;
        (void)b_tile;
        (void)a_fragment;
        (void)b_fragment;
        (void)warp_row;
        (void)warp_col;
        (void)lane;
        (void)acc;
        // <<< TODO 3
    }
}

// Which tile of C each block computes (wb::tile_in_bands): consecutive blocks walk down a group
// of kGroupRows block-rows before moving one block-column right, so the blocks resident at the
// same time share their A and B tiles through the L2 cache instead of each reading them from memory.
constexpr int kGroupRows = 8;

__global__ void __launch_bounds__(kThreads, kMinBlocksPerSM) dmma(const double* a, const double* b, double* c, int n) {
    extern __shared__ __align__(16) double shared[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warp_row = warp / (kBlockN / kWarpN) * kWarpM;
    const int warp_col = warp % (kBlockN / kWarpN) * kWarpN;
    const wb::TilePosition tile = wb::tile_in_bands(blockIdx.x, n / kBlockM, n / kBlockN, kGroupRows);
    const int block_row = tile.row, block_col = tile.col;
    const double* a_block = a + block_row * kBlockM * n;
    const double* b_block = b + block_col * kBlockN;
    const int tiles = n / kBlockK;

    double acc[kFragmentsM][kFragmentsN][2] = {};
    run_copy_pipeline<kStages>(
        shared, kStageDoubles, tiles,
        [&](int k_tile, double* stage) { load_tile_async(a_block, b_block, n, k_tile, stage); },
        [&](const double* stage) { compute_stage(stage, warp_row, warp_col, lane, acc); });

    double* c_block = c + block_row * kBlockM * n + block_col * kBlockN;
#pragma unroll
    for (int i = 0; i < kFragmentsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragmentsN; ++j) {
            const int row = warp_row + 8 * i + lane / 4;
            const int col = warp_col + 8 * j + lane % 4 * 2;
            *reinterpret_cast<double2*>(&c_block[row * n + col]) = make_double2(acc[i][j][0], acc[i][j][1]);
        }
}

}  // namespace

void launch_dmma(const double* a, const double* b, double* c, int n) {
    require_multiple("dmma", n, kBlockM);
    WB_CUDA_CHECK(cudaFuncSetAttribute(dmma, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    const dim3 grid((n / kBlockN) * (n / kBlockM));  // one dimension: tile_in_bands() places the blocks
    dmma<<<grid, kThreads, kSharedBytes>>>(a, b, c, n);
    WB_CHECK_LAUNCH("dmma");
}
