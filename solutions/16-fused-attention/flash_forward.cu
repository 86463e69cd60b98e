// Step 2 (the exercise): attention forward in one kernel, the way FlashAttention-2 does it.
// A block of 4 warps takes 64 queries of one head; each warp owns 16 of them, keeps their Q
// fragment in registers and walks the keys in tiles of 64, which the block copies into shared
// memory (K and V, two stages: tile t + 1 lands while tile t is used). For each tile the warp
// computes its 16 x 64 scores with mma.sync, folds them into an online softmax (a running max
// and a running sum per row) and adds P V to its 16 x d accumulator, which it rescales whenever
// a row's running max grows. S and P never leave the chip; O is divided by the sums at the end.
#include "attention.h"
#include "row_state.cuh"

#include "wb/ampere_ops.cuh"
#include "wb/cuda_check.h"
#include "wb/register_array.h"

#include <cmath>
#include <cstdint>

namespace {

using wb::bf16_pair;
using wb::commit_copies;
using wb::copy_async_16;
using wb::mma_16x8x16;
using wb::wait_copies;

constexpr int kWarps = 4;
constexpr int kThreads = 32 * kWarps;
constexpr int kBlockQueries = 16 * kWarps;      // one warp per 16 query rows
constexpr int kTileKeys = 64;                   // keys (and values) per shared-memory tile
constexpr int kScoreFragments = kTileKeys / 8;  // 16 x 8 fragments of scores per warp and tile
constexpr float kLog2e = 1.4426950408889634f;   // exp(x) = exp2(x * log2(e)): exp2 is one instruction

// A thread's registers, as arrays that trap on an index out of range (a register array read
// past its end is undefined: it may even give the right numbers). Every index below is known
// when the loops unroll, so the range tests cost nothing.
using Pair = wb::RegisterArray<float, 2>;      // one value for each of the thread's two rows
using Fragment = wb::RegisterArray<float, 4>;  // the thread's 4 values of a 16 x 8 mma result
using TileScores = wb::RegisterArray<Fragment, kScoreFragments>;
template <int kHeadDim>
using OutRows = wb::RegisterArray<Fragment, kHeadDim / 8>;  // the thread's part of its rows of O

// The block's K and V tiles, two stages of each. Rows are padded by 8 bf16 (16 bytes), so that the
// 8 rows one fragment load touches start in different banks, and stay 16-byte aligned.
template <int kHeadDim>
struct KvTiles {
    static constexpr int kStride = kHeadDim + 8;
    bf16 k[2][kTileKeys][kStride];
    bf16 v[2][kTileKeys][kStride];
};

// The warp's Q fragment: its 16 rows from row0, all head_dim columns, as the A operand of
// head_dim / 16 products (rows past the sequence read as zeros).
template <int kHeadDim>
__device__ void load_queries(const bf16* q, int seq, int row0, uint32_t (&query)[kHeadDim / 16][4]) {
    const int lane = threadIdx.x % 32, top = row0 + lane / 4, bottom = top + 8, col = 2 * (lane % 4);
    const bf16* top_row = q + static_cast<long>(top) * kHeadDim;
    const bf16* bottom_row = q + static_cast<long>(bottom) * kHeadDim;
#pragma unroll
    for (int step = 0; step < kHeadDim / 16; ++step) {
        query[step][0] = top < seq ? bf16_pair(top_row, 16 * step + col) : 0u;
        query[step][1] = bottom < seq ? bf16_pair(bottom_row, 16 * step + col) : 0u;
        query[step][2] = top < seq ? bf16_pair(top_row, 16 * step + col + 8) : 0u;
        query[step][3] = bottom < seq ? bf16_pair(bottom_row, 16 * step + col + 8) : 0u;
    }
}

// Starts the copies of the tile of keys from key0 into one stage; rows past the sequence are
// zeros (a value of zero weight must not be a NaN left in shared memory: 0 * NaN is NaN).
template <int kHeadDim>
__device__ void load_key_tile(const bf16* k, const bf16* v, int seq, int key0, KvTiles<kHeadDim>& tiles, int stage) {
    constexpr int kPiecesPerRow = kHeadDim / 8;  // 16 bytes each
    for (int piece = threadIdx.x; piece < kTileKeys * kPiecesPerRow; piece += kThreads) {
        const int row = piece / kPiecesPerRow, col = piece % kPiecesPerRow * 8, key = key0 + row;
        bf16* k_dst = &tiles.k[stage][row][col];
        bf16* v_dst = &tiles.v[stage][row][col];
        if (key < seq) {
            copy_async_16(k_dst, k + static_cast<long>(key) * kHeadDim + col);
            copy_async_16(v_dst, v + static_cast<long>(key) * kHeadDim + col);
        } else {
            *reinterpret_cast<uint4*>(k_dst) = make_uint4(0, 0, 0, 0);
            *reinterpret_cast<uint4*>(v_dst) = make_uint4(0, 0, 0, 0);
        }
    }
}

// The warp's 16 x 64 scores Q K^T of one tile, times scale * log2(e). Fragment j holds keys
// 8j .. 8j + 7 of the tile; a thread holds (row g, keys 8j + 2t, + 1) in [0..1] and row g + 8 in [2..3].
template <int kHeadDim>
__device__ void compute_scores(const uint32_t (&query)[kHeadDim / 16][4], const bf16 (*k_tile)[kHeadDim + 8],
                               float score_scale, TileScores& scores) {
    const int lane = threadIdx.x % 32, g = lane / 4, col = 2 * (lane % 4);
#pragma unroll
    for (int j = 0; j < kScoreFragments; ++j) scores[j][0] = scores[j][1] = scores[j][2] = scores[j][3] = 0.0f;
#pragma unroll
    for (int step = 0; step < kHeadDim / 16; ++step)
#pragma unroll
        for (int j = 0; j < kScoreFragments; ++j) {
            const bf16* key_row = k_tile[8 * j + g];  // B(d, key) = K(key, d): a row of K is a column of B
            const uint32_t b[2] = {bf16_pair(key_row, 16 * step + col), bf16_pair(key_row, 16 * step + col + 8)};
            mma_16x8x16(scores[j].values, query[step], b);
        }
#pragma unroll
    for (int j = 0; j < kScoreFragments; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) scores[j][e] *= score_scale;
}

// How many tiles of keys the block visits, from the first.
__device__ int key_tiles_to_visit(int seq, int block_row0, bool causal) {
    // >>> TODO 3a: every tile with a key some query of the block sees (causal: none past its last query)
    const int all_tiles = (seq + kTileKeys - 1) / kTileKeys;
    if (!causal) return all_tiles;
    const int last_query = min(block_row0 + kBlockQueries, seq) - 1;
    return last_query / kTileKeys + 1;
    // <<< TODO 3a
}

// Scores the row's query must not see become -infinity (their exponential is then 0).
__device__ void mask_scores(TileScores& scores, int key0, int row0, int seq, bool causal) {
    // >>> TODO 3b: mask the keys past the end of the sequence and, with causal, those after the query
    const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
    for (int j = 0; j < kScoreFragments; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const int key = key0 + 8 * j + 2 * t + e % 2, query = row0 + g + (e / 2) * 8;
            if (key >= seq || (causal && key > query)) scores[j][e] = -INFINITY;
        }
    // <<< TODO 3b
}

// Folds one tile of scores into the rows' online softmax: the scores become exp2(score - max)
// (the P of this tile), and what was accumulated under an older, smaller max is scaled down to
// the new one.
template <int kHeadDim>
__device__ void update_softmax(TileScores& scores, RowState& state, OutRows<kHeadDim>& out) {
    // >>> TODO 1: each row's running max, and the factor from the old max to the new one
    Pair rescale;
#pragma unroll
    for (int r = 0; r < 2; ++r) {
        float tile_max = -INFINITY;
#pragma unroll
        for (int j = 0; j < kScoreFragments; ++j)
            tile_max = fmaxf(tile_max, fmaxf(scores[j][2 * r], scores[j][2 * r + 1]));
        const float new_max = fmaxf(state.max[r], quad_max(tile_max));
        // A row with every key masked so far keeps -infinity: exp2(-inf - -inf) would be NaN.
        rescale[r] = new_max == -INFINITY ? 1.0f : exp2f(state.max[r] - new_max);
        state.max[r] = new_max;
    }
    // <<< TODO 1
    // >>> TODO 2: exponentials against the running max, added to the running sum; accumulator rescaled
    Pair tile_sum = {0.0f, 0.0f};
#pragma unroll
    for (int j = 0; j < kScoreFragments; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            const float row_max = state.max[e / 2];
            scores[j][e] = row_max == -INFINITY ? 0.0f : exp2f(scores[j][e] - row_max);
            tile_sum[e / 2] += scores[j][e];
        }
#pragma unroll
    for (int r = 0; r < 2; ++r) state.sum[r] = state.sum[r] * rescale[r] + tile_sum[r];
#pragma unroll
    for (int n = 0; n < kHeadDim / 8; ++n)
#pragma unroll
        for (int e = 0; e < 4; ++e) out[n][e] *= rescale[e / 2];
    // <<< TODO 2
}

// out += P V for one tile: the scores' fragments are, two by two, the A operand of a product
// along the tile's 64 keys (the layout of an mma's result matches that of its A operand), rounded
// to bf16; V's columns are gathered from shared memory as B operands.
template <int kHeadDim>
__device__ void accumulate_values(const TileScores& p, const bf16 (*v_tile)[kHeadDim + 8], OutRows<kHeadDim>& out) {
    const int lane = threadIdx.x % 32, g = lane / 4, row = 2 * (lane % 4);
#pragma unroll
    for (int step = 0; step < kTileKeys / 16; ++step) {
        const Fragment& left = p[2 * step];
        const Fragment& right = p[2 * step + 1];
        const uint32_t a[4] = {bf16_pair(left[0], left[1]), bf16_pair(left[2], left[3]), bf16_pair(right[0], right[1]),
                               bf16_pair(right[2], right[3])};
        const bf16(*values)[kHeadDim + 8] = v_tile + 16 * step + row;
#pragma unroll
        for (int n = 0; n < kHeadDim / 8; ++n) {
            const int col = 8 * n + g;  // B(key, d) = V(key, d): two keys per register
            const uint32_t b[2] = {bf16_pair(values[0][col], values[1][col]),
                                   bf16_pair(values[8][col], values[9][col])};
            mma_16x8x16(out[n].values, a, b);
        }
    }
}

// The end of the rows: out becomes the weighted mean of the values it summed.
template <int kHeadDim>
__device__ void finish_rows(const RowState& state, OutRows<kHeadDim>& out) {
    // >>> TODO 4: divide each row by the sum of its exponentials (each thread holds a part of it)
    const Pair inverse = {1.0f / quad_sum(state.sum[0]), 1.0f / quad_sum(state.sum[1])};
#pragma unroll
    for (int n = 0; n < kHeadDim / 8; ++n)
#pragma unroll
        for (int e = 0; e < 4; ++e) out[n][e] *= inverse[e / 2];
    // <<< TODO 4
}

// The warp's rows of O that lie in the sequence.
template <int kHeadDim>
__device__ void store_rows(float* o, int seq, int row0, const OutRows<kHeadDim>& out) {
    const int lane = threadIdx.x % 32, top = row0 + lane / 4, col = 2 * (lane % 4);
#pragma unroll
    for (int n = 0; n < kHeadDim / 8; ++n) {
        if (top < seq)
            *reinterpret_cast<float2*>(o + static_cast<long>(top) * kHeadDim + 8 * n + col) =
                make_float2(out[n][0], out[n][1]);
        if (top + 8 < seq)
            *reinterpret_cast<float2*>(o + static_cast<long>(top + 8) * kHeadDim + 8 * n + col) =
                make_float2(out[n][2], out[n][3]);
    }
}

template <int kHeadDim>
__global__ void __launch_bounds__(kThreads) flash_forward(const AttentionArgs args) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    KvTiles<kHeadDim>& tiles = *reinterpret_cast<KvTiles<kHeadDim>*>(shared_bytes);
    // The last blocks of queries first: with causal they visit the most tiles, and the short ones fill in behind.
    const int block_row0 = (gridDim.x - 1 - blockIdx.x) * kBlockQueries;
    const int row0 = block_row0 + 16 * (threadIdx.x / 32);
    const long head = static_cast<long>(blockIdx.y) * args.seq * kHeadDim;
    const bf16 *q = args.q + head, *k = args.k + head, *v = args.v + head;

    uint32_t query[kHeadDim / 16][4];
    load_queries<kHeadDim>(q, args.seq, row0, query);
    OutRows<kHeadDim> out = {};
    RowState state;
    const int tiles_to_visit = key_tiles_to_visit(args.seq, block_row0, args.causal);

    if (tiles_to_visit > 0) load_key_tile(k, v, args.seq, 0, tiles, 0);
    commit_copies();
    for (int tile = 0; tile < tiles_to_visit; ++tile) {
        const int stage = tile % 2;
        if (tile + 1 < tiles_to_visit) load_key_tile(k, v, args.seq, (tile + 1) * kTileKeys, tiles, stage ^ 1);
        commit_copies();   // an empty group at the end keeps the count of wait_copies right
        wait_copies<1>();  // this thread's copies of this tile have landed (the next tile's may not) ...
        __syncthreads();   // ... and every thread's
        TileScores scores;
        compute_scores<kHeadDim>(query, tiles.k[stage], args.scale * kLog2e, scores);
        mask_scores(scores, tile * kTileKeys, row0, args.seq, args.causal);
        update_softmax<kHeadDim>(scores, state, out);
        accumulate_values<kHeadDim>(scores, tiles.v[stage], out);
        __syncthreads();  // every warp is done with this stage before the copies of tile + 2 overwrite it
    }
    finish_rows<kHeadDim>(state, out);
    store_rows<kHeadDim>(args.o + head, args.seq, row0, out);
}

template <int kHeadDim>
void launch_with_head_dim(const AttentionArgs& args) {
    const int shared_bytes = static_cast<int>(sizeof(KvTiles<kHeadDim>));  // 69,632 bytes for d = 128
    // More than the 48 KB a block gets without asking for it: asked once per head dim.
    static const bool allowed = [&] {
        WB_CUDA_CHECK(
            cudaFuncSetAttribute(flash_forward<kHeadDim>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
        return true;
    }();
    (void)allowed;
    const dim3 grid((args.seq + kBlockQueries - 1) / kBlockQueries, args.heads);
    flash_forward<kHeadDim><<<grid, kThreads, shared_bytes>>>(args);
    WB_CHECK_LAUNCH("flash_forward");
}

}  // namespace

void launch_flash_forward(const AttentionArgs& args) {
    if (args.head_dim == 64)
        launch_with_head_dim<64>(args);
    else
        launch_with_head_dim<128>(args);
}
