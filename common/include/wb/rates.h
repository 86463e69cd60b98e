/// @file rates.h
/// @brief Figures of merit: GFLOP/s and GB/s.
#pragma once

namespace wb {

/// GFLOP/s of a matrix product C (m x n) = A (m x k) * B (k x n) done in `ms` milliseconds:
/// 2*m*n*k floating-point operations (one multiply and one add per term), 1 GFLOP = 1e9.
inline double gemm_gflops(double m, double n, double k, double ms) { return 2.0 * m * n * k / (ms * 1e-3) / 1e9; }

/// GB/s for `bytes` moved in `ms` milliseconds (1 GB = 1e9 bytes).
inline double gb_per_s(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

}  // namespace wb
