// Lesson 14, going further: stream compaction in a single pass. Each block reads its tile once
// (16-byte loads, striped_tile.cuh), counts the elements it keeps, gathers them in shared
// memory in their order, learns from the look-back how many the tiles before it kept
// (look_back.cuh, on counts), and writes them with consecutive threads on consecutive places.
// Built from the answer of part 2.
#include "look_back.cuh"
#include "predicate.cuh"
#include "scan.h"
#include "striped_tile.cuh"

#include "wb/cuda_check.h"

namespace {

// 256 threads x 32 elements with 64 registers a thread (4 blocks per multiprocessor): the fastest
// of the shapes measured on an H100 (128 to 384 threads, 16 to 64 elements).
constexpr int kThreads = 256;
constexpr int kRounds = 8;       // 16-byte loads per thread: 32 elements
constexpr int kBlocksPerSm = 4;  // __launch_bounds__: at most 64 registers a thread
constexpr int kTile = kThreads * 4 * kRounds;

template <class T>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    single_pass_compact_kernel(const T* __restrict__ in, T* __restrict__ out, long long n, Keep keep,
                               unsigned long long* status, unsigned* next_tile, int* d_kept) {
    __shared__ BlockScanStorage<int> storage;
    __shared__ T kept_in_tile[kTile];
    const long long tile = take_tile(next_tile);
    const long long tile_start = tile * kTile;
    T items[4 * kRounds];
    load_striped<T, kRounds>(in, n, tile_start, items, T(0));
    // Bit 4 r + k says whether items[4 r + k] is kept: one register where an array of bools
    // took many (kRounds = 8: 32 bits).
    static_assert(4 * kRounds <= 32, "one bit per item in a 32-bit mask");
    unsigned kept = 0;
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const long long first = striped_first<kRounds>(tile_start, r);
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (first + k < n && keeps(items[4 * r + k], keep)) kept |= 1u << (4 * r + k);
    }
    int before[kRounds];
    int tile_count;
    striped_exclusive_scan<int, kRounds>([&](int r) { return __popc((kept >> (4 * r)) & 0xfu); }, before, storage,
                                         tile_count);
    // Gathered in shared memory in their order; tile_prefix ends with a barrier, after which
    // kept_in_tile is complete.
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        int place = before[r];
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (kept >> (4 * r + k) & 1u) kept_in_tile[place++] = items[4 * r + k];
    }
    const int tile_before = tile_prefix(status, tile, tile_count);
    for (int k = threadIdx.x; k < tile_count; k += kThreads) out[tile_before + k] = kept_in_tile[k];
    if (tile == gridDim.x - 1 && threadIdx.x == 0) *d_kept = tile_before + tile_count;
}

}  // namespace

template <class T>
void single_pass_compact(const T* in, T* out, long long n, Keep keep, const LookBackState& state, int* d_kept) {
    const long long tiles = (n + kTile - 1) / kTile;
    clear_look_back_state(state, tiles);
    single_pass_compact_kernel<T><<<static_cast<unsigned>(tiles), kThreads>>>(in, out, n, keep, state.status,
                                                                              tile_counter(state, tiles), d_kept);
    WB_CHECK_LAUNCH("single_pass_compact_kernel");
}

template void single_pass_compact<int>(const int*, int*, long long, Keep, const LookBackState&, int*);
template void single_pass_compact<float>(const float*, float*, long long, Keep, const LookBackState&, int*);
