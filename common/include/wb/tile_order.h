/// @file tile_order.h
/// @brief Which tile of C a block of a matrix product computes, in an order that lets the
/// blocks running at the same time share their tiles of A and B through the L2 cache (lesson
/// 07's kernels 08 and 09, lesson 13's kernel 04).
#pragma once

#include <cuda_runtime.h>

namespace wb {

/// Row and column of a tile of C, counted in tiles.
struct TilePosition {
    int row;  ///< tile-row
    int col;  ///< tile-column
};

/// Tile number `tile` of a grid of tile_rows x tile_cols tiles in band order: consecutive
/// numbers walk down a band of `band_rows` tile-rows before moving one tile-column right (the
/// last band is thinner when band_rows does not divide tile_rows). The tiles computed at the
/// same time then span a few rows of A and a few columns of B, instead of one row of A and all
/// of B in plain row order. `tile` may be blockIdx.x itself (unsigned) or an int.
template <class Index>
__host__ __device__ inline TilePosition tile_in_bands(Index tile, int tile_rows, int tile_cols, int band_rows) {
    const int per_band = band_rows * tile_cols;
    const int first_row = tile / per_band * band_rows;
    const int rows_left = tile_rows - first_row;
    const int rows_in_band = rows_left < band_rows ? rows_left : band_rows;
    const int in_band = tile % per_band;
    return {first_row + in_band % rows_in_band, in_band / rows_in_band};
}

}  // namespace wb
