/// @file cub_histogram.h
/// @brief Lesson 15 harness: cub::DeviceHistogram::HistogramEven on the same values and bins
/// (the library baseline of the benchmark). Zeroes nothing itself: CUB writes every bin.
#pragma once

/// CUB's histogram of `count` values into bin_count<Value>() bins; its scratch memory is
/// allocated on the first call (and grown when needed). Does not wait.
template <class Value>
void cub_histogram(const Value* d_values, long long count, unsigned int* d_bins);
