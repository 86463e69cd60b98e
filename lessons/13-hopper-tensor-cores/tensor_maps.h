/// @file tensor_maps.h
/// @brief Lesson 13: the host side of TMA. A tensor map tells the Tensor Memory Accelerator
/// where a matrix lies in global memory, its shape, and the tile ("box") one load copies into
/// shared memory, with the swizzle that lets wgmma read it without bank conflicts.
#pragma once

#include "wb/tensor_maps.h"

#include <cuda.h>
#include <cuda_bf16.h>

/// How many bf16 of k one tile row holds: 64 x 2 bytes = 128 bytes, the span of the 128-byte
/// swizzle (a wider box would not be allowed with it).
constexpr int kTileK = 64;
static_assert(kTileK == wb::kSwizzledBf16Cols, "make_tile_map() copies tiles as wide as the swizzle");

/// The map of a row-major rows x k bf16 matrix (k a multiple of 8, the address 16-byte
/// aligned) whose loads copy `tile_rows` x kTileK tiles with the 128-byte swizzle. Exits with a
/// clear message when the driver refuses it.
CUtensorMap make_tile_map(const __nv_bfloat16* matrix, int rows, int k, int tile_rows);

/// How many floats of C one row of an output chunk holds: 32 x 4 bytes = 128 bytes, the span of
/// the 128-byte swizzle.
constexpr int kChunkCols = 32;

/// The map of a row-major rows x cols float matrix C (cols a multiple of 4) whose TMA stores
/// write `chunk_rows` x kChunkCols chunks from shared memory laid out with the 128-byte swizzle
/// (kernel 06's epilogue). Exits with a clear message when the driver refuses it.
CUtensorMap make_output_map(float* matrix, int rows, int cols, int chunk_rows);
