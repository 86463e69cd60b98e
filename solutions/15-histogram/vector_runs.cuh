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
    if (all_equal<Value>(chunk)) {
        const unsigned int value = chunk.x & kMask;
        if (value != run.value) {
            if (run.length != 0) counter.add(run.value, run.length);
            run = {value, 0};
        }
        run.length += values_per_chunk<Value>();
        return;
    }
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
    // Values before the first 16-byte boundary and after the last whole chunk: one by one.
    const auto address = reinterpret_cast<std::uintptr_t>(values);
    const long long head =
        min(count, static_cast<long long>((kChunkBytes - address % kChunkBytes) % kChunkBytes / sizeof(Value)));
    const long long chunks = (count - head) / values_per_chunk<Value>();
    const long long tail = head + chunks * values_per_chunk<Value>();
    for (long long i = thread; i < head + (count - tail); i += threads)
        counter.add(values[i < head ? i : tail + (i - head)], 1u);

    // The whole chunks, each thread taking every threads-th one, several loads in flight first.
    const uint4* chunk = reinterpret_cast<const uint4*>(values + head);
    long long c = thread;
    for (; c + (kChunksInFlight - 1) * threads < chunks; c += kChunksInFlight * threads) {
        wb::RegisterArray<uint4, kChunksInFlight> loaded;  // traps on an index past the batch
#pragma unroll
        for (int k = 0; k < kChunksInFlight; ++k) loaded[k] = chunk[c + k * threads];
#pragma unroll
        for (int k = 0; k < kChunksInFlight; ++k) count_chunk<Value>(loaded[k], run, counter);
    }
    for (; c < chunks; c += threads) count_chunk<Value>(chunk[c], run, counter);
    // <<< TODO 4a
    // >>> TODO 4c: the run the thread still holds is added with one atomic
    if (run.length != 0) counter.add(run.value, run.length);
    // <<< TODO 4c
}
