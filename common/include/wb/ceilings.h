/// @file ceilings.h
/// @brief Measured ceilings: every benchmark figure is also reported as a ratio to one of
/// these, measured in the same run on the same GPU.
#pragma once

#include "wb/rates.h"
#include "wb/roofs.h"
#include "wb/timer.h"

#include <cuda_bf16.h>

#include <cstddef>

namespace wb {

// measure_copy_bandwidth_gbs (the device copy) is declared in wb/roofs.h, beside the roofs.

/// Times cuBLAS GEMM for row-major C (m x n) = A (m x k) * B (k x n) on device pointers
/// (inputs are left unchanged, C overwritten). T is float or double.
template <class T>
TimingStats time_cublas_gemm(int m, int n, int k, const T* d_a, const T* d_b, T* d_c, int warmup, int repeats);

/// Runs cuBLAS GEMM once (row-major, as above): a reference for checks.
template <class T>
void cublas_gemm(int m, int n, int k, const T* d_a, const T* d_b, T* d_c);

/// Runs cuBLAS's BF16 GEMM once (cublasGemmEx: bf16 inputs, FP32 accumulation, float C):
/// row-major C (m x n) = A (m x k) * B, with B given transposed as Bt (n x k, row-major).
void cublas_gemm_bf16(int m, int n, int k, const __nv_bfloat16* d_a, const __nv_bfloat16* d_bt, float* d_c);

/// One batch of row-major BF16 products on device pointers (cublasGemmStridedBatchedEx, FP32
/// accumulation, float C): for b < batch, C_b (m x n) = A_b (m x k) * B_b, where A_b starts at
/// d_a + b * m * k and C_b at d_c + b * m * n. B_b starts at d_b + b * k * n and is k x n, or,
/// with `b_transposed`, given transposed as n x k.
void cublas_gemm_bf16_batched(int m, int n, int k, const __nv_bfloat16* d_a, const __nv_bfloat16* d_b,
                              bool b_transposed, float* d_c, int batch);

}  // namespace wb
