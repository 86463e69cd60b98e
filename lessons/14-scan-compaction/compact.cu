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
    // __syncthreads_count(condition) is a barrier that also returns, to every thread, how many
    // threads of the block passed a true condition. Mind the bounds: in[i] only for i < n.
    (void)in;
    (void)n;
    (void)keep;
    (void)tile_counts;
    (void)tile_start;
    // <<< TODO 4a
}

template <class T>
__global__ void scatter_kept_kernel(const T* in, T* out, long long n, Keep keep, const int* tile_offsets) {
    __shared__ int warp_counts[kScanThreads / 32];
    const long long tile_start = static_cast<long long>(blockIdx.x) * kScanTile;
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    // >>> TODO 4b: every kept element of the tile written to its place in `out`, in input order
    // The tile's kept elements start at out[tile_offsets[blockIdx.x]]. A kept element's place
    // is the number of kept elements before it: those of earlier items, of earlier warps, and
    // of the lanes below it in its own warp (a warp can learn which of its lanes keep their
    // element in one instruction). Counts shared between warps go through warp_counts, with
    // the barriers that sharing needs; elements at or past n are never read.
    (void)in;
    (void)out;
    (void)n;
    (void)keep;
    (void)tile_offsets;
    (void)warp_counts;
    (void)kAllLanes;
    (void)tile_start;
    (void)lane;
    (void)warp;
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
