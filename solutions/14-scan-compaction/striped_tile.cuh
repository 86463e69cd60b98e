// Lesson 14, part 5 (given code): how the single-pass kernels read, scan and write a tile.
//
// A tile is kWarps warps x kRounds rounds x 32 lanes x 4 elements. Each warp owns 128 kRounds
// consecutive elements; in round r its lane l holds the four at 128 r + 4 l: one 16-byte load
// per lane and round, and a warp's 32 loads cover 512 consecutive bytes (every sector used).
// The scan follows the tile's order: within a round, a warp scan of the lanes' four-element
// sums; across rounds, a carry; across warps, a block scan of the warps' totals.
#pragma once

// The solution's block scan, beside this file (in quotes): the single-pass kernels need parts 1
// and 2 solved, whatever the exercise's state, so that a failure of theirs points at part 5.
#include "block_scan.cuh"

#include <type_traits>

template <class T>
using Vector4 = std::conditional_t<std::is_same_v<T, float>, float4, int4>;

/// The index of the first of this lane's four elements in round r of the tile at tile_start.
template <int kRounds>
__device__ inline long long striped_first(long long tile_start, int r) {
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    return tile_start + static_cast<long long>(warp) * 128 * kRounds + 128 * r + 4 * lane;
}

/// items[4 r + k] = in[striped_first(r) + k] (`fill` past n). tile_start is a multiple of 4,
/// so whole vectors are 16-byte aligned. The loads and stores are marked streaming (__ldcs,
/// __stcs): each byte is read or written once, so it need not stay in the caches.
template <class T, int kRounds>
__device__ inline void load_striped(const T* __restrict__ in, long long n, long long tile_start,
                                    T (&items)[4 * kRounds], T fill) {
    static_assert(sizeof(T) == 4, "16-byte vectors of four 32-bit values");
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const long long first = striped_first<kRounds>(tile_start, r);
        if (first + 4 <= n) {
            const Vector4<T> four = __ldcs(reinterpret_cast<const Vector4<T>*>(in + first));
            items[4 * r] = four.x;
            items[4 * r + 1] = four.y;
            items[4 * r + 2] = four.z;
            items[4 * r + 3] = four.w;
        } else {
#pragma unroll
            for (int k = 0; k < 4; ++k) items[4 * r + k] = first + k < n ? in[first + k] : fill;
        }
    }
}

/// out[striped_first(r) + k] = items[4 r + k], below n.
template <class T, int kRounds>
__device__ inline void store_striped(T* __restrict__ out, long long n, long long tile_start,
                                     const T (&items)[4 * kRounds]) {
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const long long first = striped_first<kRounds>(tile_start, r);
        if (first + 4 <= n) {
            __stcs(reinterpret_cast<Vector4<T>*>(out + first),
                   Vector4<T>{items[4 * r], items[4 * r + 1], items[4 * r + 2], items[4 * r + 3]});
        } else {
#pragma unroll
            for (int k = 0; k < 4; ++k)
                if (first + k < n) out[first + k] = items[4 * r + k];
        }
    }
}

/// Scans the tile's rounds inside each warp. Given round_sum(r), this lane's sum for round r, it
/// calls with_before(r, before), where before is the sum of this warp's elements ahead of this
/// lane's elements of round r, and returns the warp's total (the same in every lane). Every
/// thread of the block calls it.
template <class T, int kRounds, class RoundSum, class WithBefore>
__device__ inline T striped_warp_scan(RoundSum round_sum, WithBefore with_before) {
    const int lane = threadIdx.x % 32;
    T warp_total = T(0);
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const T inclusive = warp_inclusive_scan(round_sum(r));
        const T lane_before = __shfl_up_sync(kFullWarp, inclusive, 1);
        with_before(r, warp_total + (lane == 0 ? T(0) : lane_before));
        warp_total += __shfl_sync(kFullWarp, inclusive, 31);
    }
    return warp_total;
}

/// The sum of the elements of the warps before this one in the block, in every lane, from each
/// warp's total (striped_warp_scan); sets block_total to the block's sum. Every thread calls it.
template <class T>
__device__ inline T sum_of_warps_before(T warp_total, BlockScanStorage<T>& storage, T& block_total) {
    // Only the last lane of each warp brings its warp's total: lane 0's exclusive sum is then
    // the sum of the warps before, which it hands to its warp.
    const int lane = threadIdx.x % 32;
    const T lane0 = block_exclusive_scan(lane == 31 ? warp_total : T(0), storage, block_total);
    return __shfl_sync(kFullWarp, lane0, 0);
}
