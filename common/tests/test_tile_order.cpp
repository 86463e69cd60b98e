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

}  // namespace
