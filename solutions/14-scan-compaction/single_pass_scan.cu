// Lesson 14, part 5 (given code): the scan in a single pass with decoupled look-back. Each
// block reads its tile once (16-byte loads, striped_tile.cuh), scans it, learns the sum before
// it from its predecessors' status words (look_back.cuh, part 5) and writes its tile once: 8
// bytes moved per element, as a copy does. Built from the answer of part 2 (block_scan.cuh,
// beside this file), so it is given from solutions/, and compiled with each program's own
// look_back.cuh: the exercise's in the exercise program.
#include "scan.h"
#include "striped_tile.cuh"

// Angle brackets: the program's look_back.cuh, found through its include folders (the
// exercise's first in the exercise program); a name in quotes would be found beside this file.
#include <look_back.cuh>

#include "wb/cuda_check.h"

#include <stdexcept>

namespace {

// 128 threads x 48 elements, 8 blocks per multiprocessor (at most 64 registers a thread, and
// 24 KiB of staged prefixes a block): of the shapes measured on an H100 with the prefixes staged
// (64 to 256 threads, 24 to 64 elements each, 5 to 12 blocks per multiprocessor), the one whose
// slower kind, inclusive or exclusive, was fastest (256 threads x 32 elements with 5 blocks:
// 2 to 4% slower).
constexpr int kThreads = 128;    // threads per block
constexpr int kRounds = 12;      // 16-byte loads per thread: 48 elements
constexpr int kBlocksPerSm = 8;  // __launch_bounds__: at most 65536 / (8 x 128) registers
constexpr int kTile = kThreads * 4 * kRounds;
constexpr int kTinyThreads = 32;
constexpr int kTinyRounds = 1;
constexpr int kTinyTile = kTinyThreads * 4 * kTinyRounds;

// Inclusive or exclusive is a template argument, so that each kind is compiled with only the
// code it runs.
//
// Each round's prefixes within the warp go to shared memory as soon as they are known. A thread
// then holds none of its values through the block scan and the look-back, which need registers
// of their own: when a thread kept its values in registers, the compiler spilled some (ptxas -v:
// 12 to 40 bytes a thread at 48 registers). Each thread reads back only what it wrote, so no
// barrier guards the staged values.
template <class T, bool kInclusive, int kBlockThreads, int kBlockRounds, int kMinBlocks>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks)
    single_pass_scan_kernel(const T* __restrict__ in, T* __restrict__ out, long long n, unsigned long long* status,
                            unsigned* next_tile) {
    __shared__ BlockScanStorage<T> storage;
    __shared__ Vector4<T> staged[kBlockRounds * kBlockThreads];  // a warp's round: 512 consecutive bytes
    const long long tile = take_tile(next_tile);
    const long long tile_start = tile * (kBlockThreads * 4 * kBlockRounds);
    T items[4 * kBlockRounds];
    load_striped<T, kBlockRounds>(in, n, tile_start, items, T(0));
    const T warp_total = striped_warp_scan<T, kBlockRounds>(
        [&](int r) { return items[4 * r] + items[4 * r + 1] + items[4 * r + 2] + items[4 * r + 3]; },
        [&](int r, T running) {
            T prefix[4];
#pragma unroll
            for (int k = 0; k < 4; ++k) {
                const T exclusive = running;
                running += items[4 * r + k];
                prefix[k] = kInclusive ? running : exclusive;
            }
            staged[r * kBlockThreads + threadIdx.x] = Vector4<T>{prefix[0], prefix[1], prefix[2], prefix[3]};
        });
    T tile_total;
    const T warps_before = sum_of_warps_before(warp_total, storage, tile_total);
    const T before = warps_before + tile_prefix(status, tile, tile_total);
#pragma unroll
    for (int r = 0; r < kBlockRounds; ++r) {
        const Vector4<T> four = staged[r * kBlockThreads + threadIdx.x];
        items[4 * r] = four.x + before;
        items[4 * r + 1] = four.y + before;
        items[4 * r + 2] = four.z + before;
        items[4 * r + 3] = four.w + before;
    }
    store_striped<T, kBlockRounds>(out, n, tile_start, items);
}

}  // namespace

void clear_look_back_state(const LookBackState& state, long long tiles) {
    if (tiles + 1 > state.capacity) throw std::logic_error("the look-back state holds too few words");
    WB_CUDA_CHECK(cudaMemsetAsync(state.status, 0, (tiles + 1) * sizeof(unsigned long long)));
}

unsigned* tile_counter(const LookBackState& state, long long tiles) {
    return reinterpret_cast<unsigned*>(state.status + tiles);
}

long long look_back_words(long long n) {
    return (n + kTinyTile - 1) / kTinyTile + 1;  // and the counter
}

template <class T>
void single_pass_scan(const T* in, T* out, long long n, ScanKind kind, const LookBackState& state) {
    const long long tiles = (n + kTile - 1) / kTile;
    clear_look_back_state(state, tiles);
    const unsigned blocks = static_cast<unsigned>(tiles);
    unsigned* counter = tile_counter(state, tiles);
    if (kind == ScanKind::inclusive)
        single_pass_scan_kernel<T, true, kThreads, kRounds, kBlocksPerSm>
            <<<blocks, kThreads>>>(in, out, n, state.status, counter);
    else
        single_pass_scan_kernel<T, false, kThreads, kRounds, kBlocksPerSm>
            <<<blocks, kThreads>>>(in, out, n, state.status, counter);
    WB_CHECK_LAUNCH("single_pass_scan_kernel");
}

void single_pass_scan_tiny(const int* in, int* out, long long n, const LookBackState& state) {
    const long long tiles = (n + kTinyTile - 1) / kTinyTile;
    clear_look_back_state(state, tiles);
    single_pass_scan_kernel<int, true, kTinyThreads, kTinyRounds, 1>
        <<<static_cast<unsigned>(tiles), kTinyThreads>>>(in, out, n, state.status, tile_counter(state, tiles));
    WB_CHECK_LAUNCH("single_pass_scan_kernel (tiny tiles)");
}

template void single_pass_scan<int>(const int*, int*, long long, ScanKind, const LookBackState&);
template void single_pass_scan<float>(const float*, float*, long long, ScanKind, const LookBackState&);
