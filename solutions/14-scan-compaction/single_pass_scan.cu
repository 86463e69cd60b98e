// Lesson 14, going further: the scan in a single pass with decoupled look-back. Each block
// reads its tile once (16-byte loads), scans it, learns the sum before it from its
// predecessors' status words (look_back.cuh) and writes its tile once: 8 bytes moved per
// element, as a copy does. Built from the answer of part 2 (block_scan.cuh).
#include "block_scan.cuh"
#include "look_back.cuh"
#include "scan.h"
#include "vector_io.cuh"

#include "wb/cuda_check.h"

#include <stdexcept>

namespace {

constexpr int kThreads = 256;  // threads per block
constexpr int kItems = 16;     // consecutive elements per thread: four 16-byte loads
constexpr int kTinyThreads = 32;
constexpr int kTinyItems = 4;

template <class T, int kBlockThreads, int kThreadItems>
__global__ void __launch_bounds__(kBlockThreads)
    single_pass_scan_kernel(const T* __restrict__ in, T* __restrict__ out, long long n, bool inclusive,
                            unsigned long long* status, unsigned* next_tile) {
    __shared__ BlockScanStorage<T> storage;
    const long long tile = take_tile(next_tile);
    const long long first = tile * (kBlockThreads * kThreadItems) + static_cast<long long>(threadIdx.x) * kThreadItems;
    T items[kThreadItems];
    load_items<T, kThreadItems>(in, n, first, items, T(0));
    T thread_sum = T(0);
#pragma unroll
    for (int k = 0; k < kThreadItems; ++k) thread_sum += items[k];
    T tile_total;
    const T before_thread = block_exclusive_scan(thread_sum, storage, tile_total);
    T running = tile_prefix(status, tile, tile_total) + before_thread;
#pragma unroll
    for (int k = 0; k < kThreadItems; ++k) {
        const T before = running;
        running += items[k];
        items[k] = inclusive ? running : before;
    }
    store_items<T, kThreadItems>(out, n, first, items);
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
    return (n + kTinyThreads * kTinyItems - 1) / (kTinyThreads * kTinyItems) + 1;  // and the counter
}

template <class T>
void single_pass_scan(const T* in, T* out, long long n, ScanKind kind, const LookBackState& state) {
    const long long tiles = (n + kThreads * kItems - 1) / (kThreads * kItems);
    clear_look_back_state(state, tiles);
    single_pass_scan_kernel<T, kThreads, kItems><<<static_cast<unsigned>(tiles), kThreads>>>(
        in, out, n, kind == ScanKind::inclusive, state.status, tile_counter(state, tiles));
    WB_CHECK_LAUNCH("single_pass_scan_kernel");
}

void single_pass_scan_tiny(const int* in, int* out, long long n, const LookBackState& state) {
    const long long tiles = (n + kTinyThreads * kTinyItems - 1) / (kTinyThreads * kTinyItems);
    clear_look_back_state(state, tiles);
    single_pass_scan_kernel<int, kTinyThreads, kTinyItems>
        <<<static_cast<unsigned>(tiles), kTinyThreads>>>(in, out, n, true, state.status, tile_counter(state, tiles));
    WB_CHECK_LAUNCH("single_pass_scan_kernel (tiny tiles)");
}

template void single_pass_scan<int>(const int*, int*, long long, ScanKind, const LookBackState&);
template void single_pass_scan<float>(const float*, float*, long long, ScanKind, const LookBackState&);
