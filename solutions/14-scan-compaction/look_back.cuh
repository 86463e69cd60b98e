// Lesson 14, exercise part 5: the tile status words of the single-pass scan and the look-back
// that reads them (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016).
//
// Each tile publishes a status word: first its aggregate (the sum of its own elements), as
// soon as it has it; then its inclusive prefix (the sum of every element up to its end), once
// its look-back found the sum before it. Flag and value share one 64-bit word, stored and
// loaded whole by one atomic access: a reader sees either the word as it was or as a publish
// left it, never a flag with another moment's value (single-copy atomicity, PTX ISA, "Memory
// Consistency Model", "Axioms", "Atomicity"). The word publishes nothing but itself, so relaxed
// device-scope atomics suffice, as in CUB's ScanTileState for such types: release and acquire
// order a word against *other* memory, which a reader here never reads. A flag that publishes
// a separate value needs them: message_passing.cu shows one, and the check's test of it.
#pragma once

#include "scan.h"

#include <cuda/atomic>

#include <cstring>

/// A tile's flag: nothing published yet, its aggregate (the sum of its own elements), or its
/// inclusive prefix (the sum of every element up to its end).
enum : unsigned { kTileEmpty = 0u, kTileAggregate = 1u, kTileInclusive = 2u };

constexpr unsigned kWholeWarp = 0xffffffffu;  ///< every lane of the warp takes part

/// A tile's status as read back: its flag and value.
template <class T>
struct TileStatus {
    unsigned flag;
    T value;
};

/// The status word of (flag, value): the flag in the high 32 bits, the value's bits in the low 32.
template <class T>
__host__ __device__ inline unsigned long long pack_status(unsigned flag, T value) {
    static_assert(sizeof(T) == 4, "a status word holds a 32-bit value");
    unsigned bits;
    std::memcpy(&bits, &value, sizeof bits);
    return (static_cast<unsigned long long>(flag) << 32) | bits;
}

/// The flag and value of a status word (pack_status undone).
template <class T>
__host__ __device__ inline TileStatus<T> unpack_status(unsigned long long word) {
    const unsigned bits = static_cast<unsigned>(word);
    T value;
    std::memcpy(&value, &bits, sizeof value);
    return {static_cast<unsigned>(word >> 32), value};
}

/// Publishes (flag, value) as the status of `tile`, for the blocks of later tiles to read.
template <class T>
__device__ inline void publish(unsigned long long* status, long long tile, unsigned flag, T value) {
    // >>> TODO 5a: the tile's flag and value stored together, as one word that readers see whole
    // One relaxed 64-bit atomic store (st.relaxed.gpu.b64).
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[tile]);
    word.store(pack_status(flag, value), cuda::memory_order_relaxed);
    // <<< TODO 5a
}

/// Waits until `tile` has published something (a flag other than kTileEmpty) and returns it.
template <class T>
__device__ inline TileStatus<T> wait_for_status(unsigned long long* status, long long tile) {
    // >>> TODO 5b: the tile's word read whole, again and again, until its flag is not empty
    // Relaxed 64-bit atomic loads. Unlike an ordinary load, an atomic one may not keep answering
    // from an old copy (such as a line in this SM's L1 cache): a store becomes visible to atomic
    // loads in finite time, so the loop ends once the tile publishes.
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status[tile]);
    unsigned long long seen;
    do {
        seen = word.load(cuda::memory_order_relaxed);
    } while (static_cast<unsigned>(seen >> 32) == kTileEmpty);
    return unpack_status<T>(seen);
    // <<< TODO 5b
}

/// The sum over one warp, the same in every lane.
template <class T>
__device__ inline T warp_sum(T value) {
#pragma unroll
    for (int d = 16; d > 0; d /= 2) value += __shfl_xor_sync(kWholeWarp, value, d);
    return value;
}

/// The sum of every element before `tile`, for the 32 lanes of one warp (every lane returns
/// it). Lane k looks at tile - 1 - k, the warp 32 tiles at a time: it adds the aggregates of the
/// tiles up to the nearest one whose inclusive prefix is known, and that prefix, then stops.
/// Tile 0 always publishes its inclusive prefix, so the look-back ends.
template <class T>
__device__ inline T look_back(unsigned long long* status, long long tile) {
    const int lane = threadIdx.x % 32;
    T before = T(0);
    // >>> TODO 5c: the sum before `tile`: aggregates back to the nearest inclusive prefix, and it
    for (long long window_end = tile;; window_end -= 32) {
        const long long predecessor = window_end - 1 - lane;
        const TileStatus<T> seen =
            predecessor >= 0 ? wait_for_status<T>(status, predecessor) : TileStatus<T>{kTileInclusive, T(0)};
        const unsigned inclusive_lanes = __ballot_sync(kWholeWarp, seen.flag == kTileInclusive);
        const int last_lane = inclusive_lanes ? __ffs(inclusive_lanes) - 1 : 31;
        before += warp_sum(lane <= last_lane ? seen.value : T(0));
        if (inclusive_lanes) return before;
    }
    // <<< TODO 5c
}

/// Tile order by arrival: the tile this block works on. Blocks may start in any order; taking
/// tiles in the order blocks arrive ensures that every tile a block waits for belongs to a block
/// already running (a block waiting for one not yet started could wait forever).
__device__ inline long long take_tile(unsigned* next_tile) {
    __shared__ unsigned tile;
    if (threadIdx.x == 0) tile = atomicAdd(next_tile, 1u);
    __syncthreads();
    return tile;
}

/// The prefix before this block's tile, by warp 0 (the other warps pass their zero): publishes
/// the tile's aggregate, looks back, publishes its inclusive prefix. Call it with every thread.
template <class T>
__device__ inline T tile_prefix(unsigned long long* status, long long tile, T tile_total) {
    __shared__ T prefix;
    if (threadIdx.x < 32) {
        const int lane = threadIdx.x;
        T before = T(0);  // the sum of every element before this tile
        // >>> TODO 5d: the tile's aggregate published, its look-back, then its inclusive prefix
        if (tile == 0) {
            if (lane == 0) publish(status, 0, kTileInclusive, tile_total);
        } else {
            if (lane == 0) publish(status, tile, kTileAggregate, tile_total);
            before = look_back<T>(status, tile);
            if (lane == 0) publish(status, tile, kTileInclusive, before + tile_total);
        }
        // <<< TODO 5d
        if (lane == 0) prefix = before;
    }
    __syncthreads();
    return prefix;
}

/// Clears the status words of `tiles` tiles and the tile counter, the word after them
/// (single_pass_scan.cu).
void clear_look_back_state(const LookBackState& state, long long tiles);

/// The tile counter: the word after the status words of `tiles` tiles.
unsigned* tile_counter(const LookBackState& state, long long tiles);
