// Kernel 10 (going further, an optional exercise): back to the ordinary FP64 units (one fused multiply-add per output
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
// You write the ring of stages (TODO 4 and 5) and, for this kernel's layout, the warp tile of
// kernel 07 (TODO 1, 2 and 3). The copies of a tile (load_tile_async) and the multiply-adds in
// snake order (multiply_add_snake) are given.
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
    // op.a[2 p] and op.a[2 p + 1]: the A tile's values at step k for the thread's p-th pair of rows,
    // op.b[2 q] and op.b[2 q + 1]: the B tile's for its q-th pair of columns, each pair one 16-byte
    // load. The thread's pairs of rows start at first_row and are kPairStrideM rows apart, its pairs
    // of columns at first_col, kPairStrideN columns apart; a_tile_t[k * kStrideA + row] (k-major) and
    // b_tile[k * kBlockN + col].
    (void)a_tile_t;
    (void)b_tile;
    (void)k;
    (void)first_row;
    (void)first_col;
    (void)op;
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
    // acc[i][j] belongs at the thread's i-th row and j-th column, counted as load_operands counts
    // them (pairs of rows kPairStrideM apart, pairs of columns kPairStrideN apart); each pair of
    // neighbouring columns of a row goes to c_block (row-major, n doubles a row) in one 16-byte store.
    (void)c_block;
    (void)n;
    (void)first_row;
    (void)first_col;
    (void)acc;
    // <<< TODO 2
}

__global__ void __launch_bounds__(kThreads, kBlocksPerSM)
    ffma_pipelined(const double* a, const double* b, double* c, int n) {
    extern __shared__ __align__(16) double shared[];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    // >>> TODO 3: where this thread's outputs start in the block tile: its warp's 128 x 16 tile, then its lane
    // first_row and first_col: the row and column of the block tile where this thread's outputs
    // start. The 4 warps sit side by side, each owning kWarpM x kWarpN outputs; inside its warp's
    // tile the lanes are laid out kLanesM x kLanesN, lane = kLanesN * (row group) + (column group),
    // and the thread's first pair of rows (of columns) is its row (column) group's.
    (void)warp;
    (void)lane;
    const int first_row = 0, first_col = 0;  // placeholders: every thread at the tile's corner
    // <<< TODO 3
    const wb::TilePosition tile = wb::tile_in_bands(blockIdx.x, n / kBlockM, n / kBlockN, 8);
    const double* a_block = a + tile.row * kBlockM * n;
    const double* b_block = b + tile.col * kBlockN;
    const int tiles = n / kBlockK;

    // >>> TODO 4: the ring's start: the first kStages - 1 tiles in flight, the first step's operands read
    // Before the loop over the k tiles: start the copies of the first kStages - 1 tiles, each into
    // its stage and each closed as a group (load_tile_async, commit_copies); wait until the first
    // one has landed for every thread (wait_copies, then a barrier); declare the two sets of operands
    // used in turn and read the first step's into the first set (load_operands).
    // <<< TODO 4

    double acc[kThreadM][kThreadN] = {};
    // >>> TODO 5: every k tile: the copies kStages - 1 tiles ahead, each step's operands loaded a step ahead
    // For each k tile t: start the copies of tile t + kStages - 1 into the stage that tile t - 1
    // used (always close a group, even an empty one, so that wait_copies counts right); then, step
    // by step, read the next step's operands into the other set while this step's multiply-adds run
    // (multiply_add_snake). At the tile's last step the next step is the next tile's first: wait for
    // it (its copies, then the barrier) before reading it. After the last tile, wait for every copy.
    (void)shared;
    (void)a_block;
    (void)b_block;
    (void)tiles;
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
