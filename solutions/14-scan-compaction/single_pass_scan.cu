// Lesson 14, going further: the scan in a single pass with decoupled look-back. Each block
// reads its tile once (16-byte loads, striped_tile.cuh), scans it, learns the sum before it
// from its predecessors' status words (look_back.cuh) and writes its tile once: 8 bytes moved
// per element, as a copy does. Built from the answer of part 2 (block_scan.cuh).
#include "look_back.cuh"
#include "scan.h"
#include "striped_tile.cuh"

#include "wb/cuda_check.h"

#include <stdexcept>

namespace {

// 128 threads x 24 elements: of the shapes measured on an H100 (256 x 16, 128 x 24, 128 x 32,
// 512 x 8), the fastest. While warp 0 looks back, the block's other warps wait at a barrier;
// with 4 warps per block fewer of them wait, and more blocks share each multiprocessor.
constexpr int kThreads = 128;  // threads per block
constexpr int kRounds = 6;     // 16-byte loads per thread: 24 elements
constexpr int kTile = kThreads * 4 * kRounds;
constexpr int kTinyThreads = 32;
constexpr int kTinyRounds = 1;
constexpr int kTinyTile = kTinyThreads * 4 * kTinyRounds;

template <class T, int kBlockThreads, int kBlockRounds>
__global__ void __launch_bounds__(kBlockThreads)
    single_pass_scan_kernel(const T* __restrict__ in, T* __restrict__ out, long long n, bool inclusive,
                            unsigned long long* status, unsigned* next_tile) {
    __shared__ BlockScanStorage<T> storage;
    const long long tile = take_tile(next_tile);
    const long long tile_start = tile * (kBlockThreads * 4 * kBlockRounds);
    T items[4 * kBlockRounds];
    load_striped<T, kBlockRounds>(in, n, tile_start, items, T(0));
    T round_sums[kBlockRounds];
#pragma unroll
    for (int r = 0; r < kBlockRounds; ++r)
        round_sums[r] = items[4 * r] + items[4 * r + 1] + items[4 * r + 2] + items[4 * r + 3];
    T before[kBlockRounds];
    T tile_total;
    striped_exclusive_scan<T, kBlockRounds>(round_sums, before, storage, tile_total);
    const T tile_before = tile_prefix(status, tile, tile_total);
#pragma unroll
    for (int r = 0; r < kBlockRounds; ++r) {
        T running = tile_before + before[r];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const T exclusive = running;
            running += items[4 * r + k];
            items[4 * r + k] = inclusive ? running : exclusive;
        }
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
    single_pass_scan_kernel<T, kThreads, kRounds><<<static_cast<unsigned>(tiles), kThreads>>>(
        in, out, n, kind == ScanKind::inclusive, state.status, tile_counter(state, tiles));
    WB_CHECK_LAUNCH("single_pass_scan_kernel");
}

void single_pass_scan_tiny(const int* in, int* out, long long n, const LookBackState& state) {
    const long long tiles = (n + kTinyTile - 1) / kTinyTile;
    clear_look_back_state(state, tiles);
    single_pass_scan_kernel<int, kTinyThreads, kTinyRounds>
        <<<static_cast<unsigned>(tiles), kTinyThreads>>>(in, out, n, true, state.status, tile_counter(state, tiles));
    WB_CHECK_LAUNCH("single_pass_scan_kernel (tiny tiles)");
}

template void single_pass_scan<int>(const int*, int*, long long, ScanKind, const LookBackState&);
template void single_pass_scan<float>(const float*, float*, long long, ScanKind, const LookBackState&);
