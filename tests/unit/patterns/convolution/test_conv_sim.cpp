// Thread-level models of the convolution kernels ("CS 677 Lecture 6", Mordohai): outputs against the
// CPU reference for every kernel, mask width and awkward size; tile maps against the slides' counts.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "patterns/convolution/conv_analysis.hpp"
#include "patterns/convolution/conv_geometry.hpp"
#include "patterns/convolution/conv_sim.hpp"
#include "patterns/convolution/reference.hpp"
#include "registry.hpp"
#include "trace/analyses.hpp"

using namespace ws;

namespace {

const char* k1D[] = {"stevens.conv1d_basic", "stevens.conv1d_const", "stevens.conv1d_tiled",
                     "stevens.conv1d_tiled_cache"};
const char* k2D[] = {"stevens.conv2d_basic", "stevens.conv2d_tiled", "stevens.conv2d_tiled_coarse",
                     "stevens.conv2d_register_tiled"};

bool fixed_tile(const std::string& id) {
  return id.find("coarse") != std::string::npos || id.find("register") != std::string::npos;
}

std::vector<float> random_floats(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (auto& x : v) x = d(rng);
  return v;
}

ConvGeometry geometry(const char* id, int w, int tile, std::int64_t width, std::int64_t height) {
  ConvGeometry g;
  EXPECT_EQ(conv_geometry(*find_variant(id), w, tile, 0, width, height, g), "") << id;
  return g;
}

/// Whether every output is a float32 value (the kernels accumulate in float; the model widens exactly).
bool all_float(ConstSpan<double> v) {
  for (double x : v)
    if (double(float(x)) != x) return false;
  return true;
}

std::size_t count_load(const std::vector<sim::ConvThreadRole>& roles, sim::ConvLoad what) {
  std::size_t k = 0;
  for (const auto& r : roles) k += r.load == what;
  return k;
}

}  // namespace

TEST(SimConv, OneDimensionalKernelsEqualTheReference) {
  for (const char* id : k1D)
    for (int w : {1, 3, 5, 7, 9, 15})
      for (std::int64_t width : {1, 31, 1000, 4097})
        for (int tile : {0, 32, 100}) {
          if (tile && tile < w / 2) continue;
          const auto n = random_floats(std::size_t(width), unsigned(width + w));
          const auto m = random_floats(std::size_t(w), unsigned(w));
          const ConvGeometry g = geometry(id, w, tile, width, 0);
          const auto got = sim::simulate_conv(g, n, m, -1, nullptr);
          EXPECT_EQ(compare_conv_output(got, conv1d_reference(n, m), 0, width), "")
              << id << " mask " << w << " width " << width << " tile " << tile;
          EXPECT_TRUE(all_float(got)) << id << " mask " << w << " width " << width << " tile " << tile;
        }
}

TEST(SimConv, TwoDimensionalKernelsEqualTheReference) {
  const std::pair<std::int64_t, std::int64_t> sizes[] = {{1, 1}, {7, 7}, {37, 53}, {100, 3}, {3, 100}, {65, 33}};
  for (const char* id : k2D)
    for (int w : {1, 3, 5, 7, 9, 15})
      for (auto [rows, cols] : sizes) {
        const auto n = random_floats(std::size_t(rows * cols), unsigned(rows * cols + w));
        const auto m = random_floats(std::size_t(w * w), unsigned(w));
        const ConvGeometry g = geometry(id, w, 0, cols, rows);
        const auto got = sim::simulate_conv(g, n, m, -1, nullptr);
        EXPECT_EQ(compare_conv_output(got, conv2d_reference(n, rows, cols, m, w), rows, cols), "")
            << id << " mask " << w << " " << rows << "x" << cols;
        EXPECT_TRUE(all_float(got)) << id << " mask " << w << " " << rows << "x" << cols;
      }
  // A small tile: several blocks in both directions, the last ones partial.
  const auto n = random_floats(37 * 53, 1), m = random_floats(25, 2);
  for (const char* id : {"stevens.conv2d_basic", "stevens.conv2d_tiled"}) {
    const auto got = sim::simulate_conv(geometry(id, 5, 4, 53, 37), n, m, -1, nullptr);
    EXPECT_EQ(compare_conv_output(got, conv2d_reference(n, 37, 53, m, 5), 37, 53), "") << id;
  }
}

TEST(SimConv, RegisterTiledKernelEqualsTheReferenceOnBothLoadPaths) {
  // Widths that are multiples of 4 take the float4 path, the others the scalar one; sizes over the
  // 128 x 32 output tile give several blocks in both directions with partial last ones, and 8-row
  // thread strips cut by the bottom edge.
  const std::pair<std::int64_t, std::int64_t> sizes[] = {{70, 260}, {45, 131}, {33, 4}, {9, 129}, {64, 256}};
  for (int w : {1, 3, 5, 7, 9, 11, 13, 15})
    for (auto [rows, cols] : sizes) {
      const auto n = random_floats(std::size_t(rows * cols), unsigned(rows * 7 + cols + w));
      const auto m = random_floats(std::size_t(w * w), unsigned(w + 1));
      const ConvGeometry g = geometry("stevens.conv2d_register_tiled", w, 0, cols, rows);
      const auto got = sim::simulate_conv(g, n, m, -1, nullptr);
      EXPECT_EQ(compare_conv_output(got, conv2d_reference(n, rows, cols, m, w), rows, cols), "")
          << "mask " << w << " " << rows << "x" << cols;
    }
}

TEST(SimConv, RegisterTiledTraceSlidesDownTheRows) {
  const auto n = random_floats(64 * 260, 8), m = random_floats(25, 9);
  const ConvGeometry g = geometry("stevens.conv2d_register_tiled", 5, 0, 260, 64);  // grid 3 x 2
  EXPECT_EQ(g.describe(), "block 32x4, grid 3x2, output tile 128x32");
  Trace t;
  sim::simulate_conv(g, n, m, 3, &t);           // block (0, 1): rows 32..63, columns 0..127
  ASSERT_EQ(t.steps.size(), 2u * (8 + 4) + 1);  // a load and a compute step per input row, then store
  EXPECT_EQ(t.steps[0].phase, TracePhase::Load);
  EXPECT_EQ(t.steps[1].phase, TracePhase::Compute);
  EXPECT_EQ(t.steps[0].working_threads.size(), 128u);
  EXPECT_FALSE(t.steps[1].has_shared);
  // Thread 1 (x0 = 4, y0 = 32) loads input row 30 as three float4 chunks: columns 0..11.
  std::vector<std::int64_t> addr;
  std::vector<int> access;
  for (const auto& o : t.steps[0].ops)
    if (o.thread == 1) {
      addr.push_back(o.address);
      access.push_back(o.access);
    }
  ASSERT_EQ(addr.size(), 12u);
  EXPECT_EQ(addr.front(), 30 * 260 + 0);
  EXPECT_EQ(addr.back(), 30 * 260 + 11);
  EXPECT_EQ(access.front(), 0);
  EXPECT_EQ(access.back(), 2);
  // Thread 0 (x0 = 0): its left chunk is outside the image, so only two chunks are loaded.
  std::size_t t0 = 0;
  for (const auto& o : t.steps[0].ops) t0 += o.thread == 0;
  EXPECT_EQ(t0, 8u);
  // The last block column (columns 256..259) has one working thread per warp row.
  Trace last;
  sim::simulate_conv(g, n, m, 2, &last);
  EXPECT_EQ(last.steps.back().working_threads, (std::vector<int>{0, 32, 64, 96}));
  // Tile map: no shared memory, every thread inside the image computes and writes.
  const auto roles = sim::conv_tile_map(g, 2, 0);
  EXPECT_TRUE(roles[0].computes);
  EXPECT_EQ(roles[0].load, sim::ConvLoad::None);
  EXPECT_EQ(roles[0].loads, 10 * 6);  // rows -2..9: 0..9 inside; columns 254..261: 254..259 inside
  EXPECT_FALSE(roles[1].computes);
}

TEST(SimConv, SlideExampleThroughTheTiledKernel) {
  // Slide "2D Convolution - Inside Cells": P[2][2] = 321, with 3x3 output tiles (7x7 blocks).
  const std::vector<float> n = {1, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 8, 3, 4, 5, 6, 7, 8, 9, 4, 5, 6, 7,
                                8, 5, 6, 5, 6, 7, 8, 5, 6, 7, 6, 7, 8, 9, 0, 1, 2, 7, 8, 9, 0, 1, 2, 3};
  const std::vector<float> m = {1, 2, 3, 2, 1, 2, 3, 4, 3, 2, 3, 4, 5, 4, 3, 2, 3, 4, 3, 2, 1, 2, 3, 2, 1};
  for (const char* id : k2D) {
    const ConvGeometry g = geometry(id, 5, fixed_tile(id) ? 0 : 3, 7, 7);
    const auto got = sim::simulate_conv(g, n, m, -1, nullptr);
    EXPECT_EQ(got[2 * 7 + 2], 321.0f) << id;  // small integers: exact in float
    EXPECT_EQ(got[0], 69.0f) << id;
  }
}

TEST(SimConv, TiledTileMapMatchesTheSlidesCounts) {
  // "8x8 Output Tile": TILE_SIZE 8, KERNEL_SIZE 5: a 12 x 12 block, all 144 threads load, 64 compute.
  const ConvGeometry g = geometry("stevens.conv2d_tiled", 5, 8, 100, 100);
  EXPECT_EQ(g.block_x, 12);
  const auto inner = sim::conv_tile_map(g, 3, 4);
  std::size_t computing = 0, loads = 0;
  for (const auto& r : inner) {
    computing += r.computes;
    loads += std::size_t(r.loads);
  }
  EXPECT_EQ(computing, 64u);
  EXPECT_EQ(loads, 144u);
  EXPECT_EQ(count_load(inner, sim::ConvLoad::Internal), 64u);
  EXPECT_EQ(count_load(inner, sim::ConvLoad::Halo), 80u);
  // The corner block: 2 rows and 2 columns of the halo are ghost cells; the loads are the analysis's.
  const auto corner = sim::conv_tile_map(g, 0, 0);
  loads = 0;
  for (const auto& r : corner) loads += std::size_t(r.loads);
  EXPECT_EQ(count_load(corner, sim::ConvLoad::Ghost), 144u - 100u);
  EXPECT_EQ(std::int64_t(loads), tile_traffic_2d(100, 100, 8, 5, 0, 0).loaded);
  EXPECT_THROW(sim::conv_tile_map(g, g.grid_x, 0), std::invalid_argument);
}

TEST(SimConv, OneDimensionalTiledLoadsAreTheAnalysis) {
  // Slide "Analysis - Small 1D Example": TILE_SIZE 8, Mask_Width 5: an internal block loads 12
  // elements, the first block 10 (two ghost cells on the left).
  const ConvGeometry g = geometry("stevens.conv1d_tiled", 5, 8, 64, 0);
  for (std::int64_t b : {0, 1, 7}) {
    const auto roles = sim::conv_tile_map(g, b, 0);
    std::int64_t loads = 0;
    for (const auto& r : roles) loads += r.loads;
    EXPECT_EQ(loads, tile_traffic_1d(64, 8, 5, b).loaded) << "block " << b;
  }
  const auto first = sim::conv_tile_map(g, 0, 0);
  EXPECT_EQ(count_load(first, sim::ConvLoad::Ghost), 2u);  // the left halo threads 6 and 7
  EXPECT_EQ(count_load(first, sim::ConvLoad::Halo), 2u);   // the right halo threads 0 and 1
}

TEST(SimConv, TracesOfTheTiledKernels) {
  const auto n = random_floats(100 * 100, 3), m = random_floats(25, 4);
  const ConvGeometry g = geometry("stevens.conv2d_tiled", 5, 12, 100, 100);  // 16 x 16 blocks
  Trace t;
  sim::simulate_conv(g, n, m, g.grid_x + 1, &t);  // block (1, 1): internal
  ASSERT_EQ(t.steps.size(), 3u);
  EXPECT_EQ(t.block_size, 256);
  EXPECT_EQ(t.steps[0].phase, TracePhase::Load);
  EXPECT_EQ(t.steps[0].working_threads.size(), 256u);
  EXPECT_EQ(t.steps[1].phase, TracePhase::Compute);
  EXPECT_EQ(t.steps[1].working_threads.size(), 144u);  // 12 x 12 of the 16 x 16 threads
  // Warps are two rows of 16 threads; the computing threads are the first 12 of each row, so every
  // warp of rows 0..11 diverges and the two warps of rows 12..15 are idle.
  const WarpActivity act = warp_activity(t, active_masks(t, t.steps[1]));
  EXPECT_EQ(act.divergent_warps, 6);
  EXPECT_EQ(act.idle_warps, 2);
  EXPECT_TRUE(t.steps[1].has_shared);
  // 1D tiled: two halo steps with n = 2 working threads each around the internal load.
  const ConvGeometry g1 = geometry("stevens.conv1d_tiled", 5, 64, 1000, 0);
  Trace t1;
  sim::simulate_conv(g1, random_floats(1000, 5), random_floats(5, 6), 3, &t1);
  ASSERT_EQ(t1.steps.size(), 5u);
  EXPECT_EQ(t1.steps[0].phase, TracePhase::Halo);
  EXPECT_EQ(t1.steps[0].working_threads, (std::vector<int>{62, 63}));
  EXPECT_EQ(t1.steps[2].working_threads, (std::vector<int>{0, 1}));
  EXPECT_EQ(t1.steps[3].working_threads.size(), 64u);
  EXPECT_THROW(sim::simulate_conv(g1, random_floats(1000, 5), random_floats(5, 6), g1.grid_x, &t1),
               std::invalid_argument);
  EXPECT_THROW(sim::simulate_conv(g1, random_floats(999, 5), random_floats(5, 6), -1, nullptr), std::invalid_argument);
}

TEST(SimConv, GeometryRules) {
  ConvGeometry g;
  EXPECT_EQ(conv_geometry(*find_variant("stevens.conv2d_tiled"), 5, 0, 0, 8192, 8192, g), "");
  EXPECT_EQ(g.tile_x, 28);
  EXPECT_EQ(g.block_x, 32);
  EXPECT_EQ(g.grid_x, 293);  // ceil(8192 / 28)
  EXPECT_NE(conv_geometry(*find_variant("stevens.conv2d_tiled"), 5, 29, 0, 100, 100, g).find("largest tile"),
            std::string::npos);
  EXPECT_NE(conv_geometry(*find_variant("stevens.conv2d_tiled"), 4, 0, 0, 100, 100, g).find("odd"), std::string::npos);
  EXPECT_NE(conv_geometry(*find_variant("stevens.conv1d_tiled"), 9, 3, 0, 100, 0, g).find("at least"),
            std::string::npos);
  EXPECT_NE(conv_geometry(*find_variant("stevens.conv1d_basic"), 5, 64, 128, 100, 0, g).find("must agree"),
            std::string::npos);
  EXPECT_NE(conv_geometry(*find_variant("stevens.conv2d_basic"), 5, 0, 256, 100, 100, g).find("not --block"),
            std::string::npos);
  EXPECT_EQ(conv_geometry(*find_variant("stevens.conv1d_basic"), 5, 64, 0, 1000, 0, g), "");
  EXPECT_EQ(g.capacity, 1024);
  EXPECT_NE(conv_geometry(*find_variant("stevens.conv2d_basic"), 5, 0, 0, 100, 0, g), "");  // 2D needs a height
  EXPECT_NE(conv_geometry(*find_variant("stevens.reduce_compact"), 5, 0, 0, 100, 0, g), "");
  EXPECT_EQ(conv_geometry(*find_variant("stevens.conv2d_tiled_coarse"), 5, 0, 0, 8192, 8192, g), "");
  EXPECT_EQ(g.grid_y, 128);
  EXPECT_EQ(g.describe(), "block 32x8, grid 256x128, output tile 32x64");
  EXPECT_EQ(conv_geometry(*find_variant("stevens.conv2d_register_tiled"), 5, 0, 0, 8192, 8192, g), "");
  EXPECT_EQ(g.describe(), "block 32x4, grid 64x256, output tile 128x32");
  EXPECT_EQ(g.coarsen, 32);
  EXPECT_EQ(conv_geometry(*find_variant("stevens.conv2d_register_tiled"), 15, 128, 0, 1, 1, g), "");
  EXPECT_NE(conv_geometry(*find_variant("stevens.conv2d_register_tiled"), 5, 32, 0, 100, 100, g).find("fixed 128 x 32"),
            std::string::npos);
}
