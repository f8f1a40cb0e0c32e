// The Convolution tab's model (conv_preview): preview input/output through the convolution hooks, the
// bandwidth analysis for the launch shape, a run's output replacing the CPU reference, and the pixel
// and plot helpers.
#include <gtest/gtest.h>

#include "conv_preview.hpp"

namespace ws::ui {
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
  EXPECT_NEAR(p.output.values[500], 1.0, 1e-6);  // box of ones: 1 inside
  EXPECT_NEAR(p.output.values[0], 2.0 / 3.0, 1e-6);  // one ghost cell
  Report shown;
  RunResult r;
  r.variant = k.variant;
  r.backend = "cuda";
  r.status = "ok";
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
  EXPECT_NE(make_conv_preview(key2d("stevens.conv2d_tiled", 64, 64, 4, 0), nullptr).error.find("odd"), std::string::npos);
  EXPECT_NE(make_conv_preview(key2d("stevens.conv2d_tiled", 4096, 4096, 5, 0), nullptr).error.find("2^22"), std::string::npos);
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
  r.backend = "cuda";
  r.status = "ok";
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
