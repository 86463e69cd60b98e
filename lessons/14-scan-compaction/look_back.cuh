// Lesson 14, exercise part 5: the tile status words of the single-pass scan and the look-back
// that reads them (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016). The single-pass scan and compaction (built as given code) call
// tile_prefix with your code.
//
// The memory model, in short (the page's "One atomic word, or release and acquire" has it in
// full). Blocks on other multiprocessors read a tile's status while it changes, so every access
// to a status word is an atomic one at device scope. The flag and the value share one 64-bit
// word, stored and loaded whole by one atomic access: a reader sees the word as it was or as a
// publish left it, never the flag of one moment with the value of another (single-copy
// atomicity, PTX ISA, "Memory Consistency Model", "Axioms", "Atomicity"). The word publishes
// nothing but itself, so relaxed order suffices: release and acquire order a word against
// *other* memory, and a reader here reads no other memory because of what the word says. A flag
// that publishes a value stored elsewhere needs them: message_passing.cu shows one, beside this
// file.
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
    // pack_status makes the word. Store it with one atomic access of all 64 bits, at device scope
    // (the readers are other blocks), so that a reader sees flag and value together. Which memory
    // order: see this file's first comment.
    (void)status;
    (void)tile;
    (void)pack_status(flag, value);
    // <<< TODO 5a
}

/// Waits until `tile` has published something (a flag other than kTileEmpty) and returns it.
template <class T>
__device__ inline TileStatus<T> wait_for_status(unsigned long long* status, long long tile) {
    // >>> TODO 5b: the tile's word read whole, again and again, until its flag is not empty
    // Load the tile's whole word atomically (device scope, as it is stored) until its flag is no
    // longer kTileEmpty; unpack_status splits it. Never an ordinary load: the compiler may read
    // the word once and loop on that copy, and this SM's L1 cache, not kept coherent with the
    // others, may keep answering with an old one. Never two 32-bit halves either: a flag from one
    // publish with the value of another.
    (void)status;
    (void)tile;
    return TileStatus<T>{kTileEmpty, T(0)};
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
    // The warp reads 32 statuses at a time, waiting for each: in the first window lane k reads
    // tile - 1 - k (a tile before 0 counts as an inclusive prefix of 0). It adds the values of
    // the lanes up to the nearest inclusive prefix, that one included, and stops there; with
    // none in the window it adds all 32 aggregates and reads the 32 tiles before them. Every
    // lane returns the same sum; warp_sum adds one value per lane.
    (void)status;
    (void)tile;
    (void)lane;
    return before;
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
        // Tile 0 knows its inclusive prefix at once. Any other tile publishes its aggregate
        // first (the tiles after it may add it without waiting for this look-back), then looks
        // back with the whole warp, then publishes its inclusive prefix. One lane publishes.
        (void)status;
        (void)tile;
        (void)tile_total;
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
