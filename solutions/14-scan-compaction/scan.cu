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
    T sum = T(0);
    for (int item = 0; item < kScanItems; ++item) {
        const long long i = element_of(tile_start, item);
        if (i < n) sum += in[i];
    }
    T tile_total;
    block_exclusive_scan(sum, storage, tile_total);
    if (threadIdx.x == 0) tile_sums[blockIdx.x] = tile_total;
    // <<< TODO 3a
}

template <class T>
__global__ void scan_in_one_block_kernel(T* values, long long count, T* total) {
    __shared__ BlockScanStorage<T> storage;
    constexpr long long kRound = static_cast<long long>(kSumsThreads) * kSumsItems;
    // >>> TODO 3b: the exclusive scan of `count` values in place, by one block, and their total
    T carry = T(0);
    for (long long start = 0; start < count; start += kRound) {
        const long long first = start + static_cast<long long>(threadIdx.x) * kSumsItems;
        T mine[kSumsItems];
        T sum = T(0);
        for (int k = 0; k < kSumsItems; ++k) {
            mine[k] = first + k < count ? values[first + k] : T(0);
            sum += mine[k];
        }
        T round_total;
        T running = carry + block_exclusive_scan(sum, storage, round_total);
        for (int k = 0; k < kSumsItems; ++k) {
            if (first + k < count) values[first + k] = running;
            running += mine[k];
        }
        carry += round_total;
    }
    if (total != nullptr && threadIdx.x == 0) *total = carry;
    // <<< TODO 3b
}

template <class T>
__global__ void scan_tiles_kernel(const T* in, T* out, long long n, const T* tile_offsets, bool inclusive) {
    __shared__ BlockScanStorage<T> storage;
    const long long tile_start = static_cast<long long>(blockIdx.x) * kScanTile;
    // >>> TODO 3c: the scan of this block's tile, continuing from the sum of the tiles before it
    T carry = tile_offsets[blockIdx.x];
    for (int item = 0; item < kScanItems; ++item) {
        const long long i = element_of(tile_start, item);
        const T x = i < n ? in[i] : T(0);
        T item_total;
        const T before = carry + block_exclusive_scan(x, storage, item_total);
        if (i < n) out[i] = inclusive ? before + x : before;
        carry += item_total;
    }
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
