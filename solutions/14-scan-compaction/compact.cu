// Lesson 14, exercise part 4: stream compaction. The kept elements are written in their order:
//   kernel 1 (count_kept_kernel): each block counts the kept elements of its tile;
//   kernel 2 (scan_in_one_block, part 3): the exclusive scan of the counts gives each tile the
//            place of its first kept element, and their sum the count kept;
//   kernel 3 (scatter_kept_kernel): each block writes its tile's kept elements from there on.
#include "predicate.cuh"
#include "scan.h"

#include "wb/cuda_check.h"

namespace {

constexpr unsigned kAllLanes = 0xffffffffu;

template <class T>
__global__ void count_kept_kernel(const T* in, long long n, Keep keep, int* tile_counts) {
    const long long tile_start = static_cast<long long>(blockIdx.x) * kScanTile;
    // >>> TODO 4a: the number of kept elements of this block's tile, stored in tile_counts
    int count = 0;
    for (int item = 0; item < kScanItems; ++item) {
        const long long i = tile_start + static_cast<long long>(item) * kScanThreads + threadIdx.x;
        count += __syncthreads_count(i < n && keeps(in[i], keep));
    }
    if (threadIdx.x == 0) tile_counts[blockIdx.x] = count;
    // <<< TODO 4a
}

template <class T>
__global__ void scatter_kept_kernel(const T* in, T* out, long long n, Keep keep, const int* tile_offsets) {
    __shared__ int warp_counts[kScanThreads / 32];
    const long long tile_start = static_cast<long long>(blockIdx.x) * kScanTile;
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    // >>> TODO 4b: every kept element of the tile written to its place in `out`, in input order
    long long written = tile_offsets[blockIdx.x];  // kept elements before this item, in all tiles
    for (int item = 0; item < kScanItems; ++item) {
        const long long i = tile_start + static_cast<long long>(item) * kScanThreads + threadIdx.x;
        const T x = i < n ? in[i] : T(0);
        const bool kept = i < n && keeps(x, keep);
        const unsigned kept_lanes = __ballot_sync(kAllLanes, kept);
        const int place_in_warp = __popc(kept_lanes & ((1u << lane) - 1u));
        if (lane == 0) warp_counts[warp] = __popc(kept_lanes);
        __syncthreads();
        int before_warp = 0, item_count = 0;
        for (int w = 0; w < kScanThreads / 32; ++w) {
            if (w < warp) before_warp += warp_counts[w];
            item_count += warp_counts[w];
        }
        if (kept) out[written + before_warp + place_in_warp] = x;
        written += item_count;
        __syncthreads();  // every warp has read warp_counts before the next item overwrites them
    }
    // <<< TODO 4b
}

}  // namespace

template <class T>
void compact(const T* in, T* out, long long n, Keep keep, int* scratch, int* d_kept) {
    const unsigned tiles = static_cast<unsigned>(scan_tiles(n));
    count_kept_kernel<<<tiles, kScanThreads>>>(in, n, keep, scratch);
    WB_CHECK_LAUNCH("count_kept_kernel");
    scan_in_one_block(scratch, tiles, d_kept);
    scatter_kept_kernel<<<tiles, kScanThreads>>>(in, out, n, keep, scratch);
    WB_CHECK_LAUNCH("scatter_kept_kernel");
}

template void compact<int>(const int*, int*, long long, Keep, int*, int*);
template void compact<float>(const float*, float*, long long, Keep, int*, int*);
