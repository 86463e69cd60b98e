// Lesson 14, exercise part 3: the scan of any length in three kernels.
//   kernel 1 (tile_sums_kernel): each block adds the kScanTile elements of its tile;
//   kernel 2 (scan_in_one_block_kernel): one block scans those tile sums (exclusive): each
//            tile's offset, the sum of every element before it;
//   kernel 3 (scan_tiles_kernel): each block scans its tile again, starting from its offset.
// The input is read twice and the output written once: 12 bytes moved per element of 4 bytes.
#include "block_scan.cuh"
#include "scan.h"

#include "wb/cuda_check.h"

namespace {

// Element `item` of this thread in tile `tile_start`: consecutive threads read consecutive
// elements (coalesced), and a block reads kScanThreads elements per item.
__device__ inline long long element_of(long long tile_start, int item) {
    return tile_start + static_cast<long long>(item) * kScanThreads + threadIdx.x;
}

template <class T>
__global__ void tile_sums_kernel(const T* in, long long n, T* tile_sums) {
    __shared__ BlockScanStorage<T> storage;
    const long long tile_start = static_cast<long long>(blockIdx.x) * kScanTile;
    // >>> TODO 3a: the sum of this block's tile of `in`, stored in tile_sums
    // Keep every thread in the block scan: it holds barriers that the whole block must reach.
    (void)in;
    (void)n;
    (void)tile_sums;
    (void)storage;
    (void)element_of(tile_start, 0);  // element `item` of this thread: element_of(tile_start, item)
    // <<< TODO 3a
}

template <class T>
__global__ void scan_in_one_block_kernel(T* values, long long count, T* total) {
    __shared__ BlockScanStorage<T> storage;
    constexpr long long kRound = static_cast<long long>(kSumsThreads) * kSumsItems;
    // >>> TODO 3b: the exclusive scan of `count` values in place, by one block, and their total
    // Round after round, as in TODO 3c but over consecutive values per thread; in place: a
    // thread reads its values of the round before it writes them.
    (void)kRound;
    (void)values;
    (void)count;
    (void)total;
    (void)storage;
    // <<< TODO 3b
}

template <class T>
__global__ void scan_tiles_kernel(const T* in, T* out, long long n, const T* tile_offsets, bool inclusive) {
    __shared__ BlockScanStorage<T> storage;
    const long long tile_start = static_cast<long long>(blockIdx.x) * kScanTile;
    // >>> TODO 3c: the scan of this block's tile, continuing from the sum of the tiles before it
    // The tile starts from the sum of every tile before it (tile_offsets, from TODO 3b) and is
    // scanned item by item with the block scan, each item continuing from the ones before it.
    // Elements past n take part as zeros and are never written; the inclusive scan adds each
    // element to its exclusive sum.
    (void)in;
    (void)out;
    (void)n;
    (void)tile_offsets;
    (void)inclusive;
    (void)storage;
    (void)element_of(tile_start, 0);  // element `item` of this thread: element_of(tile_start, item)
    // <<< TODO 3c
}

}  // namespace

template <class T>
void scan_in_one_block(T* values, long long count, T* total) {
    scan_in_one_block_kernel<<<1, kSumsThreads>>>(values, count, total);
    WB_CHECK_LAUNCH("scan_in_one_block_kernel");
}

template <class T>
void three_kernel_scan(const T* in, T* out, long long n, ScanKind kind, T* tile_sums) {
    const unsigned tiles = static_cast<unsigned>(scan_tiles(n));
    tile_sums_kernel<<<tiles, kScanThreads>>>(in, n, tile_sums);
    WB_CHECK_LAUNCH("tile_sums_kernel");
    scan_in_one_block(tile_sums, tiles, static_cast<T*>(nullptr));
    scan_tiles_kernel<<<tiles, kScanThreads>>>(in, out, n, tile_sums, kind == ScanKind::inclusive);
    WB_CHECK_LAUNCH("scan_tiles_kernel");
}

template void scan_in_one_block<int>(int*, long long, int*);
template void scan_in_one_block<float>(float*, long long, float*);
template void three_kernel_scan<int>(const int*, int*, long long, ScanKind, int*);
template void three_kernel_scan<float>(const float*, float*, long long, ScanKind, float*);
