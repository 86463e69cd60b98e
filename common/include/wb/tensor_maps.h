/// @file tensor_maps.h
/// @brief The host side of TMA, for the lessons whose kernels load tiles with it (13, 16). A
/// tensor map tells the Tensor Memory Accelerator where a matrix lies in global memory, its shape,
/// and the tile ("box") one copy moves between it and shared memory, with the swizzle that lets
/// wgmma read the tile without bank conflicts.
#pragma once

#include <cuda.h>

#include <cstddef>

namespace wb {

/// How many bf16 one row of a swizzled tile holds: 64 x 2 bytes = 128 bytes, the span of the
/// 128-byte swizzle (a wider box would not be allowed with it).
constexpr int kSwizzledBf16Cols = 64;

/// The map of a row-major rows x cols matrix of `element_bytes`-byte elements of `type` (rows
/// 16-byte aligned) whose TMA copies move box_rows x box_cols boxes with the 128-byte swizzle
/// (box_cols x element_bytes at most 128). A box that reaches past the matrix reads zeros there.
/// `kind` and `boxes` name the map in the error message: "a 256 x 64<kind> map with 128-row
/// <boxes>". Throws an InputError with a clear message when the driver refuses it.
CUtensorMap make_swizzled_map(CUtensorMapDataType type, std::size_t element_bytes, void* matrix, int rows, int cols,
                              int box_cols, int box_rows, CUtensorMapL2promotion promotion, const char* kind,
                              const char* boxes);

/// The map of a row-major rows x cols bf16 matrix (cols a multiple of 8, the address 16-byte
/// aligned) whose loads copy `tile_rows` x kSwizzledBf16Cols tiles with the 128-byte swizzle.
CUtensorMap make_bf16_tile_map(const void* matrix, int rows, int cols, int tile_rows);

}  // namespace wb
