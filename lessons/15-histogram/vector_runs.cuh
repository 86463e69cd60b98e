/// @file vector_runs.cuh
/// @brief Lesson 15, TODO 4: a thread's share of the values, read 16 bytes at a time, with runs
/// of equal values added by one atomic each (version 05; the reference version counts with
/// these functions too).
///   TODO 4a   the share: whole 16-byte chunks loaded as uint4, the values around them one by one
///   TODO 4b   a chunk of equal values lengthens the thread's run instead of adding one per value
///   TODO 4c   the run the thread holds at the end of its share added with one atomic
/// Every function counts into a `counter` (bin_slices.cuh's Slice): counter.add(value, amount)
/// adds `amount` to the counter of `value` with one atomic.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "wb/register_array.h"

constexpr int kChunkBytes = 16;     ///< one uint4 load
constexpr int kChunksInFlight = 4;  ///< loads a thread issues before it counts any of them

/// How many values one chunk of 16 bytes holds (16 bytes, 8 unsigned shorts).
template <class Value>
__host__ __device__ constexpr int values_per_chunk() {
    return kChunkBytes / static_cast<int>(sizeof(Value));
}

/// A run of equal values that one thread has seen and not added yet: `length` values equal to
/// `value`, kept in registers.
struct Run {
    unsigned int value = 0;
    unsigned int length = 0;
};

/// True when the 16 bytes hold one value repeated: rotating a word by one value's width leaves
/// it unchanged exactly when all the values in it are equal.
template <class Value>
__device__ bool all_equal(const uint4& chunk) {
    constexpr int kBits = 8 * sizeof(Value);
    return chunk.x == chunk.y && chunk.y == chunk.z && chunk.z == chunk.w &&
           __funnelshift_l(chunk.x, chunk.x, kBits) == chunk.x;
}

/// Counts the 16 bytes of `chunk`: a chunk of one value repeated lengthens the run; any other
/// adds one per value. On uniform input a test per value, a run of one almost every time,
/// would cost more than it saves: the test is one per chunk.
template <class Value, class Counter>
__device__ void count_chunk(const uint4& chunk, Run& run, const Counter& counter) {
    constexpr int kBits = 8 * sizeof(Value);            // bits of one value
    constexpr unsigned int kMask = (1u << kBits) - 1u;  // one value, in the lowest bits of a word
    // >>> TODO 4b: a chunk of equal values lengthens the run, with no atomic; a new value ends the old run
    // all_equal<Value>(chunk) tells such a chunk; its value is the lowest kBits of any of its
    // words. The run holds one value and how many of it the thread has seen: a chunk of another
    // value first adds the old run, with one atomic (counter.add(value, amount)), then starts a
    // new one. A chunk counted into the run must not be counted again by the loop below.
    (void)run;
    // <<< TODO 4b
    // Any other chunk: one add per value, each value taken from its 32-bit word (little-endian:
    // the first value in the lowest bits), with no test per value.
    const unsigned int words[4] = {chunk.x, chunk.y, chunk.z, chunk.w};
#pragma unroll
    for (int w = 0; w < 4; ++w)
#pragma unroll
        for (int k = 0; k < 32 / kBits; ++k) counter.add((words[w] >> (kBits * k)) & kMask, 1u);
}

/// Counts this thread's share of the `count` values into `counter`: the thread is number
/// `thread` of the `threads` that share the input out, and together they count every value once.
template <class Value, class Counter>
__device__ void count_share(const Value* values, long long count, long long thread, long long threads,
                            const Counter& counter) {
    Run run;  // the equal chunks this thread has seen and not added yet (count_chunk lengthens it)
    // >>> TODO 4a: every value counted once: whole 16-byte chunks loaded as uint4, the rest one by one
    // `values` is aligned to its own size, not to 16 bytes (the check starts inputs a few values
    // past an aligned address), and a uint4 is loaded only from a multiple of 16 bytes. So the
    // values before the first 16-byte boundary and those after the last whole chunk are counted
    // one by one (counter.add(value, 1)), and there may be no whole chunk at all. Each whole chunk
    // goes to count_chunk; the threads take them in turn, one grid of `threads` apart, and each
    // may load several (kChunksInFlight) before it counts them.
    (void)values;
    (void)count;
    (void)thread;
    (void)threads;
    // <<< TODO 4a
    // >>> TODO 4c: the run the thread still holds is added with one atomic
    // Chunks of equal values lengthen the run without an atomic (TODO 4b): the run the last of
    // them left is not in the counter yet. A run of no values needs no atomic.
    (void)run;
    (void)counter;
    // <<< TODO 4c
}
