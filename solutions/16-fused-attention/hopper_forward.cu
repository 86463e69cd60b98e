// Step 3 (given, to read after the exercise: it holds its answers): the fused attention of step 2
// on Hopper's own machinery, with the ideas of FlashAttention-3 (Shah et al., 2024) and the tools
// of lesson 13. A block of three warpgroups takes 128 queries of one head:
//   - warpgroup 0, the producer: one of its threads loads the block's Q once, then the tiles of 64
//     keys of K and V into a ring of two shared-memory stages, all by TMA (cp.async.bulk.tensor),
//     each stage completing on an mbarrier (`full`) when its bytes have landed;
//   - warpgroups 1 and 2, the consumers: each owns 64 queries. For each tile it computes its
//     64 x 64 scores S = Q K^T with wgmma (Q and K both read from shared memory), folds them into
//     the online softmax in registers, and adds P V with wgmma, P taken from the registers that
//     hold S (rounded to bf16) and V read from shared memory as it lies ("MN-major"). When both
//     consumers are done with a stage, its `empty` barrier hands it back to the producer.
// As in step 2, causal blocks stop at the tile of their last query, the diagonal tile is masked,
// and so are the keys past the end of the sequence. S and P never leave the chip.
//
// The tensor maps see Q, K and V as one matrix of heads x seq rows and head_dim columns: a tile
// that runs past its head's last key reads the next head's first keys (or zeros past the last
// head: TMA fills what lies outside the matrix with zeros); the mask gives them a weight of 0.
// A head_dim of 128 is two tiles of 64 columns side by side: the 128-byte swizzle, which lets
// wgmma read a tile without bank conflicts, spans 64 bf16.
#include "attention.h"
#include "row_state.cuh"

#include "wb/ampere_ops.cuh"
#include "wb/cuda_check.h"
#include "wb/hopper_ops.cuh"
#include "wb/tensor_maps.h"

#include <cmath>
#include <cstdint>

namespace {

using wb::accumulators_in_use;
using wb::align_to_1024;
using wb::arrive;
using wb::arrive_expecting_bytes;
using wb::bf16_pair;
using wb::claim_registers;
using wb::init_barrier;
using wb::load_tile;
using wb::publish_barrier_init;
using wb::release_registers;
using wb::tile_descriptor;
using wb::wait_for_phase;
using wb::wgmma_64x64x16;
using wb::wgmma_64x64x16_a_in_registers;
using wb::wgmma_commit;
using wb::wgmma_fence;
using wb::wgmma_wait;

constexpr int kConsumers = 2;                     // warpgroups, 64 queries each
constexpr int kThreads = 128 * (1 + kConsumers);  // the producer warpgroup first
constexpr int kConsumerWarps = 4 * kConsumers;    // the arrivals each `empty` phase waits for
constexpr int kWarpgroupQueries = 64;             // the rows of one wgmma
constexpr int kBlockQueries = kConsumers * kWarpgroupQueries;
constexpr int kTileKeys = 64;                    // keys (and values) per stage
constexpr int kStages = 2;                       // the ring of K and V tiles
constexpr int kBoxCols = wb::kSwizzledBf16Cols;  // 64 columns: one box of a tensor map
constexpr int kBoxBytes = 64 * kBoxCols * 2;     // a 64-row box: 8 KiB, a multiple of 1024
constexpr int kScoreRegisters = kTileKeys / 2;   // a 64 x 64 accumulator: 32 floats per thread
constexpr float kLog2e = 1.4426950408889634f;    // exp(x) = exp2(x * log2(e))
static_assert(kTileKeys == 64 && kWarpgroupQueries == 64, "the wgmma shapes below are m64n64k16");

// Where the tiles lie in the block's shared memory (from a 1024-byte boundary, as the swizzle
// wants), in boxes of 64 rows x 64 columns (8 KiB): for each consumer c and column block h (of
// kHeadDim / 64), Q box (c, h); then for each stage, the K boxes h, then the V boxes h.
template <int kHeadDim>
struct Tiles {
    static constexpr int kColumnBlocks = kHeadDim / kBoxCols;
    static constexpr int kQBytes = kConsumers * kColumnBlocks * kBoxBytes;
    static constexpr int kTileBytes = kColumnBlocks * kBoxBytes;                 // one tile of K (or V)
    static constexpr int kStageBytes = 2 * kTileBytes;                           // K and V
    static constexpr int kSharedBytes = kQBytes + kStages * kStageBytes + 1024;  // + room to align
    static_assert(kSharedBytes <= 227 * 1024, "an H100 block may use at most 227 KiB of shared memory");

    uint8_t* base;
    __device__ bf16* q(int consumer, int block) const {
        return reinterpret_cast<bf16*>(base + (consumer * kColumnBlocks + block) * kBoxBytes);
    }
    __device__ bf16* k(int stage, int block) const {
        return reinterpret_cast<bf16*>(base + kQBytes + stage * kStageBytes + block * kBoxBytes);
    }
    __device__ bf16* v(int stage, int block) const {
        return reinterpret_cast<bf16*>(base + kQBytes + stage * kStageBytes + kTileBytes + block * kBoxBytes);
    }
};

// How many tiles of keys the block visits, from the first (causal: up to its last query's).
__device__ int key_tiles_to_visit(int seq, int block_row0, bool causal) {
    if (!causal) return (seq + kTileKeys - 1) / kTileKeys;
    return (min(block_row0 + kBlockQueries, seq) - 1) / kTileKeys + 1;
}

// ---- the producer ------------------------------------------------------------------------

// One thread: the block's Q (both consumers' boxes on `q_full`), then K and V tile after tile into
// the ring. Rows of the tensor maps: q_row the block's first query, key_row its head's first key,
// last_row the maps' last. Stage s serves tiles s, s + 2, s + 4 ...: use number `round` = tile /
// kStages of a stage is phase `round` of its barriers, of parity round % 2 (as lesson 13's kernel 03).
template <int kHeadDim>
__device__ void produce(const CUtensorMap* q_map, const CUtensorMap* k_map, const CUtensorMap* v_map,
                        const Tiles<kHeadDim>& tiles, uint64_t* q_full, uint64_t* full, uint64_t* empty, int q_row,
                        int key_row, int last_row, int tiles_to_visit) {
    constexpr int kBlocks = Tiles<kHeadDim>::kColumnBlocks;
    arrive_expecting_bytes(q_full, Tiles<kHeadDim>::kQBytes);
    for (int consumer = 0; consumer < kConsumers; ++consumer) {
        // Consumer 1 of the last head's last block may have no query in the matrix (seq = 1): its
        // box then starts on the matrix's last row, and TMA reads zeros past it as usual. Those
        // rows lie past the sequence, and are never written to O.
        const int row = min(q_row + consumer * kWarpgroupQueries, last_row);
        for (int block = 0; block < kBlocks; ++block)
            load_tile(tiles.q(consumer, block), q_map, q_full, block * kBoxCols, row);
    }
    for (int tile = 0; tile < tiles_to_visit; ++tile) {
        const int stage = tile % kStages;
        const uint32_t round = tile / kStages;
        // The consumers' release of the stage's previous use; in round 0 at once (on a fresh
        // barrier the phase "before" phase 0, of parity 1, counts as completed).
        wait_for_phase(&empty[stage], (round % 2) ^ 1);
        arrive_expecting_bytes(&full[stage], Tiles<kHeadDim>::kStageBytes);
        for (int block = 0; block < kBlocks; ++block) {
            load_tile(tiles.k(stage, block), k_map, &full[stage], block * kBoxCols, key_row + tile * kTileKeys);
            load_tile(tiles.v(stage, block), v_map, &full[stage], block * kBoxCols, key_row + tile * kTileKeys);
        }
    }
}

// ---- a consumer --------------------------------------------------------------------------
// Every 64 x N tile in a consumer's registers (S, and O in blocks of 64 columns) has wgmma's
// accumulator layout (wb/hopper_ops.cuh): with w = warp of the warpgroup, g = lane / 4 and
// t = lane % 4, a thread holds rows 16 w + g and 16 w + g + 8 of the warpgroup's 64, at columns
// 8 j + 2 t and 8 j + 2 t + 1 for j = 0 .. 7: acc[4 j + e] is row 16 w + g + 8 (e / 2), column
// 8 j + 2 t + e % 2. The 4 threads of a quad (same g) share a row, 16 columns each: RowState,
// quad_max and quad_sum (row_state.cuh) serve as in step 2.

// The warpgroup's 64 x 64 scores Q K^T of one tile. A (64 queries x 16 of d) is a slice of the
// Q box, B (16 of d x 64 keys) one of the K box: both store rows along d, the layout wgmma reads
// without transposing ("K-major"); the slice 16 s .. 16 s + 15 of a box starts 32 s bytes into
// its rows. head_dim / 16 wgmmas in one group, waited for.
template <int kHeadDim>
__device__ void compute_scores(const Tiles<kHeadDim>& tiles, int consumer, int stage,
                               float (&scores)[kScoreRegisters]) {
#pragma unroll
    for (int i = 0; i < kScoreRegisters; ++i) scores[i] = 0.0f;
    accumulators_in_use(scores);
    wgmma_fence();
#pragma unroll
    for (int step = 0; step < kHeadDim / 16; ++step) {
        const int block = step / 4, slice = step % 4;
        wgmma_64x64x16(scores, tile_descriptor(tiles.q(consumer, block) + 16 * slice),
                       tile_descriptor(tiles.k(stage, block) + 16 * slice));
    }
    wgmma_commit();
    wgmma_wait<0>();
    accumulators_in_use(scores);
}

// The scores times scale * log2(e); those the row's query must not see become -infinity (their
// exponential is then 0): keys past the end of the sequence and, with causal, after the query.
__device__ void scale_and_mask(float (&scores)[kScoreRegisters], float score_scale, int key0, int top_query, int seq,
                               bool causal) {
    const int t = threadIdx.x % 4;
#pragma unroll
    for (int j = 0; j < kScoreRegisters / 4; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int key = key0 + 8 * j + 2 * t + e % 2, query = top_query + 8 * (e / 2);
            const bool hidden = key >= seq || (causal && key > query);
            scores[4 * j + e] = hidden ? -INFINITY : scores[4 * j + e] * score_scale;
        }
}

// Folds one tile of scores into the rows' online softmax (as step 2): the scores become
// exp2(score - max), the P of this tile, and what was accumulated under an older, smaller max is
// scaled down to the new one.
template <int kColumnBlocks>
__device__ void update_softmax(float (&scores)[kScoreRegisters], RowState& state,
                               float (&out)[kColumnBlocks][kScoreRegisters]) {
    float rescale[2];
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        float tile_max = -INFINITY;
#pragma unroll
        for (int j = 0; j < kScoreRegisters / 4; ++j)
            tile_max = fmaxf(tile_max, fmaxf(scores[4 * j + 2 * r], scores[4 * j + 2 * r + 1]));
        const float new_max = fmaxf(state.max[r], quad_max(tile_max));
        // A row with every key masked so far keeps -infinity: exp2(-inf - -inf) would be NaN.
        rescale[r] = new_max == -INFINITY ? 1.0f : exp2f(state.max[r] - new_max);
        state.max[r] = new_max;
    }
    float tile_sum[2] = {0.0f, 0.0f};
#pragma unroll
    for (int i = 0; i < kScoreRegisters; ++i) {
        const float row_max = state.max[i % 4 / 2];
        scores[i] = row_max == -INFINITY ? 0.0f : exp2f(scores[i] - row_max);
        tile_sum[i % 4 / 2] += scores[i];
    }
#pragma unroll
    for (int r = 0; r < 2; ++r) state.sum[r] = state.sum[r] * rescale[r] + tile_sum[r];
#pragma unroll
    for (int block = 0; block < kColumnBlocks; ++block)
#pragma unroll
        for (int i = 0; i < kScoreRegisters; ++i) out[block][i] *= rescale[i % 4 / 2];
}

// out += P V for one tile. P's columns 16 s .. 16 s + 15 (keys) are, rounded to bf16 pairwise,
// the A operand of a wgmma as they lie in the registers (wb/hopper_ops.cuh): registers
// (8 s, 8 s + 1), (8 s + 2, 8 s + 3), (8 s + 4, 8 s + 5), (8 s + 6, 8 s + 7). B is rows 16 s ..
// 16 s + 15 of a V box: 16 keys x 64 of d, stored along d (the n of this product), which wgmma
// reads "MN-major" (its transpose flag for B; the descriptor is that of any swizzled tile, see
// wb/hopper_ops.cuh); those rows start 16 s x 128 bytes into the box.
template <int kHeadDim>
__device__ void accumulate_values(const float (&p)[kScoreRegisters], const Tiles<kHeadDim>& tiles, int stage,
                                  float (&out)[Tiles<kHeadDim>::kColumnBlocks][kScoreRegisters]) {
    constexpr int kSteps = kTileKeys / 16;
    uint32_t a[kSteps][4];
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
#pragma unroll
        for (int r = 0; r < 4; ++r) a[s][r] = bf16_pair(p[8 * s + 2 * r], p[8 * s + 2 * r + 1]);
#pragma unroll
    for (int block = 0; block < Tiles<kHeadDim>::kColumnBlocks; ++block) accumulators_in_use(out[block]);
    wgmma_fence();
#pragma unroll
    for (int block = 0; block < Tiles<kHeadDim>::kColumnBlocks; ++block)
#pragma unroll
        for (int s = 0; s < kSteps; ++s)
            wgmma_64x64x16_a_in_registers(out[block], a[s], tile_descriptor(tiles.v(stage, block) + 16 * kBoxCols * s));
    wgmma_commit();
    wgmma_wait<0>();
#pragma unroll
    for (int block = 0; block < Tiles<kHeadDim>::kColumnBlocks; ++block) accumulators_in_use(out[block]);
}

// The end of the rows: out becomes the weighted mean of the values it summed, and the rows that
// lie in the sequence are written to O (head_dim floats a row).
template <int kHeadDim>
__device__ void finish_rows(const RowState& state, float (&out)[Tiles<kHeadDim>::kColumnBlocks][kScoreRegisters],
                            float* o, int seq, int top_query) {
    const float inverse[2] = {1.0f / quad_sum(state.sum[0]), 1.0f / quad_sum(state.sum[1])};
    const int t = threadIdx.x % 4;
#pragma unroll
    for (int block = 0; block < Tiles<kHeadDim>::kColumnBlocks; ++block)
#pragma unroll
        for (int j = 0; j < kScoreRegisters / 4; ++j)
#pragma unroll
            for (int half = 0; half < 2; ++half) {  // rows top_query and top_query + 8
                const int query = top_query + 8 * half, col = block * kBoxCols + 8 * j + 2 * t;
                const float first = out[block][4 * j + 2 * half] * inverse[half];
                const float second = out[block][4 * j + 2 * half + 1] * inverse[half];
                if (query < seq)
                    *reinterpret_cast<float2*>(o + static_cast<long>(query) * kHeadDim + col) =
                        make_float2(first, second);
            }
}

// A consumer warpgroup: queries row0 .. row0 + 63 of the head, against every tile the block
// visits. A tile wholly after its last query (causal: the block's last tile, for consumer 0) is
// waited for and handed back unread, so that both consumers count the same phases.
template <int kHeadDim>
__device__ void consume(const Tiles<kHeadDim>& tiles, uint64_t* q_full, uint64_t* full, uint64_t* empty, int consumer,
                        int row0, int tiles_to_visit, const AttentionArgs& args, float* o) {
    const int thread = threadIdx.x % 128, warp = thread / 32, lane = thread % 32;
    const int top_query = row0 + 16 * warp + lane / 4;  // the thread's rows: this one and the one 8 below
    const int last_key = args.causal ? min(row0 + kWarpgroupQueries, args.seq) - 1 : args.seq - 1;
    const float score_scale = args.scale * kLog2e;
    float out[Tiles<kHeadDim>::kColumnBlocks][kScoreRegisters] = {};
    RowState state;
    wait_for_phase(q_full, 0);
    for (int tile = 0; tile < tiles_to_visit; ++tile) {
        const int stage = tile % kStages;
        const uint32_t round = tile / kStages;
        wait_for_phase(&full[stage], round % 2);
        if (tile * kTileKeys <= last_key) {
            float scores[kScoreRegisters];
            compute_scores<kHeadDim>(tiles, consumer, stage, scores);
            scale_and_mask(scores, score_scale, tile * kTileKeys, top_query, args.seq, args.causal);
            update_softmax<Tiles<kHeadDim>::kColumnBlocks>(scores, state, out);
            accumulate_values<kHeadDim>(scores, tiles, stage, out);
        }
        // Only now: the wgmmas of this warp have finished reading the stage (wgmma_wait<0>).
        if (lane == 0) arrive(&empty[stage]);
    }
    finish_rows<kHeadDim>(state, out, o, args.seq, top_query);
}

// The producer needs few registers, the consumers many (64 to 96 accumulators each): setmaxnreg
// moves registers from the producer warpgroup (40 each) to the consumers (232), as in lesson 13.
template <int kHeadDim>
__global__ void __launch_bounds__(kThreads, 1)
    hopper_forward(const __grid_constant__ CUtensorMap q_map, const __grid_constant__ CUtensorMap k_map,
                   const __grid_constant__ CUtensorMap v_map, const AttentionArgs args) {
    extern __shared__ uint8_t shared[];
    __shared__ uint64_t q_full, full[kStages], empty[kStages];
    const Tiles<kHeadDim> tiles{align_to_1024(shared)};
    const int warpgroup = threadIdx.x / 128;
    // The last blocks of queries first: with causal they visit the most tiles.
    const int block_row0 = (gridDim.x - 1 - blockIdx.x) * kBlockQueries;
    const int head_row0 = blockIdx.y * args.seq;  // the head's first row in the tensor maps
    const int tiles_to_visit = key_tiles_to_visit(args.seq, block_row0, args.causal);
    if (threadIdx.x == 0) {
        init_barrier(&q_full, 1);  // the producer's arrival (+ the bytes)
        for (int stage = 0; stage < kStages; ++stage) {
            init_barrier(&full[stage], 1);
            init_barrier(&empty[stage], kConsumerWarps);  // one arrival per consumer warp
        }
        publish_barrier_init();
    }
    __syncthreads();  // the last barrier of the whole block: from here on the roles part

    if (warpgroup == 0) {
        release_registers<40>();
        if (threadIdx.x == 0)
            produce<kHeadDim>(&q_map, &k_map, &v_map, tiles, &q_full, full, empty, head_row0 + block_row0, head_row0,
                              gridDim.y * args.seq - 1, tiles_to_visit);
    } else {
        claim_registers<232>();
        const int consumer = warpgroup - 1;
        consume<kHeadDim>(tiles, &q_full, full, empty, consumer, block_row0 + consumer * kWarpgroupQueries,
                          tiles_to_visit, args, args.o + static_cast<long>(blockIdx.y) * args.seq * kHeadDim);
    }
}

template <int kHeadDim>
void launch_with_head_dim(const AttentionArgs& args) {
    // Q, K and V as heads x seq rows of kHeadDim bf16, in boxes of 64 rows x 64 columns.
    const int rows = args.heads * args.seq;
    const CUtensorMap q_map = wb::make_bf16_tile_map(args.q, rows, kHeadDim, kWarpgroupQueries);
    const CUtensorMap k_map = wb::make_bf16_tile_map(args.k, rows, kHeadDim, kTileKeys);
    const CUtensorMap v_map = wb::make_bf16_tile_map(args.v, rows, kHeadDim, kTileKeys);
    constexpr int kSharedBytes = Tiles<kHeadDim>::kSharedBytes;  // 99,328 bytes for d = 128
    // More than the 48 KB a block gets without asking for it: asked once per head dim.
    static const bool allowed = [] {
        WB_CUDA_CHECK(
            cudaFuncSetAttribute(hopper_forward<kHeadDim>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
        return true;
    }();
    (void)allowed;
    const dim3 grid((args.seq + kBlockQueries - 1) / kBlockQueries, args.heads);
    hopper_forward<kHeadDim><<<grid, kThreads, kSharedBytes>>>(q_map, k_map, v_map, args);
    WB_CHECK_LAUNCH("hopper_forward");
}

}  // namespace

void launch_hopper_forward(const AttentionArgs& args) {
    if (args.head_dim == 64)
        launch_with_head_dim<64>(args);
    else
        launch_with_head_dim<128>(args);
}
