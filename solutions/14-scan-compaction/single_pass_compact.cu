// Lesson 14, going further: stream compaction in a single pass. Each block reads its tile once
// (16-byte loads), counts the elements it keeps, gathers them in shared memory in their order,
// learns from the look-back how many the tiles before it kept (look_back.cuh, on counts), and
// writes them with consecutive threads on consecutive places. Built from the answer of part 2.
#include "block_scan.cuh"
#include "look_back.cuh"
#include "predicate.cuh"
#include "scan.h"
#include "vector_io.cuh"

#include "wb/cuda_check.h"

namespace {

constexpr int kThreads = 256;
constexpr int kItems = 16;
constexpr int kTile = kThreads * kItems;

template <class T>
__global__ void __launch_bounds__(kThreads)
    single_pass_compact_kernel(const T* __restrict__ in, T* __restrict__ out, long long n, Keep keep,
                               unsigned long long* status, unsigned* next_tile, int* d_kept) {
    __shared__ BlockScanStorage<int> storage;
    __shared__ T kept_in_tile[kTile];
    const long long tile = take_tile(next_tile);
    const long long first = tile * kTile + static_cast<long long>(threadIdx.x) * kItems;
    T items[kItems];
    load_items<T, kItems>(in, n, first, items, T(0));
    int kept_by_thread = 0;
#pragma unroll
    for (int k = 0; k < kItems; ++k) kept_by_thread += (first + k < n && keeps(items[k], keep)) ? 1 : 0;
    int tile_count;
    int place = block_exclusive_scan(kept_by_thread, storage, tile_count);
#pragma unroll
    for (int k = 0; k < kItems; ++k)
        if (first + k < n && keeps(items[k], keep)) kept_in_tile[place++] = items[k];
    // tile_prefix ends with a barrier: kept_in_tile is complete after it.
    const int before_tile = tile_prefix(status, tile, tile_count);
    for (int k = threadIdx.x; k < tile_count; k += kThreads) out[before_tile + k] = kept_in_tile[k];
    if (tile == gridDim.x - 1 && threadIdx.x == 0) *d_kept = before_tile + tile_count;
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
