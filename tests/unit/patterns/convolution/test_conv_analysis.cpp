// The bandwidth-reduction analysis of tiled convolution, "CS 677 Lecture 6", Mordohai.
#include <gtest/gtest.h>

#include <cmath>

#include "patterns/convolution/conv_analysis.hpp"

using namespace ws;

TEST(ConvAnalysis, SmallOneDimensionalExample) {
  // Slides "Analysis - Small 1D Example" and "A simple way to calculate tiling benefit":
  // TILE_SIZE 8, Mask_Width 5, block 1 of a long array: 12 loads, 8 * 5 = 40 accesses, 3.3.
  const TileTraffic t = tile_traffic_1d(64, 8, 5, 1);
  EXPECT_TRUE(t.internal);
  EXPECT_EQ(t.outputs, 8);
  EXPECT_EQ(t.loaded, 12);
  EXPECT_EQ(t.accesses, 40);
  EXPECT_NEAR(t.reduction(), 3.3, 0.05);
  EXPECT_DOUBLE_EQ(t.reduction(), bandwidth_reduction_1d(8, 5));
}

TEST(ConvAnalysis, GhostElementsOfABoundaryTile) {
  // Slide "Ghost Elements": a boundary tile loads TILE + (Mask_Width - 1)/2 = 10 elements and its
  // outputs make 3 + 4 + 6 * 5 = 37 accesses: a reduction of 3.7.
  const TileTraffic t = tile_traffic_1d(64, 8, 5, 0);
  EXPECT_FALSE(t.internal);
  EXPECT_EQ(t.loaded, 10);
  EXPECT_EQ(t.accesses, 37);
  EXPECT_NEAR(t.reduction(), 3.7, 1e-12);
  const TileTraffic last = tile_traffic_1d(64, 8, 5, 7);  // the mirror image at the other end
  EXPECT_EQ(last.loaded, 10);
  EXPECT_EQ(last.accesses, 37);
}

TEST(ConvAnalysis, OneDimensionalTableOfTheSlides) {
  // Slide "Bandwidth Reduction in 1D". The slide rounds 640/132 = 4.848 up to 4.9; every other
  // entry is the value rounded to one decimal, so the check allows 0.06.
  const int tiles[] = {16, 32, 64, 128, 256};
  const double mask5[] = {4.0, 4.4, 4.7, 4.9, 4.9};
  const double mask9[] = {6.0, 7.2, 8.0, 8.5, 8.7};
  for (int k = 0; k < 5; ++k) {
    EXPECT_NEAR(bandwidth_reduction_1d(tiles[k], 5), mask5[k], 0.06) << "tile " << tiles[k];
    EXPECT_NEAR(bandwidth_reduction_1d(tiles[k], 9), mask9[k], 0.06) << "tile " << tiles[k];
    // An internal tile counted element by element gives the formula exactly.
    EXPECT_DOUBLE_EQ(tile_traffic_1d(4096, tiles[k], 9, 3).reduction(), bandwidth_reduction_1d(tiles[k], 9));
  }
}

TEST(ConvAnalysis, TwoDimensionalEightByEightTile) {
  // Slide "8x8 Output Tile": 12 x 12 = 144 loads, 8 x 8 x 25 = 1600 accesses, 11X.
  const TileTraffic t = tile_traffic_2d(100, 100, 8, 5, 3, 4);
  EXPECT_TRUE(t.internal);
  EXPECT_EQ(t.outputs, 64);
  EXPECT_EQ(t.loaded, 144);
  EXPECT_EQ(t.accesses, 1600);
  EXPECT_NEAR(t.reduction(), 11.1, 0.05);
  // The corner tile: (8 + 2)^2 = 100 loads, 37^2 = 1369 accesses (each axis as in "Ghost Elements").
  const TileTraffic c = tile_traffic_2d(100, 100, 8, 5, 0, 0);
  EXPECT_FALSE(c.internal);
  EXPECT_EQ(c.loaded, 100);
  EXPECT_EQ(c.accesses, 1369);
  // An edge tile: 10 x 12 loads, 37 x 40 accesses.
  const TileTraffic e = tile_traffic_2d(100, 100, 8, 5, 0, 5);
  EXPECT_EQ(e.loaded, 120);
  EXPECT_EQ(e.accesses, 1480);
}

TEST(ConvAnalysis, TwoDimensionalTableOfTheSlides) {
  // Slide "Bandwidth Reduction in 2D". The slide truncates 25600/1296 = 19.75 to 19.7.
  const int tiles[] = {8, 16, 32, 64};
  const double k5[] = {11.1, 16, 19.7, 22.1};
  const double k9[] = {20.3, 36, 51.8, 64};
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(bandwidth_reduction_2d(tiles[k], 5), k5[k], 0.06) << "tile " << tiles[k];
    EXPECT_NEAR(bandwidth_reduction_2d(tiles[k], 9), k9[k], 0.06) << "tile " << tiles[k];
  }
  EXPECT_DOUBLE_EQ(bandwidth_reduction_2d(16, 9), 36.0);
  EXPECT_DOUBLE_EQ(bandwidth_reduction_2d(64, 9), 64.0);
}

TEST(ConvAnalysis, TileCountsEqualABruteForceCount) {
  // Count loads and accesses pixel by pixel for awkward sizes and compare.
  for (int mask : {1, 3, 5, 7}) {
    for (int tile : {1, 4, 7}) {
      const std::int64_t rows = 11, cols = 13;
      for (std::int64_t tr = 0; tr * tile < rows; ++tr)
        for (std::int64_t tc = 0; tc * tile < cols; ++tc) {
          std::int64_t loaded = 0, accesses = 0, outputs = 0;
          const int r = mask / 2;
          for (std::int64_t y = tr * tile - r; y < tr * tile + tile + r; ++y)
            for (std::int64_t x = tc * tile - r; x < tc * tile + tile + r; ++x)
              if (y >= 0 && y < rows && x >= 0 && x < cols) ++loaded;
          for (std::int64_t y = tr * tile; y < std::min<std::int64_t>(rows, tr * tile + tile); ++y)
            for (std::int64_t x = tc * tile; x < std::min<std::int64_t>(cols, tc * tile + tile); ++x) {
              ++outputs;
              for (int i = -r; i <= r; ++i)
                for (int j = -r; j <= r; ++j)
                  if (y + i >= 0 && y + i < rows && x + j >= 0 && x + j < cols) ++accesses;
            }
          const TileTraffic t = tile_traffic_2d(rows, cols, tile, mask, tr, tc);
          EXPECT_EQ(t.loaded, loaded) << mask << " " << tile << " " << tr << " " << tc;
          EXPECT_EQ(t.accesses, accesses) << mask << " " << tile << " " << tr << " " << tc;
          EXPECT_EQ(t.outputs, outputs);
        }
    }
  }
}

TEST(ConvAnalysis, WholeArrayTotals) {
  // Width 16, tile 8, mask 5: two boundary tiles of 10 loads and 37 accesses each, no internal tile.
  const ArrayTraffic a = array_traffic_1d(16, 8, 5);
  EXPECT_EQ(a.tiles, 2);
  EXPECT_EQ(a.internal_tiles, 0);
  EXPECT_EQ(a.loaded, 20);
  EXPECT_EQ(a.accesses, 74);
  EXPECT_EQ(a.outputs, 16);
  EXPECT_EQ(a.internal.loaded, 0);
  // 2D 24 x 24, tile 8, mask 5: 9 tiles, one internal; totals factor into (10+12+10)^2 loads and
  // (37+40+37)^2 accesses.
  const ArrayTraffic b = array_traffic_2d(24, 24, 8, 5);
  EXPECT_EQ(b.tiles, 9);
  EXPECT_EQ(b.internal_tiles, 1);
  EXPECT_EQ(b.loaded, 32 * 32);
  EXPECT_EQ(b.accesses, 114 * 114);
  EXPECT_EQ(b.internal.loaded, 144);
  EXPECT_EQ(b.first.accesses, 1369);
  EXPECT_NEAR(b.formula, 11.1, 0.05);
  // A huge 1D array stays fast (the per-tile count skips the full outputs).
  const ArrayTraffic big = array_traffic_1d(std::int64_t(1) << 28, 1024, 9);
  EXPECT_EQ(big.accesses, (std::int64_t(1) << 28) * 9 - 2 * (1 + 2 + 3 + 4));
}

TEST(ConvAnalysis, RejectsBadShapes) {
  EXPECT_THROW(tile_traffic_1d(16, 0, 5, 0), std::invalid_argument);
  EXPECT_THROW(tile_traffic_1d(16, 8, 4, 0), std::invalid_argument);
  EXPECT_THROW(tile_traffic_1d(16, 8, 5, 2), std::invalid_argument);
  EXPECT_THROW(array_traffic_2d(0, 8, 8, 5), std::invalid_argument);
}

// Rectangular output tiles (conv2d_tiled_coarse: 64 rows x 32 columns; conv2d_register_tiled: 32 x 128):
// the 2D counts are the product of the two axes' 1D counts, and the formula keeps the sides apart.
TEST(ConvAnalysis, RectangularTilesMultiplyTheAxes) {
  const ArrayTraffic sq = array_traffic_2d(100, 90, 8, 5), same = array_traffic_2d(100, 90, 8, 8, 5);
  EXPECT_EQ(sq.loaded, same.loaded);
  EXPECT_EQ(sq.accesses, same.accesses);
  EXPECT_DOUBLE_EQ(sq.formula, same.formula);
  const ArrayTraffic r = array_traffic_2d(8192, 8192, 64, 32, 5);
  EXPECT_EQ(r.tiles, (8192 / 64) * (8192 / 32));
  EXPECT_EQ(r.internal.outputs, 64 * 32);
  EXPECT_EQ(r.internal.loaded, (64 + 4) * (32 + 4));
  EXPECT_EQ(r.internal.accesses, 64 * 32 * 25);
  EXPECT_DOUBLE_EQ(r.formula, 64.0 * 32 * 25 / (68.0 * 36));
  EXPECT_DOUBLE_EQ(r.internal.reduction(), r.formula);
  const ArrayTraffic a = array_traffic_1d(8192, 32, 5), b = array_traffic_1d(8192, 64, 5);
  EXPECT_EQ(r.loaded, a.loaded * b.loaded);
}
