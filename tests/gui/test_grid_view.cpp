// The Grid view's data and view: per-warp cells equal the sim model's trace of each block, the
// background job gives the same cells, refusals say why, and the view zooms, pans and opens a block
// (ImGui frames without a renderer: the view then says it cannot draw, and still takes the mouse).
#include <gtest/gtest.h>
#include <imgui.h>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "app_state.hpp"
#include "grid_summary.hpp"
#include "headless_imgui.hpp"
#include "registry.hpp"
#include "trace/analyses.hpp"
#include "trace_source.hpp"
#include "views/grid_renderer.hpp"
#include "views/view_grid.hpp"
#include "widgets/theme.hpp"

namespace {

using namespace ws;
using namespace ws::ui;
using namespace ws::controller;

GridKey key_of(const std::string& variant, std::int64_t n, int block = 0) {
  GridKey k;
  k.variant = variant;
  k.n = n;
  k.block = block;
  return k;
}

/// Block b's trace of the whole launch, as the step-through views compute it after a click.
Trace block_trace(const VariantInfo& v, const GridKey& g, int b) {
  TraceKey k;
  k.variant = v.id;
  k.n = g.n;
  k.block = g.block;
  k.input = g.input;
  k.seed = g.seed;
  k.whole_launch = true;
  k.block_index = b;
  std::string why;
  std::optional<Trace> t = compute_trace(v, k, why);
  EXPECT_TRUE(t.has_value()) << why;
  return t ? *t : Trace{};
}

/// Every cell of `g` against the analyses of each block's own trace.
void expect_cells_match_traces(const VariantInfo& v, const GridKey& key, const GridSummary& g) {
  for (int b = 0; b < int(g.launch.grid); ++b) {
    const Trace t = block_trace(v, key, b);
    ASSERT_EQ(t.block_index, b);
    ASSERT_EQ(t.n, g.n);
    for (int s = 0; s < kGridStepStride; ++s) {
      if (s >= int(t.steps.size())) {
        for (int w = 0; w < g.warps_per_block; ++w)
          EXPECT_EQ(g.at(GridMetric::ActiveLanes, std::int64_t(b) * g.warps_per_block + w, s), kGridNoStep);
        continue;
      }
      const Step& st = t.steps[std::size_t(s)];
      const auto masks = active_masks(t, st);
      const auto ways = step_bank_conflicts(t, st);
      std::vector<int> sectors(std::size_t(g.warps_per_block), 0);
      for (const SectorRequest& r : global_load_sectors(t, st))
        sectors[std::size_t(r.warp)] = std::max(sectors[std::size_t(r.warp)], r.sectors);
      for (int w = 0; w < g.warps_per_block; ++w) {
        const std::int64_t gw = std::int64_t(b) * g.warps_per_block + w;
        EXPECT_EQ(g.at(GridMetric::ActiveLanes, gw, s), __builtin_popcount(masks[std::size_t(w)]))
            << "block " << b << " warp " << w << " step " << s;
        EXPECT_EQ(g.at(GridMetric::BankWays, gw, s), ways[std::size_t(w)])
            << "block " << b << " warp " << w << " step " << s;
        EXPECT_EQ(g.at(GridMetric::Sectors, gw, s), sectors[std::size_t(w)])
            << "block " << b << " warp " << w << " step " << s;
      }
    }
  }
}

TEST(GridSummary, CellsAreEachBlocksOwnTrace) {
  // A ragged tail (the last block half full) and a cascading kernel whose blocks differ by pass.
  for (const char* id : {"epita.reduce3", "harris.impl2", "epita.reduce6"}) {
    const VariantInfo* v = find_variant(id);
    ASSERT_NE(v, nullptr) << id;
    const GridKey key = key_of(id, 256 * 5 + 77, 256);
    GridSummary g;
    ASSERT_EQ(compute_grid(*v, key, g), "") << id;
    ASSERT_GE(g.launch.grid, 3) << id;
    EXPECT_EQ(g.blocks_done, g.launch.grid);
    EXPECT_EQ(g.warps_per_block, 8);
    expect_cells_match_traces(*v, key, g);
  }
}

TEST(GridSummary, SlideFactsInEveryBlock) {
  // reduce3 (sequential addressing), stride 128 at 256 threads: warps 0..3 fully active, 4..7 idle,
  // in every block. harris.impl2 at 1024 threads: the stride-16 step is a 32-way conflict in warp 0.
  const VariantInfo* r3 = find_variant("epita.reduce3");
  GridSummary g;
  ASSERT_EQ(compute_grid(*r3, key_of("epita.reduce3", 1 << 14, 256), g), "");
  ASSERT_EQ(g.launch.grid, 64);
  int stride128 = -1;
  for (int s = 0; s < int(g.step_labels.size()); ++s)
    if (g.step_labels[std::size_t(s)] == "tree: stride 128") stride128 = s;
  ASSERT_GE(stride128, 0);
  for (std::int64_t b = 0; b < g.launch.grid; ++b)
    for (int w = 0; w < 8; ++w) EXPECT_EQ(g.at(GridMetric::ActiveLanes, b * 8 + w, stride128), w < 4 ? 32 : 0);

  const VariantInfo* i2 = find_variant("harris.impl2");
  ASSERT_EQ(compute_grid(*i2, key_of("harris.impl2", 1 << 13, 1024), g), "");
  for (std::int64_t b = 0; b < g.launch.grid; ++b) {
    int worst = 0;
    for (int s = 0; s < g.steps; ++s) worst = std::max<int>(worst, g.at(GridMetric::BankWays, b * 32, s));
    EXPECT_EQ(worst, 32) << "block " << b;
  }
}

TEST(GridSummary, JobGivesTheSameCells) {
  const VariantInfo* v = find_variant("epita.reduce4");
  const GridKey key = key_of("epita.reduce4", 100000);
  GridSummary direct;
  ASSERT_EQ(compute_grid(*v, key, direct), "");
  GridJob job;
  job.start(*v, key);
  while (job.running()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  GridSummary taken;
  std::uint64_t version = 0;
  ASSERT_TRUE(job.take(taken, version));
  EXPECT_EQ(job.error(), "");
  EXPECT_EQ(taken.blocks_done, direct.launch.grid);
  for (int m = 0; m < int(GridMetric::Count); ++m) EXPECT_EQ(taken.values[m], direct.values[m]);
  EXPECT_EQ(taken.step_labels, direct.step_labels);
  EXPECT_FALSE(job.take(taken, version));  // nothing new
}

TEST(GridSummary, RefusalsSayWhy) {
  GridSummary g;
  // 2^17 blocks of one warp: past the 2^16 warps the view takes.
  std::string why = compute_grid(*find_variant("epita.reduce3"), key_of("epita.reduce3", 1 << 22, 32), g);
  EXPECT_NE(why.find("131,072 warps"), std::string::npos) << why;
  EXPECT_NE(why.find("65,536"), std::string::npos) << why;
  why = compute_grid(*find_variant("stevens.scan_sequential"), key_of("stevens.scan_sequential", 1000), g);
  EXPECT_NE(why.find("runs on the CPU"), std::string::npos) << why;
  why = compute_grid(*find_variant("stevens.conv1d_basic"), key_of("stevens.conv1d_basic", 1000), g);
  EXPECT_NE(why.find("Convolution tab"), std::string::npos) << why;
  GridKey file = key_of("epita.reduce3", 1000);
  file.input = "/nonexistent/numbers.txt";
  why = compute_grid(*find_variant("epita.reduce3"), file, g);
  EXPECT_NE(why.find("cannot compute the grid"), std::string::npos) << why;
  EXPECT_THROW(init_grid_summary(g, "x", 1, LaunchConfig{32, (1 << 16) + 1}), std::length_error);
}

TEST(GridColors, LegendMatchesTheShadersScale) {
  // Lanes: linear 0..32; ways and sectors: log2 1..32, so 1 is the first stop and 32 the last.
  const GridColorMap& lanes = grid_color_map(GridMetric::ActiveLanes);
  EXPECT_FLOAT_EQ(grid_color(GridMetric::ActiveLanes, 0).x, lanes.rgb[0][0]);
  EXPECT_FLOAT_EQ(grid_color(GridMetric::ActiveLanes, 32).y, lanes.rgb[kGridColorStops - 1][1]);
  EXPECT_FLOAT_EQ(grid_color(GridMetric::ActiveLanes, 16).z, lanes.rgb[2][2]);
  const GridColorMap& cost = grid_color_map(GridMetric::BankWays);
  EXPECT_FLOAT_EQ(grid_color(GridMetric::BankWays, 1).x, cost.rgb[0][0]);
  EXPECT_FLOAT_EQ(grid_color(GridMetric::BankWays, 32).x, cost.rgb[kGridColorStops - 1][0]);
  // Sectors: 4 (a whole warp's coalesced 128 bytes) and fewer are the best colour; 8 is a third of the way.
  EXPECT_FLOAT_EQ(grid_color(GridMetric::Sectors, 2).x, cost.rgb[0][0]);
  EXPECT_FLOAT_EQ(grid_color(GridMetric::Sectors, 4).x, cost.rgb[0][0]);
  EXPECT_NEAR(grid_color(GridMetric::Sectors, 8).y, cost.rgb[1][1] + (cost.rgb[2][1] - cost.rgb[1][1]) * (4.f / 3 - 1),
              1e-5);
}

/// ImGui frames of the Grid view alone, in a window of known place and size, without a renderer.
class GridFrames : public ::testing::Test {
 protected:
  void SetUp() override { test::start_headless_imgui(1600, 900); }
  void TearDown() override { ImGui::DestroyContext(); }
  void frame(AppState& s, GridView& view) {
    ImGui::GetIO().DeltaTime = 1.f / 60.f;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1600, 900));
    ImGui::Begin("grid test", nullptr, ImGuiWindowFlags_NoDecoration);
    controller::ViewActions act(s);
    view.draw(controller::ViewContext::of(s), act);
    ImGui::End();
    ImGui::Render();
  }
};

TEST_F(GridFrames, WheelZoomsDragPansClickOpensTheBlock) {
  ASSERT_EQ(grid_renderer(), nullptr);  // no GL here: the view says so and still handles the mouse
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.params.set_n(1 << 14);  // 64 blocks of 256 threads: 512 warps
  GridView view;
  for (int i = 0; i < 400 && !s.grid.complete(); ++i) {
    frame(s, view);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(s.grid.complete()) << s.grid.error;
  EXPECT_EQ(s.grid.data.warps(), 512);
  frame(s, view);
  EXPECT_DOUBLE_EQ(s.grid.warp0, 0);
  EXPECT_DOUBLE_EQ(s.grid.warp1, 512);

  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(900, 450);  // inside the canvas
  frame(s, view);
  for (int i = 0; i < 30; ++i) {
    io.MouseWheel = 1;
    frame(s, view);
  }
  io.MouseWheel = 0;
  const double span = s.grid.warp1 - s.grid.warp0;
  EXPECT_DOUBLE_EQ(span, 1.0);  // zoomed in to one warp
  // Drag down by a fifth of the canvas: the window moves up by about a fifth of a warp.
  const double before = s.grid.warp0;
  io.MouseDown[0] = true;
  frame(s, view);
  io.MousePos = ImVec2(900, 550);
  frame(s, view);
  frame(s, view);
  io.MouseDown[0] = false;
  frame(s, view);
  EXPECT_LT(s.grid.warp0, before);
  EXPECT_EQ(s.view, "results");  // a drag is not a click
  // A click opens the warp under the pointer in the Warps view: that block of the whole launch.
  const std::int64_t warp = std::int64_t(s.grid.warp0 + 0.5);
  io.MousePos = ImVec2(900, 450);
  frame(s, view);
  io.MouseDown[0] = true;
  frame(s, view);
  io.MouseDown[0] = false;
  frame(s, view);
  EXPECT_EQ(s.view, "warps");
  EXPECT_TRUE(s.trace.whole_launch);
  EXPECT_EQ(s.trace.block_index, int(warp / 8));
  EXPECT_EQ(s.trace.bank_warp, int(warp % 8));
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
  EXPECT_EQ(s.trace.trace->block_index, int(warp / 8));
  EXPECT_EQ(s.trace.trace->n, 1 << 14);
  EXPECT_EQ(s.trace.trace->launch.grid, 64);
  // ] walks on through the whole launch, up to its last block.
  s.trace.block_index = 62;
  s.refresh_trace();
  EXPECT_TRUE(s.trace.switch_block(+1, s.params.n()));
  EXPECT_EQ(s.trace.block_index, 63);
  s.refresh_trace();
  EXPECT_FALSE(s.trace.switch_block(+1, s.params.n()));
}

TEST_F(GridFrames, RefusalIsShownNotThrown) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_TRUE(s.select_variant("stevens.scan_sequential"));
  GridView view;
  for (int i = 0; i < 100 && s.grid.error.empty(); ++i) {
    frame(s, view);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_NE(s.grid.error.find("runs on the CPU"), std::string::npos) << s.grid.error;
}

TEST_F(GridFrames, NaNWarpBoundsShowEveryWarpInsteadOfLooping) {
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.params.set_n(1 << 12);
  s.grid.initial_warp0 = std::nan(""), s.grid.initial_warp1 = std::nan("");
  GridView view;
  for (int i = 0; i < 300 && !s.grid.complete(); ++i) {
    frame(s, view);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(s.grid.complete()) << s.grid.error;
  for (int i = 0; i < 3; ++i) frame(s, view);  // NaN bounds stayed NaN, or looped for ever in nice_at_least
  EXPECT_TRUE(std::isfinite(s.grid.warp0) && std::isfinite(s.grid.warp1));
}

TEST(GridSummary, AHugeNIsRefusedBeforeItsInputIsMade) {
  // n = 2^30 made a 4 GiB input before the warp count refused it (std::bad_alloc under a limit). In a
  // child process with 512 MiB of address space to spare, the refusal must come without allocating.
  const VariantInfo* v = find_variant("epita.reduce3");
  ASSERT_NE(v, nullptr);
  EXPECT_EXIT(
      {
        std::ifstream statm("/proc/self/statm");
        long pages = 0;
        statm >> pages;
        const rlim_t most = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(512) << 20);
        rlimit lim;
        lim.rlim_cur = lim.rlim_max = most;
        setrlimit(RLIMIT_AS, &lim);
        GridSummary g;
        const std::string why = compute_grid(*v, key_of("epita.reduce3", std::int64_t(1) << 30), g);
        std::exit(why.find("Grid view") != std::string::npos && g.values[0].empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
