// Presentation layout, checked from what the views laid out (layout_probe.hpp) rather than from
// pixels: at 1920x1080 with --font-scale 2 --high-contrast --focus, the Warps grid, the Tree of a
// 32-thread block with its thread ids, the Banks view of one warp, a Compare table of a whole lesson,
// the race timeline, the scan ladders and two trees side by side each lie inside their view (no
// scrolling), and no text is smaller than 28 px. ImGui frames are built without a renderer, so this
// runs anywhere.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app_state.hpp"
#include "headless_imgui.hpp"
#include "kernel_sources.hpp"
#include "main_window.hpp"
#include "registry.hpp"
#include "roofline.hpp"
#include "sanitizer.hpp"
#include "views/race_timeline.hpp"
#include "views/scan_graph.hpp"
#include "views/view_pair.hpp"
#include "views/view_roofline.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::AppState;
using controller::chosen_variants;
using controller::compute_trace;
using controller::find_section;
using controller::LessonEntry;
using controller::Presentation;
using controller::SourceSection;
using controller::TraceKey;
using controller::tree_layout;
using controller::TreeLayout;

namespace {

constexpr float kMinPx = 28.f;  // the issue's "smallest text >= 28 px" at font scale 2

class Presentation : public ::testing::Test {
 protected:
  void SetUp() override {
    test::start_headless_imgui(1920, 1080, 2.f);
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
  const LayoutProbe& show(const std::string& view, int frames = 4) {
    s.view = view;
    for (int i = 0; i < frames; ++i) {
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

// 32 warps of a 1024-thread block: the rows flatten, but the grid still spans the view's width.
TEST_F(Presentation, WarpsGridOf32WarpsUsesTheWidth) {
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.params.block = 1024;
  s.params.set_n(1024);
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace) << s.trace.why_none;
  s.trace.step = 5;
  const LayoutProbe& p = show("warps");
  expect_fits(p, "warp grid");
  EXPECT_GT(p.pictures.at("warp grid").width(), 0.95f * p.region.width());
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

// A view's PNG button in the window: the file is the view alone over the whole window (as --export-view
// draws it), not the centre panel with the tab bar, parameters and the view's own buttons.
TEST_F(Presentation, APngButtonsPictureIsTheViewAloneOverTheWholeWindow) {
  s.perf.present.focus = false;
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.refresh_trace();
  show("tree");
  EXPECT_GT(s.perf.png_rect[0], 100.f);       // the window whole: the centre panel, right of the lesson browser
  s.perf.png_request = "warpscope-tree.png";  // what the button sets
  show("tree", 1);
  EXPECT_FALSE(s.perf.png_ready) << "the first frame of the view alone settles its layout; it is not saved";
  EXPECT_TRUE(Handout());
  const LayoutProbe& p = show("tree", 1);
  EXPECT_TRUE(s.perf.png_ready);
  EXPECT_EQ(s.perf.png_rect[0], 0.f);
  EXPECT_EQ(s.perf.png_rect[1], 0.f);
  EXPECT_EQ(s.perf.png_rect[2], 1920.f);
  EXPECT_EQ(s.perf.png_rect[3], 1080.f);
  EXPECT_LT(p.region.x0, 30.f);  // the view itself starts at the window's left edge
  EXPECT_LT(p.region.y0, 30.f);
  expect_fits(p, "tree");
  s.perf.png_request.clear();  // saved (handle_png_request): the window is drawn whole again
  show("tree", 1);
  EXPECT_FALSE(Handout());
  EXPECT_FALSE(s.perf.png_ready);
  EXPECT_GT(s.perf.png_rect[0], 100.f);
}

// The window's Export steps button: every step picture is the view alone over the whole window, as
// --export-steps draws it, from the frame after the request (the exporter's first) to its end.
TEST_F(Presentation, TheExportStepsButtonsPicturesAreTheViewAlone) {
  s.perf.present.focus = false;
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.refresh_trace();
  show("tree");
  EXPECT_FALSE(Handout());
  s.perf.steps_request = "warpscope-steps-epita.reduce3";  // what the button sets
  show("tree", 1);
  EXPECT_TRUE(Handout()) << "the frame the exporter starts after settles the view-alone layout";
  s.perf.steps_request.clear(), s.perf.steps_busy = true;  // StepExporter::after_frame took the request
  const LayoutProbe& p = show("tree", 1);
  EXPECT_TRUE(Handout());
  EXPECT_EQ(s.perf.png_rect[0], 0.f);  // the rectangle the exporter reads
  EXPECT_EQ(s.perf.png_rect[2], 1920.f);
  EXPECT_EQ(s.perf.png_rect[3], 1080.f);
  EXPECT_LT(p.region.x0, 30.f);
  s.perf.steps_busy = false;  // the last step saved
  show("tree", 1);
  EXPECT_FALSE(Handout());
  EXPECT_GT(s.perf.png_rect[0], 100.f);
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

// The default report holds CUPTI metrics for every variant: with its measured columns the EPITA table
// is wider than 1920 px even at the smallest text (0.7 of the body, 28 px). It scrolls sideways with
// its variant column frozen, and its scroll bar is there in the third frame, where a --screenshot
// is taken (ImGui's own auto-fit would show it only from the fifth).
TEST_F(Presentation, CompareTableWiderThanTheViewScrollsSideways) {
  ASSERT_EQ(s.open_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h100-lessons.json"), "");
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  const LayoutProbe& p = show("compare", 3);
  const int rows = p.counts.at("compare rows");
  ASSERT_GT(p.counts.at("compare scroll max x"), 0) << "the table is clipped: no horizontal scroll";
  EXPECT_EQ(p.counts.at("compare scroll x"), 0);
  EXPECT_EQ(p.counts.at("compare variant column shown"), 1);
  EXPECT_EQ(p.counts.at("compare rows with every column"), 0);  // the last column waits to the right
  expect_fits(p, "compare table view");
  EXPECT_GE(p.min_text_px, kMinPx);
  // Scrolled to its right end: the last column is in view and the variant column still is.
  ImGuiWindow* table = nullptr;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (std::string(w->Name).find("/compare_table_") != std::string::npos && w->ScrollMax.x > 0) table = w;
  ASSERT_NE(table, nullptr);
  ImGui::SetScrollX(table, table->ScrollMax.x);
  const LayoutProbe& q = show("compare");
  EXPECT_EQ(q.counts.at("compare scroll x"), q.counts.at("compare scroll max x"));
  EXPECT_EQ(q.counts.at("compare variant column shown"), 1);
  EXPECT_EQ(q.counts.at("compare rows with every column"), rows);
}

// The 1D convolution's input and output signals: each title sits above its plot, never on the waveform.
TEST_F(Presentation, ConvolutionSignalTitlesSitAboveTheirPlots) {
  ASSERT_TRUE(s.select_variant("stevens.conv1d_tiled"));
  const LayoutProbe& p = show("conv");
  for (const char* which : {"conv input", "conv output"}) {
    SCOPED_TRACE(which);
    const std::string name(which);
    ASSERT_TRUE(p.pictures.count(name + " title") && p.pictures.count(name + " plot"));
    const ProbeRect& title = p.pictures.at(name + " title");
    const ProbeRect& plot = p.pictures.at(name + " plot");
    EXPECT_LE(title.y1, plot.y0);
    EXPECT_GT(plot.height(), 0.f);
    EXPECT_LE(title.x1, plot.x1 + 1.f);  // the title keeps to its plot's width
  }
  EXPECT_LE(p.pictures.at("conv input plot").x1, p.pictures.at("conv output plot").x0);
  // Side by side on one line: the titles and the plots at the same heights.
  EXPECT_EQ(p.pictures.at("conv input title").y0, p.pictures.at("conv output title").y0);
  EXPECT_EQ(p.pictures.at("conv input plot").y0, p.pictures.at("conv output plot").y0);
  EXPECT_GE(p.min_text_px, kMinPx);
}

TEST_F(Presentation, ResultsShowTheSanitizerVerdictInsideTheCheckColumn) {
  // The fixture's verdicts come from scripts/sanitizer_parse.py and merge_reports.py --sanitizer: the
  // loader takes what the scripts write.
  ASSERT_EQ(s.open_report(std::string(WS_GUI_TEST_DIR) + "/fixtures/report_sanitizer.json"), "");
  int with_verdict = 0;
  for (const RunResult& run : s.replay->runs) with_verdict += run.sanitizer.present;
  ASSERT_EQ(with_verdict, 5);
  const RunResult& nosync = s.replay->runs[1];
  ASSERT_EQ(nosync.variant, "epita.reduce1_nosync");
  EXPECT_EQ(format_sanitizer(nosync.sanitizer, nosync.racy),
            "racecheck: 18 shared-memory hazards (RAW 2, WAW 1) \u00b7 memcheck, synccheck clean");
  EXPECT_EQ(format_sanitizer(s.replay->runs[0].sanitizer, s.replay->runs[0].racy),
            "sanitizer: nothing found (racecheck sees shared memory only)");  // epita.race: a global race
  EXPECT_EQ(format_sanitizer(s.replay->runs[2].sanitizer, s.replay->runs[2].racy), "sanitizer: clean");
  const LayoutProbe& p = show("results");
  EXPECT_EQ(p.counts.at("results sanitizer verdicts"), with_verdict);  // every run's verdict drawn
  ASSERT_TRUE(p.pictures.count("results sanitizer verdicts"));
  const ProbeRect& r = p.pictures.at("results sanitizer verdicts");
  // Wrapped inside the check column: nothing runs past the view's right edge at font scale 2.
  EXPECT_LE(r.x1, p.region.x1 + 0.5f) << r.x1 << " > " << p.region.x1;
  EXPECT_GT(r.x0, p.region.x0 + 0.5f * p.region.width());  // in the check column, the last one
}

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

TEST_F(Presentation, KernelEditorOpensReadableAndMarksTheLineOfACompileError) {
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.edit.request_open = true;
  show("source");
  ASSERT_TRUE(s.edit.is_open());
  EXPECT_NE(s.edit.text.find("__device__ void reduce3"), std::string::npos);
  EXPECT_GE(layout_probe().min_text_px, kMinPx);
  EXPECT_FALSE(layout_probe().pictures.count("editor error mark"));
  // A run whose compile failed on the worker: its message's line gets the margin's error mark.
  s.edit.run_queued(s.session.runs);
  RunResult r;
  r.variant = s.edit.run_label();
  r.status = RunStatus::Error;
  r.message = s.edit.file() + ":25: error: expected a \";\"";
  s.session.runs.push_back(r);
  const LayoutProbe& p = show("source");
  EXPECT_FALSE(s.edit.running());
  ASSERT_EQ(s.edit.diagnostics().size(), 1u);
  ASSERT_TRUE(p.pictures.count("editor error mark"));
  EXPECT_TRUE(p.region.contains(p.pictures.at("editor error mark")));
  EXPECT_GE(p.min_text_px, kMinPx);
  // A run of the text with per-line metrics: the counters join the margin.
  RunResult m;
  m.variant = s.edit.run_label();
  m.status = RunStatus::Ok;
  m.metrics.collected = true;
  m.metrics.lines.push_back(LineMetrics{s.edit.file(), 20, 4096, 4096 * 32});
  s.session.runs.push_back(m);
  EXPECT_TRUE(show("source").pictures.count("editor line counters"));
  // Another variant closes the editor; the slide's source shows again.
  ASSERT_TRUE(s.select_variant("epita.reduce4"));
  show("source");
  EXPECT_FALSE(s.edit.is_open());
}

// Per-line memory counters of a run: the editor's margin writes the bank-conflict ways ("2.0 w/i") on the
// shared store's line and the sectors per request ("4.0 s/r") on the global load's, inside the margin on their
// own rows; the Source view of a variant gets them as a "memory" column.
TEST_F(Presentation, LineMemoryCountersShowInTheEditorMarginAndTheSourceColumns) {
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.edit.request_open = true;
  show("source");
  ASSERT_TRUE(s.edit.is_open());
  RunResult m;
  m.variant = s.edit.run_label();
  m.status = RunStatus::Ok;
  m.metrics.asked = "lines";
  m.metrics.collected = true;
  // Lines of the kernel, which the editor opens in view.
  const std::size_t at = s.edit.text.find("__device__ void reduce3");
  ASSERT_NE(at, std::string::npos);
  const int k = int(std::count(s.edit.text.begin(), s.edit.text.begin() + long(at), '\n')) + 1;
  LineMetrics store{s.edit.file(), k + 1, 8192, 8192 * 32};
  store.shared_stores = 8192;
  store.shared_wavefronts = 2 * 8192;
  LineMetrics load{s.edit.file(), k + 2, 8192, 8192 * 32};
  load.global_loads = 8192;
  load.global_sectors = 4 * 8192;
  const LineMetrics plain{s.edit.file(), k + 3, 100, 3200};  // no memory instruction: no label
  m.metrics.lines = {store, load, plain};
  s.session.runs.push_back(m);
  const LayoutProbe& p = show("source");
  ASSERT_TRUE(p.pictures.count("editor line counters"));
  const ProbeRect& margin = p.pictures.at("editor line counters");
  const ProbeLabel* ways = nullptr;
  const ProbeLabel* sectors = nullptr;
  for (const ProbeLabel& l : p.labels) {
    if (l.text == "2.0 w/i") ways = &l;
    if (l.text == "4.0 s/r") sectors = &l;
  }
  ASSERT_NE(ways, nullptr);
  ASSERT_NE(sectors, nullptr);
  EXPECT_TRUE(margin.contains(ways->box)) << ways->box.x0 << ".." << ways->box.x1;
  EXPECT_TRUE(margin.contains(sectors->box));
  EXPECT_NEAR(sectors->box.y0 - ways->box.y0, ways->box.height(), 1.f);  // the next line's row
  EXPECT_GE(p.min_text_px, kMinPx);

  // The Source view of a variant with such a run: a memory column, a value on each line in view.
  const SourceSection sec = find_section("epita.reduce4");
  ASSERT_FALSE(sec.line_numbers.empty());
  ASSERT_TRUE(s.select_variant("epita.reduce4"));
  show("source");
  ASSERT_FALSE(s.edit.is_open());
  RunResult v;
  v.variant = "epita.reduce4";
  v.status = RunStatus::Ok;
  v.metrics.asked = "lines";
  v.metrics.collected = true;
  // Every line of the section carries a 2-way store (the view scrolls to the step's lines: some are in view).
  for (int line : sec.line_numbers) {
    store.file = sec.file;
    store.line = line;
    v.metrics.lines.push_back(store);
  }
  s.session.runs.push_back(v);
  const LayoutProbe& q = show("source");
  ASSERT_TRUE(q.counts.count("source memory counters"));
  EXPECT_GT(q.counts.at("source memory counters"), 5);
  EXPECT_LE(q.counts.at("source memory counters"), int(sec.line_numbers.size()));
}

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

// The slides' pictures (Race, Ladder, Side by side): each fits its view at presentation settings, and
// what it draws is what the model says (rows, arrows, lost updates), not a number written here.
namespace ws::ui {
namespace {

TEST_F(Presentation, RaceTimelineOf16ThreadsFitsAndMarksEveryLostUpdate) {
  ASSERT_TRUE(s.select_variant("epita.race"));
  s.params.block = 16;
  s.params.set_n(16);  // one block; the racy variants start on ones
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace) << s.trace.why_none;
  const RaceTimeline T = race_timeline(*s.trace.trace);
  ASSERT_EQ(T.note, "");
  s.trace.step = s.trace.steps() - 1;
  const LayoutProbe& p = show("race");
  expect_fits(p, "race timeline");
  EXPECT_GT(p.pictures.at("race timeline").height(), 0.5f * p.region.height());
  EXPECT_EQ(p.counts.at("race rows"), T.threads);
  EXPECT_EQ(p.counts.at("race rows"), 16);
  EXPECT_EQ(p.counts.at("race columns"), T.columns);
  EXPECT_EQ(p.counts.at("race lost marks"), T.lost_updates);
  EXPECT_EQ(p.counts.at("race value labels"), int(T.events.size()));  // every value readable at 28 px
  EXPECT_GE(p.min_text_px, kMinPx);
  // Before the racy step: its reads, adds and writes show their shape only.
  s.trace.step = 0;
  const LayoutProbe& q = show("race");
  int later = 0;
  for (const RaceEvent& e : T.events) later += e.step > 0;
  EXPECT_EQ(q.counts.at("race hidden events"), later);
  EXPECT_EQ(q.counts.at("race lost marks"), 0);
}

/// Rows and arrows the ladder of the current trace must draw, from the model.
void expect_ladder_matches_model(const LayoutProbe& p, const Trace& t, std::int64_t elements) {
  const std::vector<LadderRow> rows = scan_ladder(scan_graph(t, elements), 32);
  int arrows = 0;
  for (const LadderRow& r : rows) arrows += int(r.edges.size());
  EXPECT_EQ(p.counts.at("ladder rows"), int(rows.size()));
  EXPECT_EQ(p.counts.at("ladder arrows"), arrows);
  EXPECT_EQ(p.counts.at("ladder slots"), int(elements));
}

TEST_F(Presentation, KoggeStoneLadderOf16ElementsFitsWithEveryValue) {
  ASSERT_TRUE(s.select_variant("stevens.kogge_stone"));
  s.params.block = 16;
  s.params.set_n(16);
  s.params.input = 2;  // sequence
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace) << s.trace.why_none;
  s.trace.step = s.trace.steps() - 1;
  const LayoutProbe& p = show("ladder");
  expect_fits(p, "scan ladder");
  expect_ladder_matches_model(p, *s.trace.trace, 16);
  EXPECT_EQ(p.counts.at("ladder rows"), 1 + 4);  // input, strides 1 2 4 8
  EXPECT_EQ(p.counts.at("ladder value labels"), 5 * 16);
  EXPECT_GE(p.min_text_px, kMinPx);
  s.trace.step = 1;  // stride 1: the rows below show their shape only
  const LayoutProbe& q = show("ladder");
  EXPECT_EQ(q.counts.at("ladder hidden rows"), 3);
  EXPECT_EQ(q.counts.at("ladder value labels"), 2 * 16);
}

TEST_F(Presentation, BrentKungLadderOf16ElementsFitsBothTrees) {
  ASSERT_TRUE(s.select_variant("stevens.brent_kung"));
  s.params.block = 16;
  s.params.set_n(16);
  s.params.input = 2;
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace) << s.trace.why_none;
  s.trace.step = s.trace.steps() - 1;
  const LayoutProbe& p = show("ladder");
  expect_fits(p, "scan ladder");
  expect_ladder_matches_model(p, *s.trace.trace, 16);
  EXPECT_EQ(p.counts.at("ladder rows"), 1 + 4 + 3);  // input, up-sweep 1 2 4 8, down-sweep 4 2 1
  EXPECT_EQ(p.counts.at("ladder value labels"), 8 * 16);
  EXPECT_GE(p.min_text_px, kMinPx);
}

TEST_F(Presentation, SideBySideTreesOfReduce2AndReduce3FitAtOneStep) {
  ASSERT_TRUE(s.select_variant("epita.reduce2"));
  s.params.block = 16;
  s.params.set_n(16);
  s.params.input = 2;
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace) << s.trace.why_none;
  s.trace.step = 2;
  EXPECT_EQ(PairView().second_id(controller::ViewContext::of(s)), "epita.reduce3");  // the lesson's next variant
  TraceKey k = s.trace_key();
  k.variant = "epita.reduce3";
  std::string why;
  const std::optional<Trace> right = compute_trace(*find_variant("epita.reduce3"), k, why);
  ASSERT_TRUE(right) << why;
  const TreeLayout L = tree_layout(*s.trace.trace), R = tree_layout(*right);
  const LayoutProbe& p = show("pair");
  expect_fits(p, "tree");
  for (const char* half : {"pair left", "pair right"}) {
    ASSERT_TRUE(p.pictures.count(half)) << half;
    EXPECT_TRUE(p.region.contains(p.pictures.at(half))) << half;
    EXPECT_GT(p.pictures.at(half).width(), 0.4f * p.region.width()) << half;
  }
  EXPECT_LT(p.pictures.at("pair left").x1, p.pictures.at("pair right").x0);
  EXPECT_EQ(p.counts.at("left tree leaves"), L.slots);
  EXPECT_EQ(p.counts.at("right tree leaves"), R.slots);
  EXPECT_EQ(p.counts.at("left tree thread ids"), int(L.nodes.size()) - L.slots);
  EXPECT_EQ(p.counts.at("right tree thread ids"), int(R.nodes.size()) - R.slots);
  EXPECT_GE(p.min_text_px, kMinPx);
}

TEST_F(Presentation, SideBySideWarpsAndBanksFit) {
  ASSERT_TRUE(s.select_variant("harris.impl2"));
  s.refresh_trace();
  s.trace.step = 2;
  auto* pair = dynamic_cast<ViewPanelOf<PairView>*>(win.panel("pair"));
  ASSERT_NE(pair, nullptr);
  pair->view.set_picture(1);  // the Warps button
  const LayoutProbe& w = show("pair");
  expect_fits(w, "warp grid");
  EXPECT_TRUE(w.pictures.count("pair left") && w.pictures.count("pair right"));
  EXPECT_GE(w.min_text_px, kMinPx);
  pair->view.set_picture(2);  // the Banks button
  const LayoutProbe& b = show("pair");
  expect_fits(b, "banks");
  EXPECT_EQ(b.counts.at("left bank accesses"), 3);  // impl2 and impl3 at stride 2 / 64: two loads and a store
  EXPECT_EQ(b.counts.at("right bank accesses"), 3);
  EXPECT_GE(b.min_text_px, kMinPx);
}

TEST_F(Presentation, ScenesOfTheNewPicturesShowEveryValueUnderTheirNote) {
  // The scene line (two lines of note) takes room from the picture: the values must still be drawn.
  for (const char* lesson : {"epita", "stevens"}) {
    ASSERT_TRUE(s.select_lesson(std::string(lesson)));
    int shown = 0;
    for (int k = 0; k < s.scene_count(); ++k) {
      const std::string view = s.lesson()->scenes[std::size_t(k)].view;
      if (view != "race" && view != "ladder") continue;
      SCOPED_TRACE(std::string(lesson) + " scene " + std::to_string(k + 1));
      ASSERT_EQ(s.open_scene(k, MainWindow::views()), "");
      s.trace.show_future_values = true;
      const LayoutProbe& p = show(view);
      ASSERT_TRUE(s.trace.trace);
      if (view == "race") {
        expect_fits(p, "race timeline");
        EXPECT_EQ(p.counts.at("race value labels"), int(race_timeline(*s.trace.trace).events.size()));
      } else {
        expect_fits(p, "scan ladder");
        EXPECT_EQ(p.counts.at("ladder value labels"), p.counts.at("ladder rows") * p.counts.at("ladder slots"));
      }
      EXPECT_GE(p.min_text_px, kMinPx);
      s.trace.show_future_values = false;
      ++shown;
    }
    EXPECT_GE(shown, 1) << lesson << " has no scene of the race timeline or the ladder";
  }
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

/// The lessons that carry scenes, from the shipped files (every one must have some).
std::vector<std::string> lessons_with_scenes(const AppState& s) {
  std::vector<std::string> out;
  for (const LessonEntry& e : s.lessons())
    if (!e.lesson.scenes.empty()) out.push_back(e.lesson.id);
  return out;
}

// Every scene of every lesson, with the report the app opens by default: the scene's variant, when the
// report has a run of it, has its row wholly on screen in Results and in Compare (never below the fold,
// never under the frozen header), and no row above it is cut in half at the top: scene 16 of EPITA is about
// reduce8's wrong-result row.
TEST_F(Presentation, EverySceneKeepsTheSelectedRunOnScreenInResultsAndCompare) {
  ASSERT_EQ(s.open_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h100-lessons.json"), "");
  const std::vector<std::string> lessons = lessons_with_scenes(s);
  EXPECT_EQ(lessons.size(), s.lessons().size()) << "a lesson without scenes";
  int checked = 0;
  for (const std::string& lesson : lessons) {
    ASSERT_TRUE(s.select_lesson(lesson));
    for (int k = 0; k < s.scene_count(); ++k) {
      SCOPED_TRACE(lesson + " scene " + std::to_string(k + 1));
      ASSERT_EQ(s.open_scene(k, MainWindow::views()), "");
      bool has_run = false;
      for (const auto& r : s.shown().runs) has_run |= r.variant == s.variant()->id;
      if (!has_run) continue;
      const LayoutProbe& r = show("results", 5);
      ASSERT_TRUE(r.counts.count("results selected row visible")) << "no row of " << s.variant()->id;
      EXPECT_EQ(r.counts.at("results selected row visible"), 1) << s.variant()->id << "'s row is off screen";
      EXPECT_EQ(r.counts.at("results top row cut"), 0) << "the top row is cut in half under the header";
      const LayoutProbe& c = show("compare", 4);
      if (c.counts.count("compare selected row visible"))
        EXPECT_EQ(c.counts.at("compare selected row visible"), 1) << s.variant()->id << "'s row is off screen";
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);
}

// A wrong result never looks like the winner: on the H100 report, EPITA's reduce8 (the slide's bug, the
// fastest GB/s of the lesson) and the racy rows are marked in the frozen variant column, none is best;
// in Plots each is a marked (hatched) bar; on the Roofline each is a marked point.
TEST_F(Presentation, WrongResultsAreMarkedWhereTheEyeLandsAndNeverBest) {
  ASSERT_EQ(s.open_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h100-lessons.json"), "");
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  int wrong_runs = 0;
  for (const char* id : {"epita.race", "epita.reduce1_nosync", "epita.reduce8"})
    for (const auto& r : s.shown().runs)
      if (r.variant == id && r.status != RunStatus::Ok) {
        ++wrong_runs;
        break;
      }
  ASSERT_GE(wrong_runs, 2) << "the report should hold the racy and slide-bug runs";
  const LayoutProbe& c = show("compare", 3);
  EXPECT_EQ(c.counts.at("compare wrong rows"), wrong_runs);
  EXPECT_EQ(c.counts.at("compare wrong rows marked in the frozen columns"), wrong_runs);
  EXPECT_EQ(c.counts.at("compare wrong rows marked best"), 0);
  const LayoutProbe& p = show("plots", 3);
  EXPECT_EQ(p.counts.at("plot wrong series"), wrong_runs);
  EXPECT_EQ(p.counts.at("plot wrong series marked"), wrong_runs);
  EXPECT_GE(p.min_text_px, kMinPx);
  // The roofline needs DRAM metrics: the H200 metrics report, whose racy runs are crossed out.
  ASSERT_EQ(s.open_report(std::string(WS_GUI_ASSETS) + "/reports/nvidia-h200-metrics.json"), "");
  const Roofline rl = build_roofline(s.shown(), roofline_runs(s.shown(), chosen_variants(s)));
  int wrong_points = 0;
  for (const RooflinePoint& pt : rl.points) wrong_points += pt.wrong;
  const LayoutProbe& q = show("roofline", 3);
  ASSERT_TRUE(q.counts.count("roofline wrong points marked"));
  EXPECT_EQ(q.counts.at("roofline wrong points marked"), wrong_points);
  // The axes span the correct points only: every one of them lies inside, each wrong one at most on the edge.
  const RooflineLayout L = roofline_layout(rl, 0, 0, 1000, 600, 20);
  for (std::size_t i = 0; i < rl.points.size(); ++i)
    if (!rl.points[i].wrong) EXPECT_FALSE(L.off_scale[i]) << rl.points[i].variant;
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

// High contrast: every value printed in a coloured box (tree nodes, scan and ladder cells, race cells) is
// drawn in TextOn(Legible(fill)) at 7:1 or more, on each warp colour, the slate of an input or an
// unwritten cell, the race's blue read and its green and red writes.
TEST_F(Presentation, ValuesInColouredBoxesContrastSevenToOne) {
  std::vector<ImU32> fills = {ImGui::GetColorU32(ImVec4(0.32f, 0.35f, 0.40f, 1.f)),
                              ImGui::GetColorU32(ImVec4(0.20f, 0.42f, 0.75f, 1.f)),
                              ImGui::GetColorU32(theme().colors().ok), ImGui::GetColorU32(theme().colors().bad)};
  for (int w = 0; w < 8; ++w) fills.push_back(WarpColor(w, 1.f));
  for (ImU32 f : fills) {
    const ImU32 g = Legible(f);
    EXPECT_GE(ContrastRatio(TextOn(g), g), 7.f) << std::hex << f;
  }
  // The slate that held near-black text at 2.7:1 now gets white.
  const ImU32 slate = ImGui::GetColorU32(ImVec4(0.32f, 0.35f, 0.40f, 1.f));
  EXPECT_EQ(TextOn(slate), IM_COL32_WHITE);
  EXPECT_LT(ContrastRatio(ImGui::GetColorU32(theme().colors().badge_text), slate), 3.f);
}

// Live: a variant whose latest launch checked wrong (reduce8, the slide's bug) has its WRONG flag on its line
// inside the Live plot and in its legend entry, and its far higher GB/s stays off the y axis.
TEST_F(Presentation, LiveMarksAWrongResultsLineAndKeepsItOffTheAxis) {
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  for (int i = 0; i < 50; ++i) {
    s.perf.live.series["epita.reduce3"].push(i, 0.1, 1000 + i);
    s.perf.live.series["epita.reduce8"].push(i, 0.01, 90000);
  }
  RunResult ok, bad;
  ok.variant = "epita.reduce3", ok.status = RunStatus::Ok;
  bad.variant = "epita.reduce8", bad.status = RunStatus::SlideBug;
  s.perf.live.add_result(ok);
  s.perf.live.add_result(bad);
  const LayoutProbe& p = show("plots", 3);
  ASSERT_TRUE(p.pictures.count("plot ##live")) << "no Live plot";
  const ProbeRect& live = p.pictures.at("plot ##live");
  int flags_on_line = 0, legend_flags = 0, huge_ticks = 0;
  for (const ProbeLabel& l : p.labels) {
    if (l.box.y0 < live.y0 - 1 || l.box.y1 > live.y1 + 1) continue;  // the sweep plot's or the bars' labels
    if (l.text.rfind("WRONG", 0) == 0 && live.contains(l.box)) ++flags_on_line;
    if (l.text.find("reduce8") != std::string::npos && l.text.find("WRONG") != std::string::npos) ++legend_flags;
    if (l.box.x1 <= live.x0) {  // a y tick: its value without thousands separators
      std::string digits;
      for (char c : l.text)
        if (c != ',' && c != ' ') digits += c;
      huge_ticks += std::strtod(digits.c_str(), nullptr) > 5000;
    }
  }
  std::string seen;
  for (const ProbeLabel& l : p.labels) seen += " '" + l.text + "' @" + std::to_string(int(l.box.y0));
  EXPECT_EQ(flags_on_line, 1) << "live plot y " << live.y0 << ".." << live.y1 << ", labels:" << seen;
  EXPECT_EQ(legend_flags, 1);
  EXPECT_EQ(huge_ticks, 0) << "the wrong line's 90,000 GB/s set the y axis";
}

/// "#RRGGBB" of an ImU32 colour.
std::string rgb_hex(ImU32 c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02X%02X%02X", unsigned(c >> IM_COL32_R_SHIFT) & 0xff,
                unsigned(c >> IM_COL32_G_SHIFT) & 0xff, unsigned(c >> IM_COL32_B_SHIFT) & 0xff);
  return buf;
}

// High contrast, as drawn: in every scene of every lesson, every glyph on the screen (labels, tables, the
// Source view's code, values in boxes, plot labels) against what lies under it contrasts 7:1 or more.
TEST_F(Presentation, EverySceneDrawsItsTextAtSevenToOneInHighContrast) {
  int checked = 0;
  for (const std::string& lesson : lessons_with_scenes(s)) {
    ASSERT_TRUE(s.select_lesson(lesson));
    for (int k = 0; k < s.scene_count(); ++k) {
      ASSERT_EQ(s.open_scene(k, MainWindow::views()), "") << lesson << " scene " << k + 1;
      SCOPED_TRACE(lesson + " scene " + std::to_string(k + 1) + ", view " + s.view);
      show(s.view, 4);
      ASSERT_TRUE(HighContrast());
      const TextContrast c =
          measure_text_contrast(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts, ImGui::GetColorU32(ImGuiCol_WindowBg));
      ASSERT_GT(c.min_ratio, 0.f) << "no glyph measured";
      EXPECT_GE(c.min_ratio, 7.f) << "'" << char(c.codepoint < 128 ? c.codepoint : '?') << "' at (" << c.where.x << ", "
                                  << c.where.y << "): text " << rgb_hex(c.text) << " on " << rgb_hex(c.back);
      ++checked;
    }
  }
  EXPECT_GE(checked, 70);
}

// The open tab's label is whole after a scene opens a tab far to the right (Pair), by the third frame,
// where a --screenshot is taken: the tab bar does not animate its way there.
TEST_F(Presentation, TheOpenTabIsWholeInTheTabBar) {
  for (const char* view : {"pair", "ladder", "race", "results"}) {
    SCOPED_TRACE(view);
    ASSERT_TRUE(s.select_variant("epita.reduce3"));
    const LayoutProbe& p = show(view, 3);
    ASSERT_TRUE(p.counts.count("open tab fully shown"));
    EXPECT_EQ(p.counts.at("open tab fully shown"), 1);
  }
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

// The F1 help at 1920x1080, text at 2x: the window lies inside the screen, every row and the footer fit
// without scrolling (descriptions wrap inside it), and its text is no smaller than 28 px.
TEST_F(Presentation, HelpOverlayFitsTheScreenWithoutScrolling) {
  s.perf.present.show_help = true;
  show("tree", 6);
  ImGuiWindow* w = ImGui::FindWindowByName("Keys  (F1 or ? closes)");
  ASSERT_NE(w, nullptr);
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  EXPECT_GE(w->Pos.x, 0.f);
  EXPECT_GE(w->Pos.y, 0.f);
  EXPECT_LE(w->Pos.x + w->Size.x, d.x);
  EXPECT_LE(w->Pos.y + w->Size.y, d.y);
  EXPECT_EQ(w->ScrollMax.y, 0.f) << "the rows overflow the window";
  EXPECT_EQ(w->ScrollMax.x, 0.f) << "a row is wider than the window";
  EXPECT_GE(theme().px(Theme::kBaseFontPx) * w->FontWindowScale + 0.5f, kMinPx) << "the rows' text scale";
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

// The convolution scenes' point is the tile map: it is on screen under the note, whole; a 1D scene also
// shows the block's window of N with every element's index and who loads it, in text of 28 px or more.
TEST_F(Presentation, ConvolutionScenesShowTheTileMapOnScreen) {
  ASSERT_TRUE(s.select_lesson(std::string("stevens")));
  int shown = 0;
  for (int k = 0; k < s.scene_count(); ++k) {
    if (s.lesson()->scenes[std::size_t(k)].view != "conv") continue;
    SCOPED_TRACE("stevens scene " + std::to_string(k + 1));
    ASSERT_EQ(s.open_scene(k, MainWindow::views()), "");
    const LayoutProbe& p = show("conv", 5);
    ASSERT_TRUE(p.pictures.count("conv tile map"));
    EXPECT_TRUE(p.region.contains(p.pictures.at("conv tile map"))) << "the tile map is cut or below the fold";
    if (p.pictures.count("conv input window")) {
      EXPECT_TRUE(p.region.contains(p.pictures.at("conv input window")));
      EXPECT_GT(p.pictures.at("conv input window").width(), 0.5f * p.region.width());
      const int tile = s.params.pattern.tile, mask = s.params.pattern.mask_width;
      if (tile > 0) EXPECT_EQ(p.counts.at("conv input window cells"), tile + 2 * (mask / 2));
    }
    EXPECT_GE(p.min_text_px, kMinPx);
    ++shown;
  }
  EXPECT_GE(shown, 3);
}

// The measure behind the scene check sees what is drawn: ImGui's own text at the body size, then the same
// word at 24 px (a window font scale, which no view reports), each glyph counted, the smaller one found.
TEST_F(Presentation, TheGlyphMeasureFindsTextDrawnBelowTwentyEightPixels) {
  const ImFont& body = *theme().fonts().regular;
  for (int frame = 0; frame < 2; ++frame) {  // a new auto-sized window is drawn from its second frame
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(100, 100));
    ImGui::Begin("measure", nullptr, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoTitleBar);
    ImGui::SetWindowFontScale(1.f);
    ImGui::TextUnformatted("HHH");
    ImGui::SetWindowFontScale(24.f / body.FontSize);
    ImGui::TextUnformatted("H H");  // the space has no quad
    ImGui::End();
    ImGui::Render();
  }
  DrawnText d = measure_drawn_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts);
  EXPECT_EQ(d.glyphs, 5);
  EXPECT_EQ(d.codepoint, unsigned('H'));
  EXPECT_NEAR(d.min_cap_px, cap_height_px(body, 24.f), 0.01f);
  EXPECT_LT(d.min_cap_px, cap_height_px(body, kMinPx));
  EXPECT_NEAR(cap_height_px(body, 2 * Theme::kBaseFontPx), cap_height_px(body, body.FontSize), 0.01f);
  // Only what lies inside a rectangle: the first line alone, at the body size.
  const ImGuiStyle& st = ImGui::GetStyle();
  const ProbeRect first{0, 0, 1920, 100 + st.WindowPadding.y + body.FontSize * 0.9f};
  d = measure_drawn_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts, first);
  EXPECT_EQ(d.glyphs, 3);
  EXPECT_NEAR(d.min_cap_px, cap_height_px(body, body.FontSize), 0.01f);
}

// Nothing a scene shows is smaller than the smallest text size (Theme::kMinTextPx at font scale 2), measured
// as a viewer sees it: the cap height of every glyph in the frame's draw lists, anywhere on the screen (the
// note, the tabs, the view, the Source view's code, table cells), whichever font drew it. The bar is the
// rasterised 'H' of the body face (DejaVu Sans) at that size. ImGui sizes a font by ascent + descent, not
// by its em: its size 28 is a 24.1 px em (DejaVu: 2048 units per em, 2384 from ascent to descent) with
// capitals 18.2 px tall.
TEST_F(Presentation, EverySceneDrawsNoTextBelowTwentyEightPixels) {
  ASSERT_NE(theme().fonts().regular, nullptr);
  const float bar = cap_height_px(*theme().fonts().regular, theme().min_text());
  ASSERT_GT(bar, 0.6f * kMinPx) << "the body font has no 'H'";
  EXPECT_LT(bar, 0.8f * kMinPx) << "a cap height is less than the font size";
  int checked = 0, sources = 0;
  for (const std::string& lesson : lessons_with_scenes(s)) {
    ASSERT_TRUE(s.select_lesson(lesson));
    for (int k = 0; k < s.scene_count(); ++k) {
      ASSERT_EQ(s.open_scene(k, MainWindow::views()), "") << lesson << " scene " << k + 1;
      SCOPED_TRACE(lesson + " scene " + std::to_string(k + 1) + ", view " + s.view);
      show(s.view, 4);
      const DrawnText d = measure_drawn_text(*ImGui::GetDrawData(), *ImGui::GetIO().Fonts);
      ASSERT_GT(d.glyphs, 100) << "the frame drew almost no text: the measure found no glyphs";
      EXPECT_GE(d.min_cap_px + 0.01f, bar) << "'" << char(d.codepoint < 128 ? d.codepoint : '?') << "' (U+" << std::hex
                                           << d.codepoint << std::dec << ") at (" << d.where.x << ", " << d.where.y
                                           << ") is " << d.min_cap_px << " px tall; 28 px type has " << bar;
      ++checked;
      sources += s.view == "source";
    }
  }
  EXPECT_GE(checked, 70);
  EXPECT_GE(sources, 2) << "no scene of the Source view was measured";
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

/// Whether two label boxes share an area (touching edges do not count).
bool overlap(const ProbeRect& a, const ProbeRect& b) {
  return a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;
}

// EPITA's last scene is a plot to read from the back row: the bundled H200 sweep of the few variants the
// slide compares, with its plot area at least half the view's height (it was about 180 px of 1080) and no
// text of the plot (title, ticks, legend, reference lines, the WRONG flag) over another.
TEST_F(Presentation, EpitaSweepSceneFillsTheViewAndNoLabelOverlapsAnother) {
  ASSERT_TRUE(s.select_lesson(std::string("epita")));
  int scene = -1;
  for (int k = 0; k < s.scene_count(); ++k)
    if (s.lesson()->scenes[std::size_t(k)].view == "plots") scene = k;
  ASSERT_GE(scene, 0) << "EPITA has no Plots scene";
  ASSERT_EQ(s.open_scene(scene, MainWindow::views()), "");
  // What exchange_with_worker does each frame: the scene's named report opens (no GPU, no runs here).
  s.fall_back_for_scene([](const std::string& name) { return std::string(WS_GUI_ASSETS) + "/reports/" + name; });
  ASSERT_TRUE(s.showing_replay());
  EXPECT_EQ(chosen_variants(s).size(), s.lesson()->scenes[std::size_t(scene)].compare.size());
  const LayoutProbe& p = show("plots", 4);
  ASSERT_TRUE(p.pictures.count("plot ##sweep")) << "no sweep plot: the scene's report was not opened";
  const ProbeRect& plot = p.pictures.at("plot ##sweep");
  EXPECT_TRUE(p.region.contains(plot));
  EXPECT_GE(plot.height(), 0.5f * p.region.height()) << "the plot is " << plot.height() << " px tall";
  EXPECT_GE(plot.width(), 0.5f * p.region.width());
  EXPECT_EQ(p.counts.at("plot labels left out"), 0);
  EXPECT_GE(p.counts.at("plot wrong series"), 1);  // reduce8, the slide's bug
  EXPECT_EQ(p.counts.at("plot wrong series marked"), p.counts.at("plot wrong series"));
  ASSERT_GE(p.labels.size(), 10u);  // title, axis titles, ticks, legend, three reference lines, the flag
  int references = 0;
  for (const ProbeLabel& l : p.labels)  // beside its line in the plot, or in the legend at its right
    references += l.text.find(" GB/s") != std::string::npos &&
                  (plot.contains(l.box) || (l.box.x0 >= plot.x1 && l.box.y0 >= plot.y0 && l.box.y1 <= plot.y1));
  EXPECT_EQ(references, 3) << "theoretical peak, device copy and cub.reduce: each line keeps its label";
  for (std::size_t i = 0; i < p.labels.size(); ++i)
    for (std::size_t j = i + 1; j < p.labels.size(); ++j)
      EXPECT_FALSE(overlap(p.labels[i].box, p.labels[j].box))
          << "'" << p.labels[i].text << "' overlaps '" << p.labels[j].text << "'";
  // Back to a scene without a list of its own: the lesson's variants again.
  ASSERT_EQ(s.open_scene(0, MainWindow::views()), "");
  EXPECT_EQ(chosen_variants(s).size(), s.lesson()->steps.size());
}

}  // namespace
}  // namespace ws::ui
