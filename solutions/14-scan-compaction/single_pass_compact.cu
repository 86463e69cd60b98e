// Lesson 14, part 5 (given code): stream compaction in a single pass. Each block reads its
// tile once (16-byte loads, striped_tile.cuh), counts the elements it keeps, gathers them in
// shared memory in their order, learns from the look-back how many the tiles before it kept
// (look_back.cuh, part 5, on counts), and writes them with consecutive lanes on consecutive
// places. Built from the answer of part 2, and compiled with each program's own look_back.cuh
// (single_pass_scan.cu says how).
#include "predicate.cuh"
#include "scan.h"
#include "striped_tile.cuh"

#include <look_back.cuh>

#include "wb/cuda_check.h"

namespace {

// 256 threads x 32 elements, 5 blocks per multiprocessor (at most 48 registers a thread): the
// fastest of the shapes measured on an H100 (128 to 512 threads, 16 to 32 elements each, 4 to 10
// blocks per multiprocessor).
constexpr int kThreads = 256;
constexpr int kRounds = 8;       // 16-byte loads per thread: 32 elements
constexpr int kBlocksPerSm = 5;  // __launch_bounds__: at most 65536 / (5 x 256) registers
constexpr int kTile = kThreads * 4 * kRounds;

// Each warp gathers the elements it keeps in its own part of shared memory, round by round, as
// soon as their places in the warp are known: a thread then holds none of its 32 values through
// the block scan and the look-back. After the look-back each warp writes its part at its place.
template <class T, int kBlockThreads, int kBlockRounds, int kMinBlocks>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks)
    single_pass_compact_kernel(const T* __restrict__ in, T* __restrict__ out, long long n, Keep keep,
                               unsigned long long* status, unsigned* next_tile, int* d_kept) {
    constexpr int kWarpElements = 128 * kBlockRounds;  // the elements one warp reads
    __shared__ BlockScanStorage<int> storage;
    __shared__ T kept_by_warp[kBlockThreads * 4 * kBlockRounds];
    const long long tile = take_tile(next_tile);
    const long long tile_start = tile * (kBlockThreads * 4 * kBlockRounds);
    T items[4 * kBlockRounds];
    load_striped<T, kBlockRounds>(in, n, tile_start, items, T(0));
    // Bit 4 r + k says whether items[4 r + k] is kept: one register where an array of bools
    // took many.
    static_assert(4 * kBlockRounds <= 32, "one bit per item in a 32-bit mask");
    unsigned kept = 0;
#pragma unroll
    for (int r = 0; r < kBlockRounds; ++r) {
        const long long first = striped_first<kBlockRounds>(tile_start, r);
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (first + k < n && keeps(items[4 * r + k], keep)) kept |= 1u << (4 * r + k);
    }
    T* const warp_kept = kept_by_warp + threadIdx.x / 32 * kWarpElements;
    const int warp_count = striped_warp_scan<int, kBlockRounds>([&](int r) { return __popc((kept >> (4 * r)) & 0xfu); },
                                                                [&](int r, int place) {
#pragma unroll
                                                                    for (int k = 0; k < 4; ++k)
                                                                        if (kept >> (4 * r + k) & 1u)
                                                                            warp_kept[place++] = items[4 * r + k];
                                                                });
    int tile_count;
    const int warps_before = sum_of_warps_before(warp_count, storage, tile_count);
    // tile_prefix ends with a barrier, after which every warp's part is complete.
    const int tile_before = tile_prefix(status, tile, tile_count);
    T* const place = out + tile_before + warps_before;
    for (int j = threadIdx.x % 32; j < warp_count; j += 32) __stcs(place + j, warp_kept[j]);
    if (tile == gridDim.x - 1 && threadIdx.x == 0) *d_kept = tile_before + tile_count;
}

}  // namespace

template <class T>
void single_pass_compact(const T* in, T* out, long long n, Keep keep, const LookBackState& state, int* d_kept) {
    const long long tiles = (n + kTile - 1) / kTile;
    clear_look_back_state(state, tiles);
    single_pass_compact_kernel<T, kThreads, kRounds, kBlocksPerSm><<<static_cast<unsigned>(tiles), kThreads>>>(
        in, out, n, keep, state.status, tile_counter(state, tiles), d_kept);
    WB_CHECK_LAUNCH("single_pass_compact_kernel");
}

template void single_pass_compact<int>(const int*, int*, long long, Keep, const LookBackState&, int*);
template void single_pass_compact<float>(const float*, float*, long long, Keep, const LookBackState&, int*);
