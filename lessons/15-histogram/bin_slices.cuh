/// @file bin_slices.cuh
/// @brief Lesson 15: how versions 04 and 05 share the bins and the input out among their blocks.
///
/// Each block counts in shared memory. With 65,536 bins (unsigned short values) one copy of
/// 32-bit counters, 256 KiB, exceeds what a block may have: the bins are then split into slices
/// that fit (two of 32,768 on an H200), and each block counts the values of one slice only.
/// Blocks b and b + 1 count different slices of the same part of the input at the same time, so
/// the input's second reading mostly hits L2. Bytes have one slice, all 256 bins.
#pragma once

#include "histogram.h"
#include "launch_grid.h"

#include "wb/cuda_check.h"

#include <cstddef>

/// How the bins are shared out: `slices` blocks in a row count the same values, each its own
/// `slice_bins` bins; each block has `copies` copies of its slice in shared memory.
struct Layout {
    int threads;
    int slices;
    int slice_bins;
    int copies;
    std::size_t shared_bytes() const { return static_cast<std::size_t>(copies) * slice_bins * sizeof(unsigned int); }
};

/// Bytes: 256 threads per block and `byte_copies` copies of the 256 bins. Wider values: as few
/// slices as fit, one copy each, 1024 threads per block (one block per multiprocessor holds one).
template <class Value>
Layout layout_for(int byte_copies) {
    if (bin_count<Value>() <= 256) return {256, 1, bin_count<Value>(), byte_copies};
    Layout layout{1024, 1, bin_count<Value>(), 1};
    while (layout.shared_bytes() > shared_bytes_per_block()) {
        layout.slices *= 2;
        layout.slice_bins /= 2;
    }
    return layout;
}

/// The part of the bins a block counts: `size` counters in shared memory for the values first,
/// first + 1, ..., first + size - 1. add(value, amount) adds `amount` to the counter of `value`
/// with one atomic, and ignores a value outside the slice (bytes have one slice: no test).
template <class Value>
struct Slice {
    unsigned int* bins;
    unsigned int first;
    unsigned int size;
    __device__ void add(unsigned int value, unsigned int amount) const {
        if constexpr (sizeof(Value) == 1) {
            atomicAdd(&bins[value], amount);
        } else {
            const unsigned int bin = value - first;  // wraps to a large number below the slice
            if (bin < size) atomicAdd(&bins[bin], amount);
        }
    }
};

/// A counter that counts its adds instead of making them, into `*adds` (a thread's own), for the
/// check of version 05: how many atomics its counting would make.
struct AddTally {
    unsigned int* adds;
    __device__ void add(unsigned int, unsigned int) const { ++*adds; }
};

/// This block's slice of the bins, counted in `counters` (layout.slice_bins of them).
template <class Value>
__device__ Slice<Value> block_slice(unsigned int* counters, const Layout& layout) {
    return {counters, static_cast<unsigned int>(blockIdx.x % layout.slices) * layout.slice_bins,
            static_cast<unsigned int>(layout.slice_bins)};
}

/// The blocks that count one slice share the whole input out among their threads: this
/// thread's place among them (share_thread) and how many they are (share_threads).
__device__ inline long long share_thread(const Layout& layout) {
    return blockIdx.x / layout.slices * static_cast<long long>(blockDim.x) + threadIdx.x;
}
__device__ inline long long share_threads(const Layout& layout) {
    return gridDim.x / layout.slices * static_cast<long long>(blockDim.x);
}

/// Zeroes the device bins, then launches kernel(values, count, bins, layout) on the default
/// stream, checked, without waiting: as many blocks as stay resident, a multiple of
/// layout.slices, but no more than `count` values need at `per_thread` per thread.
template <class Value, class Kernel>
void launch_sliced(Kernel kernel, const char* name, const Layout& layout, const Value* values, long long count,
                   unsigned int* bins, int per_thread) {
    allow_shared_bytes(kernel, layout.shared_bytes());
    WB_CUDA_CHECK(cudaMemsetAsync(bins, 0, bin_count<Value>() * sizeof(unsigned int)));
    const int parts =
        resident_grid(kernel, layout.threads, layout.shared_bytes(), (count + per_thread - 1) / per_thread) /
        layout.slices;
    const int blocks = (parts > 0 ? parts : 1) * layout.slices;
    kernel<<<blocks, layout.threads, layout.shared_bytes()>>>(values, count, bins, layout);
    WB_CHECK_LAUNCH(name);
}
