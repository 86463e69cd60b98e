#include "wb/tile_order.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

// Every tile of the grid exactly once, for grids whose rows the band divides and for grids
// with a thinner last band.
TEST(TileOrder, VisitsEveryTileOnce) {
    for (int tile_rows : {1, 3, 8, 13, 64})
        for (int tile_cols : {1, 5, 32})
            for (int band_rows : {1, 4, 8}) {
                std::vector<int> seen(tile_rows * tile_cols, 0);
                for (unsigned tile = 0; tile < seen.size(); ++tile) {
                    const wb::TilePosition p = wb::tile_in_bands(tile, tile_rows, tile_cols, band_rows);
                    ASSERT_GE(p.row, 0);
                    ASSERT_LT(p.row, tile_rows);
                    ASSERT_GE(p.col, 0);
                    ASSERT_LT(p.col, tile_cols);
                    ++seen[p.row * tile_cols + p.col];
                }
                for (int count : seen) EXPECT_EQ(count, 1) << tile_rows << "x" << tile_cols << " band " << band_rows;
            }
}

// Consecutive tiles go down the band first, then one column right; the last band is thinner.
TEST(TileOrder, WalksDownTheBandFirst) {
    // 5 tile-rows, 3 tile-columns, bands of 4: tiles 0-3 are column 0 of rows 0-3, tile 4 column 1.
    EXPECT_EQ(wb::tile_in_bands(0, 5, 3, 4).row, 0);
    EXPECT_EQ(wb::tile_in_bands(3, 5, 3, 4).row, 3);
    EXPECT_EQ(wb::tile_in_bands(3, 5, 3, 4).col, 0);
    EXPECT_EQ(wb::tile_in_bands(4, 5, 3, 4).row, 0);
    EXPECT_EQ(wb::tile_in_bands(4, 5, 3, 4).col, 1);
    // The last band holds row 4 alone: tiles 12, 13, 14 are its three columns.
    EXPECT_EQ(wb::tile_in_bands(13, 5, 3, 4).row, 4);
    EXPECT_EQ(wb::tile_in_bands(13, 5, 3, 4).col, 1);
}

// Clusters of 1, 2 and 4 blocks along the rows: the pieces of work times the ranks cover every
// tile exactly once, and the blocks of a cluster share their tile-column (the tile of B they
// load once, by multicast) on consecutive tile-rows of one group.
TEST(TileOrder, ClustersVisitEveryTileOnceAndShareTheirColumn) {
    for (int cluster_rows : {1, 2, 4})
        for (int tile_rows : {4, 8, 12, 64})
            for (int tile_cols : {1, 3, 5, 32})
                for (int band_rows : {4, 8, 16}) {
                    if (tile_rows % cluster_rows || band_rows % cluster_rows) continue;
                    const int pieces = tile_rows / cluster_rows * tile_cols;
                    std::vector<int> seen(tile_rows * tile_cols, 0);
                    for (int piece = 0; piece < pieces; ++piece) {
                        const wb::TilePosition first =
                            wb::cluster_tile_in_bands(piece, 0, tile_rows, tile_cols, band_rows, cluster_rows);
                        ASSERT_EQ(first.row % cluster_rows, 0);
                        for (int rank = 0; rank < cluster_rows; ++rank) {
                            const wb::TilePosition p =
                                wb::cluster_tile_in_bands(piece, rank, tile_rows, tile_cols, band_rows, cluster_rows);
                            ASSERT_GE(p.row, 0);
                            ASSERT_LT(p.row, tile_rows);
                            ASSERT_GE(p.col, 0);
                            ASSERT_LT(p.col, tile_cols);
                            EXPECT_EQ(p.col, first.col) << "rank " << rank << " of piece " << piece;
                            EXPECT_EQ(p.row, first.row + rank) << "rank " << rank << " of piece " << piece;
                            ++seen[p.row * tile_cols + p.col];
                        }
                    }
                    for (int count : seen)
                        EXPECT_EQ(count, 1)
                            << tile_rows << "x" << tile_cols << " band " << band_rows << " cluster " << cluster_rows;
                }
}

// A persistent grid: cluster c takes pieces c, c + clusters, ... Both blocks of a cluster make
// the same number of passes (their rings of stages stay in step), whatever the number of pieces,
// odd or not, and whether or not the clusters divide it.
TEST(TileOrder, BlocksOfAClusterTakeTheSameNumberOfTiles) {
    for (int tile_rows : {2, 18, 64})
        for (int tile_cols : {1, 3, 11, 32})
            for (int clusters : {1, 5, 66}) {
                const int pieces = tile_rows / 2 * tile_cols;
                std::vector<int> seen(tile_rows * tile_cols, 0);
                for (int cluster = 0; cluster < clusters; ++cluster) {
                    int passes[2] = {0, 0};
                    for (int rank = 0; rank < 2; ++rank)
                        for (int piece = cluster; piece < pieces; piece += clusters) {
                            const wb::TilePosition p =
                                wb::cluster_tile_in_bands(piece, rank, tile_rows, tile_cols, 8, 2);
                            ++seen[p.row * tile_cols + p.col];
                            ++passes[rank];
                        }
                    EXPECT_EQ(passes[0], passes[1]);
                }
                for (int count : seen) EXPECT_EQ(count, 1) << tile_rows << "x" << tile_cols << " on " << clusters;
            }
}

// The example of WalksDownTheBandFirst, in pairs: 6 tile-rows, 3 tile-columns, bands of 4
// tile-rows (2 pairs). Piece 0 is rows 0-1 of column 0, piece 1 rows 2-3, piece 2 rows 0-1 of
// column 1; the last band holds one pair, rows 4-5.
TEST(TileOrder, ClusterPiecesWalkDownTheBandFirst) {
    EXPECT_EQ(wb::cluster_tile_in_bands(0, 1, 6, 3, 4, 2).row, 1);
    EXPECT_EQ(wb::cluster_tile_in_bands(1, 0, 6, 3, 4, 2).row, 2);
    EXPECT_EQ(wb::cluster_tile_in_bands(1, 0, 6, 3, 4, 2).col, 0);
    EXPECT_EQ(wb::cluster_tile_in_bands(2, 1, 6, 3, 4, 2).row, 1);
    EXPECT_EQ(wb::cluster_tile_in_bands(2, 1, 6, 3, 4, 2).col, 1);
    EXPECT_EQ(wb::cluster_tile_in_bands(7, 1, 6, 3, 4, 2).row, 5);
    EXPECT_EQ(wb::cluster_tile_in_bands(7, 1, 6, 3, 4, 2).col, 1);
}

}  // namespace
