// Lesson 03, program "banks": a matrix transposed through a shared-memory tile.
#pragma once

#include <cuda_runtime.h>

// The tile is kTile x kTile elements; a block of kTile x kRowsPerPass threads moves it in
// kTile / kRowsPerPass passes (each thread 4 elements).
constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

// The row pitch of the tile in shared memory, in elements, in your transpose.cu: element
// (r, c) of the tile lives at tile[r * pitch + c].
int transpose_tile_pitch();

// out (cols x rows) = the transpose of in (rows x cols), both row-major, through tiles whose
// rows are `kTile` apart (padded = false) or transpose_tile_pitch() apart (padded = true).
template <typename T>
void launch_transpose(const T* in, T* out, int rows, int cols, bool padded);
