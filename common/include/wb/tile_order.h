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

/// The tile of block `rank` of a cluster of `cluster_rows` blocks stacked along the rows, for the
/// cluster's `cluster_tile`-th piece of work: the clusters' pieces (cluster_rows x 1 tiles each)
/// go in band order over a grid of tile_rows / cluster_rows x tile_cols pieces, bands of
/// band_rows / cluster_rows pieces (band_rows tile-rows, as tile_in_bands), and block `rank`
/// takes tile-row cluster_rows * piece row + rank. The blocks of one cluster thus get tiles of
/// one tile-column, on neighbouring tile-rows: they need the same tile of B (lesson 13's kernel
/// 05 loads it once for both, by multicast). Needs tile_rows and band_rows to be multiples of
/// cluster_rows, and 0 <= rank < cluster_rows.
template <class Index>
__host__ __device__ inline TilePosition cluster_tile_in_bands(Index cluster_tile, int rank, int tile_rows,
                                                              int tile_cols, int band_rows, int cluster_rows) {
    const TilePosition piece =
        tile_in_bands(cluster_tile, tile_rows / cluster_rows, tile_cols, band_rows / cluster_rows);
    return {piece.row * cluster_rows + rank, piece.col};
}

}  // namespace wb
