/// @file column_reduce.h
/// @brief Lesson 05: the versions of the column sum, as the driver calls them.
///
/// Every function sums the columns of the row-major m x n matrix `d_matrix` (device memory)
/// into `d_sums` (n doubles, device memory, filled with NaN by the driver before each call),
/// launches its kernel(s) on the default stream, checks the launch, and returns the grid and
/// block it used. None of them waits for the kernel to finish.
#pragma once

#include <cuda_runtime.h>

/// The grid and block of a launch (printed by the driver, as the assignment's program did).
struct LaunchConfig {
    dim3 grid;   ///< blocks
    dim3 block;  ///< threads per block
};

/// Version 1, the assignment's original: one thread per column, 128-thread blocks.
LaunchConfig column_sums_original(const double* d_matrix, double* d_sums, long long m, int n);

/// Version 2 as first written: 64 x 16 blocks, each thread sums m / 16 rows of one column and
/// adds them with atomicAdd. The integer division drops the last m % 16 rows.
LaunchConfig column_sums_split16_truncating(const double* d_matrix, double* d_sums, long long m, int n);

/// Version 2 fixed (TODO 1): the same organisation, every row summed exactly once.
LaunchConfig column_sums_split16(const double* d_matrix, double* d_sums, long long m, int n);

/// Version 3: the assignment's fixed organisation of 8 blocks of 8 x 128 threads. Correct only
/// where high2_covers_matrix(n) holds; the driver does not call it for other n.
LaunchConfig column_sums_high2(const double* d_matrix, double* d_sums, long long m, int n);

/// Version 4 (TODO 2): version 2 fixed, adding with atomic_add_cas (a double atomicAdd built
/// from the 64-bit atomicCAS, as GPUs before compute capability 6.0 required).
LaunchConfig column_sums_split16_cas(const double* d_matrix, double* d_sums, long long m, int n);

/// Stress test of atomic_add_cas: thread i adds d_values[i] into d_totals[i % totals]
/// (d_totals must hold zeros). Many threads hit each address, so the retry loop is exercised.
LaunchConfig add_all_with_cas(const double* d_values, long long count, double* d_totals, int totals);

/// Version 5 (TODO 3): bandwidth-bound. Coalesced reads, one partial sum per thread over many
/// rows, a shared-memory combination per block, one atomicAdd per block and column.
/// `threads_wanted` (1024 by default) is rounded down to a multiple of n; `blocks_per_sm` of 0 means
/// as many as fit (the occupancy calculator decides).
LaunchConfig column_sums_bandwidth(const double* d_matrix, double* d_sums, long long m, int n, int threads_wanted,
                                   int blocks_per_sm);
