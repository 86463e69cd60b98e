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

// 256 threads x 32 elements, at most 48 registers a thread so that 5 blocks share each
// multiprocessor: of the shapes measured on an H100 (128 to 512 threads, 16 to 36 elements
// each, 32 to 64 registers), the fastest; the same shape with 64 registers (4 blocks) was
// slower. While warp 0 looks back, the block's other warps wait at a barrier, and the other
// blocks on the multiprocessor keep its loads going.
constexpr int kThreads = 256;    // threads per block
constexpr int kRounds = 8;       // 16-byte loads per thread: 32 elements
constexpr int kBlocksPerSm = 5;  // __launch_bounds__: at most 65536 / (5 x 256) registers
constexpr int kTile = kThreads * 4 * kRounds;
constexpr int kTinyThreads = 32;
constexpr int kTinyRounds = 1;
constexpr int kTinyTile = kTinyThreads * 4 * kTinyRounds;

// Inclusive or exclusive is a template argument: with a run-time flag the compiler kept more
// values than fit in 48 registers (ptxas -v: about 200 bytes spilled a thread, against 12 to
// 40 with the argument).
template <class T, bool kInclusive, int kBlockThreads, int kBlockRounds, int kMinBlocks>
__global__ void __launch_bounds__(kBlockThreads, kMinBlocks)
    single_pass_scan_kernel(const T* __restrict__ in, T* __restrict__ out, long long n, unsigned long long* status,
                            unsigned* next_tile) {
    __shared__ BlockScanStorage<T> storage;
    const long long tile = take_tile(next_tile);
    const long long tile_start = tile * (kBlockThreads * 4 * kBlockRounds);
    T items[4 * kBlockRounds];
    load_striped<T, kBlockRounds>(in, n, tile_start, items, T(0));
    T before[kBlockRounds];
    T tile_total;
    striped_exclusive_scan<T, kBlockRounds>(
        [&](int r) { return items[4 * r] + items[4 * r + 1] + items[4 * r + 2] + items[4 * r + 3]; }, before, storage,
        tile_total);
    // Each item becomes its prefix within the tile before the look-back: during the look-back the
    // thread then holds its 32 items and no round offsets.
#pragma unroll
    for (int r = 0; r < kBlockRounds; ++r) {
        T running = before[r];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const T exclusive = running;
            running += items[4 * r + k];
            items[4 * r + k] = kInclusive ? running : exclusive;
        }
    }
    const T tile_before = tile_prefix(status, tile, tile_total);
#pragma unroll
    for (int k = 0; k < 4 * kBlockRounds; ++k) items[k] += tile_before;
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
