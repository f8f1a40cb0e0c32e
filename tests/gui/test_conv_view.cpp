// The Convolution tab's model (conv_preview): preview input/output through the convolution hooks, the
// bandwidth analysis for the launch shape, a run's output replacing the CPU reference, and the pixel
// and plot helpers.
#include <gtest/gtest.h>

#include "app_state.hpp"
#include "views/conv_preview.hpp"

namespace ws::ui {

using controller::RunParams;

namespace {

ConvPreviewKey key2d(const std::string& id, std::int64_t w, std::int64_t h, int mask, int tile) {
  ConvPreviewKey k;
  k.variant = id;
  k.params.width = w;
  k.params.height = h;
  k.params.mask_width = mask;
  k.params.tile = tile;
  k.input = "random";
  return k;
}

TEST(ConvPreview, TiledTwoDimensionalPreview) {
  // 64 x 64, TILE_SIZE 8, KERNEL_SIZE 5: the slides' 8x8 tile (144 loads, 1600 accesses, 11.1).
  const ConvPreview p = make_conv_preview(key2d("stevens.conv2d_tiled", 64, 64, 5, 8), nullptr);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.dims, 2);
  EXPECT_EQ(p.input.rows, 64);
  EXPECT_EQ(p.output.values.size(), 64u * 64u);
  EXPECT_EQ(p.output_source, "CPU reference");
  EXPECT_EQ(p.setup.g.block_x, 12);
  EXPECT_EQ(p.traffic.internal.loaded, 144);
  EXPECT_EQ(p.traffic.internal.accesses, 1600);
  EXPECT_NEAR(p.traffic.formula, 11.1, 0.05);
  EXPECT_EQ(p.traffic.tiles, 64);
}

TEST(ConvPreview, OneDimensionalTakesNAndTheLastRunsOutput) {
  ConvPreviewKey k;
  k.variant = "stevens.conv1d_tiled";
  k.n = 1000;
  k.input = "ones";
  k.params.mask_width = 3;
  k.params.mask = "box";
  ConvPreview p = make_conv_preview(k, nullptr);
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.input.n(), 1000);
  EXPECT_NEAR(p.output.values[500], 1.0, 1e-6);      // box of ones: 1 inside
  EXPECT_NEAR(p.output.values[0], 2.0 / 3.0, 1e-6);  // one ghost cell
  Report shown;
  RunResult r;
  r.variant = k.variant;
  r.backend = BackendKind::Cuda;
  r.status = RunStatus::Ok;
  r.output.assign(1000, 7.0);
  r.output_cols = 1000;
  shown.runs.push_back(r);
  p = make_conv_preview(k, &shown);
  EXPECT_EQ(p.output_source, "last run (cuda, ok)");
  EXPECT_EQ(p.output.values[3], 7.0);
  shown.runs[0].output.resize(10);  // another size: the reference again
  EXPECT_EQ(make_conv_preview(k, &shown).output_source, "CPU reference");
}

TEST(ConvPreview, ErrorsAreOneLine) {
  EXPECT_NE(make_conv_preview(key2d("stevens.conv2d_tiled", 64, 64, 4, 0), nullptr).error.find("odd"),
            std::string::npos);
  EXPECT_NE(make_conv_preview(key2d("stevens.conv2d_tiled", 4096, 4096, 5, 0), nullptr).error.find("2^22"),
            std::string::npos);
  EXPECT_NE(make_conv_preview(key2d("stevens.reduce_compact", 64, 64, 5, 0), nullptr).error, "");
}

TEST(ConvPreview, GreyPixelsAndPlotSamples) {
  int w = 0, h = 0;
  const std::vector<double> v = {0, 1, 2, 3, 4, 5};  // 2 rows x 3 columns
  auto px = grey_pixels(v, 2, 3, 8, w, h);
  ASSERT_EQ(w, 3);
  ASSERT_EQ(h, 2);
  EXPECT_EQ(px[0], 0xFF000000u);  // min -> black
  EXPECT_EQ(px[5], 0xFFFFFFFFu);  // max -> white
  std::vector<double> big(100 * 100, 1.0);
  px = grey_pixels(big, 100, 100, 30, w, h);  // averaged 4 x 4 -> 25 x 25, flat grey
  EXPECT_EQ(w, 25);
  EXPECT_EQ(px.size(), 625u);
  EXPECT_EQ(px[0] & 0xFFu, 128u);
  EXPECT_TRUE(grey_pixels(v, 3, 3, 8, w, h).empty());  // too few values
  EXPECT_EQ(plot_samples(v, 4).size(), 4u);
  EXPECT_EQ(plot_samples(v, 100).size(), 6u);
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

TEST(ConvPreview, MeasuredDramBytesOfTheLastRun) {
  ConvPreviewKey k;
  k.variant = "stevens.conv1d_basic";
  k.n = 100;
  k.input = "ones";
  Report shown;
  RunResult r;
  r.variant = k.variant;
  r.backend = BackendKind::Cuda;
  r.status = RunStatus::Ok;
  r.output.assign(100, 1.0);
  r.output_cols = 100;
  r.metrics.collected = true;
  r.metrics.values["dram__bytes_read.sum"] = 400;
  r.metrics.values["dram__bytes_write.sum"] = 416;
  shown.runs.push_back(r);
  const ConvPreview p = make_conv_preview(k, &shown);
  EXPECT_EQ(p.dram_read, 400);
  EXPECT_EQ(p.dram_write, 416);
  EXPECT_EQ(make_conv_preview(k, nullptr).dram_read, -1);
}

}  // namespace
}  // namespace ws::ui

#include <cmath>

#include "conv_controls.hpp"
#include "patterns/convolution/conv_analysis.hpp"
#include "patterns/convolution/conv_sim.hpp"
#include "registry.hpp"
#include "views/conv_bandwidth_table.hpp"
#include "views/conv_tile_counts.hpp"

namespace ws::ui {
namespace {

double cell(const BandwidthTable& t, int mask, int tile) {
  for (std::size_t m = 0; m < t.masks.size(); ++m)
    for (std::size_t k = 0; k < t.tiles.size(); ++k)
      if (t.masks[m] == mask && t.tiles[k] == tile) return t.reduction[m][k];
  ADD_FAILURE() << "no cell for mask " << mask << ", tile " << tile;
  return -1;
}

TEST(ConvBandwidthTable, MatchesTheSlidesTables) {
  // "CS 677 Lecture 6", Mordohai, slide "Bandwidth Reduction in 1D": Tile_Width 16..256.
  const BandwidthTable one = bandwidth_table(1, 0, 0);
  const int tiles1[] = {16, 32, 64, 128, 256};
  const double mask5[] = {4.0, 4.4, 4.7, 4.9, 4.9}, mask9[] = {6.0, 7.2, 8.0, 8.5, 8.7};
  // The slide's values are the formula to one decimal (half up), except two cells it rounds the other
  // way: 1D tile 128, mask 5 prints 4.9 for 640 / 132 = 4.848, and 2D below.
  const double half = 0.05 + 1e-9;
  for (int k = 0; k < 5; ++k) {
    EXPECT_NEAR(cell(one, 5, tiles1[k]), mask5[k], tiles1[k] == 128 ? 0.06 : half) << "tile " << tiles1[k];
    EXPECT_NEAR(cell(one, 9, tiles1[k]), mask9[k], half) << "tile " << tiles1[k];
  }
  EXPECT_NEAR(cell(one, 5, 128), 640.0 / 132.0, 1e-12);
  // Slide "Bandwidth Reduction in 2D": TILE_SIZE 8..64.
  const BandwidthTable two = bandwidth_table(2, 0, 0);
  const int tiles2[] = {8, 16, 32, 64};
  const double k5[] = {11.1, 16, 19.7, 22.1}, k9[] = {20.3, 36, 51.8, 64};
  for (int k = 0; k < 4; ++k) {
    // The slide prints 19.7 for TILE_SIZE 32, KERNEL_SIZE 5: the formula gives 25600 / 1296 = 19.75 (the
    // same table rounds 20.25 up to 20.3), so that one cell is within 0.06.
    EXPECT_NEAR(cell(two, 5, tiles2[k]), k5[k], tiles2[k] == 32 ? 0.06 : half) << "tile " << tiles2[k];
    EXPECT_NEAR(cell(two, 9, tiles2[k]), k9[k], half) << "tile " << tiles2[k];
  }
  EXPECT_NEAR(cell(two, 5, 32), 25600.0 / 1296.0, 1e-12);
  // "A simple way to calculate tiling benefit": 8 outputs, mask 5: 40 / 12 = 3.3; the chosen tile and
  // mask join the table in order.
  const BandwidthTable chosen = bandwidth_table(1, 8, 11);
  EXPECT_EQ(chosen.tiles.front(), 8);
  EXPECT_NEAR(cell(chosen, 5, 8), 40.0 / 12.0, 1e-12);
  EXPECT_EQ(chosen.masks, (std::vector<int>{5, 9, 11}));
  EXPECT_EQ(chosen.reduction.size(), chosen.masks.size());
  EXPECT_EQ(bandwidth_table(2, 0, 4).masks.size(), 2u);  // an even width is not added
  EXPECT_EQ(bandwidth_table(2, 0, 3).masks, (std::vector<int>{3, 5, 9}));
}

ConvGeometry geometry(const std::string& id, int mask, int tile, int block, std::int64_t w, std::int64_t h) {
  ConvGeometry g;
  EXPECT_EQ(conv_geometry(*find_variant(id), mask, tile, block, w, h, g), "");
  return g;
}

std::vector<float> ramp(std::int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i % 7) + 1.f;
  return v;
}

TEST(ConvTileCounts, OneDimensionalTiledCountsWhatTheModelLoads) {
  // Tile 8, mask 5 (slide "Ghost Elements"): the first tile loads 8 + 2 = 10 elements and stores 2
  // ghost cells; an internal tile loads 8 + 4 = 12 (slide "A simple way to calculate tiling benefit").
  const ConvGeometry g = geometry("stevens.conv1d_tiled", 5, 0, 8, 64, 0);
  const std::vector<float> mask(5, 0.2f);
  const ConvTileCounts first = model_tile_counts(g, ramp(64), mask, 0, 0);
  EXPECT_EQ(first.total.internal, 8);
  EXPECT_EQ(first.total.halo, 2);
  EXPECT_EQ(first.total.ghost, 2);
  EXPECT_EQ(first.staged(), 10);
  EXPECT_EQ(first.staged(), tile_traffic_1d(64, 8, 5, 0).loaded);
  EXPECT_EQ(first.threads[0].internal + first.threads[0].halo, 2);  // thread 0: its element and a right halo
  EXPECT_EQ(first.threads[7].ghost, 1);                             // thread 7: a left ghost cell
  EXPECT_EQ(first.computing, 8);
  EXPECT_EQ(first.writing, 8);
  const ConvTileCounts inner = model_tile_counts(g, ramp(64), mask, 3, 0);
  EXPECT_EQ(inner.staged(), 12);
  EXPECT_EQ(inner.total.ghost, 0);
  EXPECT_EQ(inner.staged(), tile_traffic_1d(64, 8, 5, 3).loaded);
  // The cache variant stages only its own tile; the halo comes through the caches in the mask loop.
  const ConvGeometry gc = geometry("stevens.conv1d_tiled_cache", 5, 0, 8, 64, 0);
  const ConvTileCounts cached = model_tile_counts(gc, ramp(64), mask, 3, 0);
  EXPECT_EQ(cached.staged(), 8);
  EXPECT_EQ(cached.total.direct, 2 + 1 + 1 + 2);  // threads 0, 1 and 6, 7 reach 2, 1, 1, 2 halo elements
  // The basic kernel stages nothing: 8 threads x 5 taps read N in the mask loop.
  const ConvTileCounts basic =
      model_tile_counts(geometry("stevens.conv1d_basic", 5, 0, 8, 64, 0), ramp(64), mask, 3, 0);
  EXPECT_EQ(basic.staged(), 0);
  EXPECT_EQ(basic.total.direct, 40);
}

TEST(ConvTileCounts, TwoDimensionalCountsEqualTheAnalysis) {
  // 8x8 output tile, KERNEL_SIZE 5 (slide "8x8 Output Tile"): 144 loads for an internal tile.
  const ConvGeometry g = geometry("stevens.conv2d_tiled", 5, 8, 0, 40, 24);
  const std::vector<float> mask(25, 0.04f);
  const auto in = ramp(40 * 24);
  for (std::int64_t by = 0; by < g.grid_y; ++by)
    for (std::int64_t bx = 0; bx < g.grid_x; ++bx) {
      const ConvTileCounts c = model_tile_counts(g, in, mask, bx, by);
      const TileTraffic want = tile_traffic_2d(24, 40, 8, 5, by, bx);
      EXPECT_EQ(c.staged(), want.loaded) << bx << ", " << by;
      EXPECT_EQ(c.total.internal, want.outputs) << bx << ", " << by;
      EXPECT_EQ(c.staged() + c.total.ghost, 12 * 12) << bx << ", " << by;  // every shared slot written once
      EXPECT_EQ(c.computing, 64);
      EXPECT_EQ(c.writing, want.outputs);
    }
  EXPECT_EQ(model_tile_counts(g, in, mask, 1, 1).staged(), 144);
  // The coarsened kernel's 32 x 64 tile, corner block of a 70 x 100 image.
  const ConvGeometry gc = geometry("stevens.conv2d_tiled_coarse", 3, 0, 0, 70, 100);
  const std::vector<float> m3(9, 1.f / 9);
  const auto in2 = ramp(70 * 100);
  for (std::int64_t bx : {0, 1, 2}) {
    const ConvTileCounts c = model_tile_counts(gc, in2, m3, bx, 0);
    const ArrayTraffic a = array_traffic_2d(100, 70, 64, 32, 3);
    if (bx == 0) EXPECT_EQ(c.staged(), a.first.loaded);
    EXPECT_EQ(c.staged() + c.total.ghost, 34 * 66) << bx;
  }
}

TEST(ConvTileCounts, RefusesAnotherBlocksTrace) {
  const ConvGeometry g = geometry("stevens.conv1d_tiled", 5, 0, 8, 64, 0);
  Trace t;
  sim::simulate_conv(g, ramp(64), std::vector<float>(5, 0.2f), 2, &t);
  EXPECT_THROW(count_tile_loads(g, t, 1, 0), std::invalid_argument);
  EXPECT_NO_THROW(count_tile_loads(g, t, 2, 0));
}

TEST(ConvControls, ChoicesFollowTheVariantsLaunchRules) {
  RunParams p;
  p.pattern.mask_width = 5;
  p.pattern.width = p.pattern.height = 256;
  const VariantInfo* tiled = find_variant("stevens.conv2d_tiled");
  ASSERT_NE(tiled, nullptr);
  auto refused = [](const std::vector<ConvChoice>& cs, int value) {
    for (const auto& c : cs)
      if (c.value == value) return c.refused;
    return std::string("not offered");
  };
  const auto tiles = conv_tile_choices(*tiled, p);
  EXPECT_EQ(refused(tiles, 28), "");  // block 32 x 32
  EXPECT_NE(refused(tiles, 32).find("largest tile for mask width 5 is 28"), std::string::npos);
  EXPECT_EQ(refused(tiles, 128), "not offered");  // only the register-tiled kernel's
  p.pattern.tile = 24;
  const auto masks = conv_mask_choices(*tiled, p);
  EXPECT_EQ(refused(masks, 9), "");   // 24 + 9 - 1 = 32
  EXPECT_NE(refused(masks, 11), "");  // 34 per side
  const VariantInfo* coarse = find_variant("stevens.conv2d_tiled_coarse");
  ASSERT_NE(coarse, nullptr);
  p.pattern.tile = 0;
  EXPECT_NE(refused(conv_tile_choices(*coarse, p), 16), "");
  EXPECT_EQ(refused(conv_tile_choices(*coarse, p), 32), "");
  // 1D: the tile is the block, and a run's request carries it.
  const VariantInfo* one = find_variant("stevens.conv1d_tiled");
  ASSERT_NE(one, nullptr);
  p.pattern.width = p.pattern.height = 0;
  p.pattern.mask_width = 9;
  set_conv_tile(*one, p, 64);
  EXPECT_EQ(conv_tile_value(*one, p), 64);
  const RunRequest r = p.to_request(one->id);
  EXPECT_EQ(r.launch.block, 64);
  EXPECT_EQ(r.params.mask_width, 9);
  EXPECT_EQ(refused(conv_mask_choices(*one, p), 9), "");
  EXPECT_EQ(refused(conv_tile_choices(*one, p), 1024), "");
}

}  // namespace
}  // namespace ws::ui
