// Presentation layout, checked from what the views laid out (layout_probe.hpp) rather than from
// pixels: at 1920x1080 with --font-scale 2 --high-contrast --focus, the Warps grid, the Tree of a
// 32-thread block with its thread ids, the Banks view of one warp and a Compare table of a whole
// lesson each lie inside their view (no scrolling), and no text is smaller than 28 px. ImGui frames
// are built without a renderer, so this runs anywhere.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "app_state.hpp"
#include "layout_probe.hpp"
#include "main_window.hpp"
#include "theme.hpp"

namespace ws::ui {
namespace {

constexpr float kMinPx = 28.f;  // the "smallest text >= 28 px" at font scale 2

class Presentation : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1920, 1080);
    theme().apply(2.f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    s.load(std::string(WS_GUI_ASSETS) + "/lessons");
    s.device.opened = true;  // no device: simulation and replay
    s.perf.present.high_contrast = true;
    s.perf.present.focus = true;
  }
  void TearDown() override {
    SetHighContrast(false);
    ImGui::DestroyContext();
  }
  /// Draws `view` for a few frames (tabs settle in the first) and returns the last frame's probe.
  const LayoutProbe& show(const std::string& view) {
    s.view = view;
    for (int i = 0; i < 4; ++i) {
      ImGui::GetIO().DeltaTime = 1.f / 60.f;
      ImGui::NewFrame();
      win.draw(s, ImGui::GetIO().DisplaySize);
      ImGui::Render();
    }
    return layout_probe();
  }
  static void expect_fits(const LayoutProbe& p, const std::string& picture) {
    ASSERT_TRUE(p.pictures.count(picture)) << "the view drew no '" << picture << "'";
    const ProbeRect& r = p.pictures.at(picture);
    EXPECT_TRUE(p.region.contains(r)) << picture << " [" << r.x0 << ", " << r.y0 << " .. " << r.x1 << ", " << r.y1
                                      << "] outside the view [" << p.region.x0 << ", " << p.region.y0 << " .. "
                                      << p.region.x1 << ", " << p.region.y1 << "]";
    EXPECT_GT(r.width(), 0.5f * p.region.width()) << picture << " does not fill the view";
  }
  AppState s;
  MainWindow win;
};

TEST_F(Presentation, WarpsGridOfABlockFitsWithReadableLabels) {
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.refresh_trace();
  s.trace.step = 4;
  const LayoutProbe& p = show("warps");
  EXPECT_EQ(p.view, "warps");
  expect_fits(p, "warp grid");
  EXPECT_GT(p.pictures.at("warp grid").height(), 0.4f * p.region.height());
  EXPECT_EQ(p.counts.at("warp labels every"), 1);  // 8 warps: every one named
  EXPECT_GE(p.min_text_px, kMinPx);
}

TEST_F(Presentation, TreeOf32ThreadsFitsWithValuesAndThreadIds) {
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.params.block = 32;
  s.params.input = 2;  // sequence
  s.refresh_trace();
  s.trace.step = 2;
  const LayoutProbe& p = show("tree");
  expect_fits(p, "tree");
  EXPECT_EQ(p.counts.at("tree leaves"), 32);
  EXPECT_EQ(p.counts.at("tree thread ids"), 16 + 8 + 4 + 2 + 1);  // every combining node names its thread
  EXPECT_EQ(p.counts.at("tree value labels"), 32 + 16 + 8);       // leaves and the rows reached so far
  EXPECT_EQ(p.counts.at("tree hidden nodes"), 4 + 2 + 1);
  EXPECT_GE(p.min_text_px, kMinPx);
}

TEST_F(Presentation, BanksOfOneWarpFitEveryAccessOfTheStep) {
  ASSERT_TRUE(s.select_variant("harris.impl2"));
  s.refresh_trace();
  s.trace.step = 2;  // stride 2: two loads and a store, each 4-way
  const LayoutProbe& p = show("banks");
  expect_fits(p, "banks");
  EXPECT_EQ(p.counts.at("bank accesses"), 3);
  EXPECT_GE(p.min_text_px, kMinPx);
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

TEST_F(Presentation, CompareTableOfAWholeLessonFits) {
  ASSERT_EQ(s.open_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h200.json"), "");
  for (const char* lesson : {"epita", "harris", "amp", "cs121", "stevens"}) {
    SCOPED_TRACE(lesson);
    ASSERT_TRUE(s.select_lesson(std::string(lesson)));
    const LayoutProbe& p = show("compare");
    const int rows = p.counts.at("compare rows");
    EXPECT_EQ(rows, int(s.lesson()->steps.size()));
    EXPECT_EQ(p.counts.at("compare rows with every column"), rows);  // no column scrolled out of view
    expect_fits(p, "compare table");
    EXPECT_GE(p.min_text_px, kMinPx);
  }
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

TEST_F(Presentation, SourceScrollsTheStepsHighlightedLineIntoView) {
  ASSERT_TRUE(s.select_variant("harris.impl2"));
  s.refresh_trace();
  s.trace.step = 3;  // a tree step: the loop lines, far below the variant's comment header
  const LayoutProbe& p = show("source");
  ASSERT_TRUE(p.pictures.count("source highlight")) << "no highlighted line in view";
  EXPECT_TRUE(p.region.contains(p.pictures.at("source highlight")));
  EXPECT_GE(p.min_text_px, kMinPx);
}

TEST_F(Presentation, TreeHidesTheValuesOfStepsNotReachedUntilAsked) {
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.params.block = 32;
  s.params.input = 1;  // ones: the root is 32
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace);
  s.trace.step = 0;
  const LayoutProbe& p = show("tree");
  EXPECT_EQ(p.counts.at("tree value labels"), 32);  // the leaves only
  EXPECT_EQ(p.counts.at("tree hidden nodes"), 16 + 8 + 4 + 2 + 1);
  s.trace.show_future_values = true;
  const LayoutProbe& q = show("tree");
  EXPECT_EQ(q.counts.at("tree value labels"), 32 + 31);
  EXPECT_EQ(q.counts.at("tree hidden nodes"), 0);
}

}  // namespace
}  // namespace ws::ui
