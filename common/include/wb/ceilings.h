/// @file ceilings.h
/// @brief Measured ceilings: every benchmark figure is also reported as a ratio to one of
/// these, measured in the same run on the same GPU.
#pragma once

#include "wb/rates.h"
#include "wb/timer.h"

#include <cstddef>

namespace wb {

/// Device-to-device copy bandwidth in GB/s (bytes read + bytes written, 1 GB = 1e9 B),
/// median of `repeats` copies of `bytes` bytes after a warm-up.
double measure_copy_bandwidth_gbs(std::size_t bytes = std::size_t(1) << 30, int repeats = 20);

/// Times cuBLAS GEMM for row-major C (m x n) = A (m x k) * B (k x n) on device pointers
/// (inputs are left unchanged, C overwritten). T is float or double.
template <class T>
TimingStats time_cublas_gemm(int m, int n, int k, const T* d_a, const T* d_b, T* d_c, int warmup, int repeats);

/// Runs cuBLAS GEMM once (row-major, as above): a reference for checks.
template <class T>
void cublas_gemm(int m, int n, int k, const T* d_a, const T* d_b, T* d_c);

}  // namespace wb
