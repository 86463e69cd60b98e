// Kernel 10 (going further, solved): back to the ordinary FP64 units (one fused multiply-add per output
// and k, no tensor cores), fed the way kernels 08 and 09 feed the tensor cores. Kernel 07 keeps
// the FP64 units busy only part of the time; three changes keep them busier:
// - The copies. Kernel 07 stages each tile through registers (load, compute, store, barrier).
//   Here cp.async copies the tiles from device memory straight into a ring of kStages
//   shared-memory stages, kStages - 1 tiles ahead of the computation: no registers hold tiles
//   in flight, and the copies' latency hides behind three tiles of work.
// - The operands of the next step. While a thread does the 64 multiply-adds of one step of k,
//   the loads of the next step's 16 operands are already under way (two sets of operand
//   registers, used in turn). At the end of a tile the barrier comes one step early, so that
//   the loads of the next tile's first operands overlap the tile's last step instead of
//   following the barrier.
// - The order of the multiply-adds. A thread's 8 x 8 products are issued row by row, each row
//   in the opposite direction to the row before (a "snake"): every multiply-add then shares an
//   operand with the one before it, also from one row to the next. The compiler marks such an
//   operand `.reuse` in the machine code (`cuobjdump -sass` shows it): the hardware may then
//   take it from an operand cache instead of reading the register file again. NVIDIA does not
//   document the flag; microbenchmark studies of Volta and later GPUs describe it.
// Each warp owns a 128 x 16 tile of C, its lanes laid out 16 x 2 (lane = 2 * row group + column
// group): a thread's 8 rows are 4 pairs spaced 32 rows apart and its 8 columns 4 pairs spaced
// 4 columns apart. A warp's 16-byte load of A then reads 16 contiguous pairs (each one for two
// lanes) and its load of B 2 pairs (each for 16 lanes).
// The blocks are ordered in bands (wb::tile_in_bands, as in kernel 09) so that the blocks
// resident at the same time share their tiles of A and B through the L2 cache.
// cp.async needs compute capability 8.0; the driver leaves this kernel out on older GPUs.
#include "async_copy.cuh"
#include "kernels.h"
#include "wb/tile_order.h"
#include "wb/workbook.h"

namespace {

constexpr int kBlockM = 128, kBlockN = 64, kBlockK = 16;
constexpr int kStages = 4;                 // shared-memory stages: copies run 3 tiles ahead
constexpr int kWarpM = 128, kWarpN = 16;   // 1 x 4 warps
constexpr int kThreadM = 8, kThreadN = 8;  // outputs per thread
constexpr int kThreads = 32 * (kBlockM / kWarpM) * (kBlockN / kWarpN);   // 128
constexpr int kLanesM = kWarpM / kThreadM, kLanesN = kWarpN / kThreadN;  // 16 x 2
constexpr int kPairStrideM = 2 * kLanesM, kPairStrideN = 2 * kLanesN;    // 32 rows, 4 columns
constexpr int kStrideA = kBlockM + 2;                                    // a_tile_t[k][row], padded
constexpr int kStageDoubles = kBlockK * kStrideA + kBlockK * kBlockN;
constexpr int kSharedBytes = kStages * kStageDoubles * static_cast<int>(sizeof(double));  // 99328
// Two blocks share a multiprocessor: each thread stays within 65536 / 256 registers, and two
// blocks' stages (plus 1 KiB the hardware keeps per block) fit in the H100's 228 KiB.
constexpr int kBlocksPerSM = 2;
static_assert(kLanesM * kLanesN == 32, "a warp's 32 threads must tile its warp tile exactly");
static_assert(kThreads % kBlockK == 0 && kThreads % (kBlockN / 2) == 0, "copies must tile the threads");
static_assert(kBlocksPerSM * (kSharedBytes + 1024) <= 228 * 1024, "two blocks' stages must fit");

// Starts the copies of k tile `tile` into one stage. A: consecutive threads copy consecutive
// doubles of a row (a warp reads whole 128-byte lines) and write them transposed, so that a
// thread's rows of A for one k are contiguous pairs; B: 16-byte pieces of its rows.
__device__ void load_tile_async(const double* a_block, const double* b_block, int n, int tile, double* stage) {
    constexpr int kRowsBetweenCopiesA = kThreads / kBlockK, kRowsBetweenCopiesB = kThreads / (kBlockN / 2);
    const int a_row = threadIdx.x / kBlockK, a_k = threadIdx.x % kBlockK;
    const int b_k = threadIdx.x / (kBlockN / 2), b_col = threadIdx.x % (kBlockN / 2) * 2;
    double* a_dst = stage + a_k * kStrideA + a_row;                      // a_tile_t[a_k][a_row]
    double* b_dst = stage + kBlockK * kStrideA + b_k * kBlockN + b_col;  // b_tile[b_k][b_col]
    const double* a_src = a_block + a_row * n + tile * kBlockK + a_k;
    const double* b_src = b_block + (tile * kBlockK + b_k) * n + b_col;
#pragma unroll
    for (int i = 0; i < kBlockM * kBlockK / kThreads; ++i)
        copy_async_8(a_dst + i * kRowsBetweenCopiesA, a_src + i * kRowsBetweenCopiesA * n);
#pragma unroll
    for (int i = 0; i < kBlockK * kBlockN / 2 / kThreads; ++i)
        copy_async_16(b_dst + i * kRowsBetweenCopiesB * kBlockN, b_src + i * kRowsBetweenCopiesB * n);
}

// The operands of one step of k: this thread's 8 values of A (a column of the A tile) and
// 8 values of B (a row of the B tile).
struct Operands {
    double a[kThreadM];
    double b[kThreadN];
};

// Reads the operands of step k from a stage. `first_row` and `first_col` are this thread's
// first output row and column inside the block tile.
__device__ void load_operands(const double* stage, int k, int first_row, int first_col, Operands& op) {
    const double* a_tile_t = stage;
    const double* b_tile = stage + kBlockK * kStrideA;
    // >>> TODO 1: this thread's 8 values of column k of the A tile and 8 of row k of the B tile, by pairs
#pragma unroll
    for (int p = 0; p < kThreadM / 2; ++p) {
        const double2 pair = *reinterpret_cast<const double2*>(&a_tile_t[k * kStrideA + first_row + kPairStrideM * p]);
        op.a[2 * p] = pair.x;
        op.a[2 * p + 1] = pair.y;
    }
#pragma unroll
    for (int q = 0; q < kThreadN / 2; ++q) {
        const double2 pair = *reinterpret_cast<const double2*>(&b_tile[k * kBlockN + first_col + kPairStrideN * q]);
        op.b[2 * q] = pair.x;
        op.b[2 * q + 1] = pair.y;
    }
    // <<< TODO 1
}

// acc += a * b^T for one step of k, row by row in snake order: even rows left to right, odd
// rows right to left, so that consecutive multiply-adds always share an operand.
__device__ void multiply_add_snake(const Operands& op, double (&acc)[kThreadM][kThreadN]) {
    // Given, not an exercise: any order gives the same sums, so no check can tell the snake from
    // another order; only its speed can (Going further, on the lesson's page).
#pragma unroll
    for (int i = 0; i < kThreadM; ++i)
#pragma unroll
        for (int step = 0; step < kThreadN; ++step) {
            const int j = i % 2 == 0 ? step : kThreadN - 1 - step;
            acc[i][j] = fma(op.a[i], op.b[j], acc[i][j]);
        }
}

// Writes this thread's outputs, one 16-byte store per pair of neighbouring columns.
__device__ void store_outputs(double* c_block, int n, int first_row, int first_col,
                              const double (&acc)[kThreadM][kThreadN]) {
    // >>> TODO 2: this thread's 8 x 8 outputs into C, one 16-byte store per pair of columns
#pragma unroll
    for (int i = 0; i < kThreadM; ++i)
#pragma unroll
        for (int q = 0; q < kThreadN / 2; ++q) {
            const int row = first_row + kPairStrideM * (i / 2) + i % 2;
            const int col = first_col + kPairStrideN * q;
            *reinterpret_cast<double2*>(&c_block[row * n + col]) = make_double2(acc[i][2 * q], acc[i][2 * q + 1]);
        }
    // <<< TODO 2
}

__global__ void __launch_bounds__(kThreads, kBlocksPerSM)
    ffma_pipelined(const double* a, const double* b, double* c, int n) {
    extern __shared__ __align__(16) double shared[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    // >>> TODO 3: where this thread's outputs start in the block tile: its warp's 128 x 16 tile, then its lane
    const int first_row = warp / (kBlockN / kWarpN) * kWarpM + lane / kLanesN * 2;
    const int first_col = warp % (kBlockN / kWarpN) * kWarpN + lane % kLanesN * 2;
    // <<< TODO 3
    const wb::TilePosition tile = wb::tile_in_bands(blockIdx.x, n / kBlockM, n / kBlockN, 8);
    const double* a_block = a + tile.row * kBlockM * n;
    const double* b_block = b + tile.col * kBlockN;
    const int tiles = n / kBlockK;

    // >>> TODO 4: the ring's start: the first kStages - 1 tiles in flight, the first step's operands read
    // Start the first kStages - 1 tiles, wait for the first one, read its first operands.
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < tiles) load_tile_async(a_block, b_block, n, s, shared + s * kStageDoubles);
        commit_copies();
    }
    wait_copies<kStages - 2>();
    __syncthreads();
    Operands operands[2];  // this step's and the next step's, used in turn
    load_operands(shared, 0, first_row, first_col, operands[0]);
    // <<< TODO 4

    double acc[kThreadM][kThreadN] = {};
    // >>> TODO 5: every k tile: the copies kStages - 1 tiles ahead, each step's operands loaded a step ahead
    for (int t = 0; t < tiles; ++t) {
        // Every thread passed the barrier of the previous tile after its last read of the
        // stage that tile t - 1 used: the copies of tile t + kStages - 1 may overwrite it.
        const int next = t + kStages - 1;
        if (next < tiles) load_tile_async(a_block, b_block, n, next, shared + (next % kStages) * kStageDoubles);
        commit_copies();  // an empty group at the end keeps the count in wait_copies right
        const double* stage = shared + (t % kStages) * kStageDoubles;
#pragma unroll
        for (int k = 0; k < kBlockK; ++k) {
            Operands& following = operands[(k + 1) % 2];
            if (k + 1 < kBlockK) {
                load_operands(stage, k + 1, first_row, first_col, following);
            } else if (t + 1 < tiles) {
                wait_copies<kStages - 2>();  // tile t + 1 has landed (for this thread's copies) ...
                __syncthreads();             // ... and for everyone's
                load_operands(shared + ((t + 1) % kStages) * kStageDoubles, 0, first_row, first_col, following);
            }
            multiply_add_snake(operands[k % 2], acc);
        }
    }
    wait_copies<0>();
    // <<< TODO 5

    store_outputs(c + tile.row * kBlockM * n + tile.col * kBlockN, n, first_row, first_col, acc);
}

}  // namespace

void launch_ffma_pipelined(const double* a, const double* b, double* c, int n) {
    require_multiple("ffma_pipelined", n, kBlockM);
    WB_CUDA_CHECK(cudaFuncSetAttribute(ffma_pipelined, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
    // Ask for the largest shared-memory share of the multiprocessor, so that two blocks' stages
    // fit side by side.
    WB_CUDA_CHECK(cudaFuncSetAttribute(ffma_pipelined, cudaFuncAttributePreferredSharedMemoryCarveout,
                                       cudaSharedmemCarveoutMaxShared));
    const dim3 grid((n / kBlockM) * (n / kBlockN));  // one dimension: wb::tile_in_bands places the blocks
    ffma_pipelined<<<grid, kThreads, kSharedBytes>>>(a, b, c, n);
    WB_CHECK_LAUNCH("ffma_pipelined");
}
