/// @file kernels.h
/// @brief Lesson 07: the steps from the classic tiled kernel toward cuBLAS DGEMM.
///
/// Every launcher computes C = A * B for n x n row-major double matrices already on the
/// device. Kernels 01-03 accept any n; the others need n to be a multiple of their block
/// tile (64 or 128) and exit with a clear error otherwise. The driver pads the
/// matrices with zeros to that multiple when a check size is not one.
#pragma once

#include "wb/args.h"

#include <string>

// Kernels 01 and 02: the baselines of lessons 02 and 03.
void launch_naive(const double* a, const double* b, double* c, int n);      // kernels/01
void launch_smem_tile(const double* a, const double* b, double* c, int n);  // kernels/02
// Kernel 03: coalesced loads into a k-major, padded A tile.
void launch_smem_transposed(const double* a, const double* b, double* c, int n);  // kernels/03
// Kernel 04: each thread computes a column of 8 outputs.
void launch_register_tile_1d(const double* a, const double* b, double* c, int n);  // kernels/04
// Kernel 05: each thread computes an 8 x 8 block of outputs (exercise).
void launch_register_tile_2d(const double* a, const double* b, double* c, int n);  // kernels/05
// Kernel 06: 16-byte loads and two shared-memory buffers.
void launch_vectorized(const double* a, const double* b, double* c, int n);  // kernels/06
// Kernel 07: warp tiles that make the shared-memory reads conflict-free; two blocks per SM.
void launch_warp_tile(const double* a, const double* b, double* c, int n);  // kernels/07
// Kernel 08: FP64 tensor cores, mma.sync m8n8k4, cp.async double buffering (exercise).
void launch_dmma(const double* a, const double* b, double* c, int n);  // kernels/08
// Kernel 09: the sm_90 shape m16n8k16, 128 x 128 blocks of 8 warps, three cp.async stages.
void launch_dmma_pipelined(const double* a, const double* b, double* c, int n);  // kernels/09
// Kernel 10: FP64 FMA again, fed by a cp.async ring, operands loaded a step ahead, snake order.
void launch_ffma_pipelined(const double* a, const double* b, double* c, int n);  // kernels/10

// Exits with a usage error (code 2) unless n is a positive multiple of `tile`.
inline void require_multiple(const char* kernel, int n, int tile) {
    if (n <= 0 || n % tile != 0)
        wb::usage_error(std::string(kernel) + " needs n to be a positive multiple of " + std::to_string(tile) +
                        " (got " + std::to_string(n) + ")");
}
