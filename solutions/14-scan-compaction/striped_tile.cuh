// Lesson 14, going further: how the single-pass kernels read, scan and write a tile.
//
// A tile is kWarps warps x kRounds rounds x 32 lanes x 4 elements. Each warp owns 128 kRounds
// consecutive elements; in round r its lane l holds the four at 128 r + 4 l: one 16-byte load
// per lane and round, and a warp's 32 loads cover 512 consecutive bytes (every sector used).
// The scan follows the tile's order: within a round, a warp scan of the lanes' four-element
// sums; across rounds, a carry; across warps, a block scan of the warps' totals.
#pragma once

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

/// Given round_sum(r), this lane's sum for round r, sets before[r] to the sum of every element
/// of the tile ahead of that round's elements, and tile_total to the tile's sum. Every thread of
/// the block calls it. The sums are computed as they are needed (a function, not an array) to
/// keep fewer values in registers.
template <class T, int kRounds, class RoundSum>
__device__ inline void striped_exclusive_scan(RoundSum round_sum, T (&before)[kRounds], BlockScanStorage<T>& storage,
                                              T& tile_total) {
    const int lane = threadIdx.x % 32;
    T warp_total = T(0);
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const T inclusive = warp_inclusive_scan(round_sum(r));
        const T lane_before = __shfl_up_sync(kFullWarp, inclusive, 1);
        before[r] = warp_total + (lane == 0 ? T(0) : lane_before);
        warp_total += __shfl_sync(kFullWarp, inclusive, 31);
    }
    // Only the last lane of each warp brings its warp's total: lane 0's exclusive sum is then
    // the sum of the warps before, which it hands to its warp.
    const T lane0 = block_exclusive_scan(lane == 31 ? warp_total : T(0), storage, tile_total);
    const T warps_before = __shfl_sync(kFullWarp, lane0, 0);
#pragma unroll
    for (int r = 0; r < kRounds; ++r) before[r] += warps_before;
}
