/// @file histogram.h
/// @brief Lesson 15: the versions of the histogram, as the driver calls them.
///
/// Every function counts the `count` values of `d_values` (device memory) into `d_bins`
/// (bin_count<Value>() counters in device memory): bin v receives how many values equal v.
/// Each function zeroes `d_bins` itself (cudaMemsetAsync, inside the time it is measured for,
/// as CUB's histogram does), launches its kernel(s) on the default stream, checks the launch,
/// and does not wait. Value is unsigned char (256 bins) or unsigned short (65,536 bins).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

/// The number of bins of a value type: one per value it can hold (256 for bytes).
template <class Value>
__host__ __device__ constexpr int bin_count() {
    return 1 << (8 * sizeof(Value));
}

/// Version 1 (TODO 1): every value one atomicAdd on its bin in device memory.
template <class Value>
void histogram_global(const Value* d_values, long long count, unsigned int* d_bins);

/// Version 2 (TODO 2): each block counts into its own copy of the bins in shared memory, then
/// adds each non-zero count to the device bins with one atomicAdd. Where a block's copy does
/// not fit in shared memory (65,536 bins: 256 KiB of counters), it falls back to version 1.
template <class Value>
void histogram_privatized(const Value* d_values, long long count, unsigned int* d_bins);

/// Version 3 (TODO 3): version 2, with the lanes of a warp that hold the same value adding
/// their count with one atomic (__match_any_sync). Where a block's copy of the bins does not
/// fit in shared memory, the warps aggregate their updates to the device bins instead.
template <class Value>
void histogram_warp_aggregated(const Value* d_values, long long count, unsigned int* d_bins);

/// The reference version (given, read it after the exercise): several private copies per
/// block, four 16-byte loads in flight per thread, chunks of equal values counted as runs in
/// registers; with 65,536 bins the bins are split into slices that fit in shared memory, each
/// block counting one slice (bin_slices.cuh).
template <class Value>
void histogram_reference(const Value* d_values, long long count, unsigned int* d_bins);

/// Version 5 (TODO 4): version 2's private bins, one copy per block, with the values read 16
/// bytes at a time and each chunk of equal values added to a run, one atomic per run
/// (vector_runs.cuh); with 65,536 bins each block counts one slice of them, as the reference
/// version does.
template <class Value>
void histogram_vector_runs(const Value* d_values, long long count, unsigned int* d_bins);

/// For the check of version 5: runs its counting of `count` bytes (TODO 4) with each add
/// tallied instead of made, on the default stream, without waiting. d_out (256 counters, zeroed
/// here) receives in d_out[0] the number of adds, in d_out[1] the number of threads that share
/// the input out.
void count_vector_runs_adds(const unsigned char* d_values, long long count, unsigned int* d_out);

/// True when one block's private copy of bin_count<Value>() 32-bit counters fits in the shared
/// memory a block may have on this GPU (the opt-in limit: 227 KiB on an H100).
template <class Value>
bool private_bins_fit();
