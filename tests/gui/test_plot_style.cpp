// Plots with many series: 40 distinct styles, the legend naming series that coincide, and reference
// labels placed off the curves.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "synthetic_many_series.hpp"
#include "views/view_plots.hpp"
#include "widgets/plot_style.hpp"

namespace ws::ui {
namespace {

TEST(PlotStyle, FortySeriesHaveDistinctStyles) {
  std::set<std::tuple<ImU32, int, int>> seen;
  std::set<std::pair<ImU32, int>> colour_dash;
  for (int i = 0; i < 40; ++i) {
    const SeriesStyle s = series_style(i);
    seen.insert({s.color, int(s.dash), int(s.marker)});
    colour_dash.insert({s.color, int(s.dash)});
  }
  EXPECT_EQ(seen.size(), 40u);
  EXPECT_EQ(colour_dash.size(), 40u);  // colour and dash alone already tell them apart
  EXPECT_EQ(series_style(40).color, series_style(0).color);
  EXPECT_EQ(series_style(13).dash, PlotDash::Dashed);
  EXPECT_EQ(series_style(13).marker, PlotMarker::Square);
}

TEST(PlotStyle, ManySeriesSweepNamesTheCoincidingPair) {
  const Report rep = test::many_series_report();
  ASSERT_EQ(rep.sweeps.size(), 1u);
  const Sweep& sw = rep.sweeps[0];
  ASSERT_EQ(sw.spec.variants.size(), 40u);
  for (bool plot_time : {false, true}) {
    std::vector<std::vector<double>> xs, ys;
    const std::vector<PlotSeries> series = sweep_series(sw, sw.spec.variants, plot_time, xs, ys);
    ASSERT_EQ(series.size(), 40u);
    std::set<std::tuple<ImU32, int, int>> styles;
    int notes = 0;
    for (const PlotSeries& s : series) {
      styles.insert({s.color, int(s.dash), int(s.marker)});
      EXPECT_EQ(s.count, 6) << s.label;
      if (s.label.find("same as") != std::string::npos) {
        ++notes;
        EXPECT_EQ(s.label, "filter_global: same as filter_warp_agg (within 2 %)");
      }
    }
    EXPECT_EQ(styles.size(), 40u);
    EXPECT_EQ(notes, 1) << (plot_time ? "time" : "GB/s");
  }
}

TEST(PlotStyle, CoincidenceNeedsEveryPointWithinTheTolerance) {
  const std::vector<std::vector<double>> xs = {{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2}};
  std::vector<std::vector<double>> ys = {{10, 20, 30}, {10.1, 20.2, 30.3}, {10, 20, 31}, {10, 20}};
  auto same = coincident_series(xs, ys, 0.02);
  EXPECT_EQ(same, (std::vector<int>{1, -1, -1, -1}));  // 3 % off at one point; other x values
  ys[1][2] = 29;                                       // 3.3 % under at the last point
  EXPECT_EQ(coincident_series(xs, ys, 0.02)[0], -1);
  EXPECT_EQ(coincident_series({{1}, {1}}, {{5}, {5}}, 0.02), (std::vector<int>{-1, -1}));  // one point is no curve
  EXPECT_EQ(coincidence_label("a", "b", 0.02), "a: same as b (within 2 %)");
}

TEST(PlotStyle, ReferenceLabelsAvoidCurves) {
  EXPECT_TRUE(segment_hits_rect(ImVec2(0, 0), ImVec2(10, 10), ImVec2(4, 4), ImVec2(6, 6)));
  EXPECT_FALSE(segment_hits_rect(ImVec2(0, 0), ImVec2(10, 0), ImVec2(4, 4), ImVec2(6, 6)));
  EXPECT_TRUE(segment_hits_rect(ImVec2(5, 0), ImVec2(5, 10), ImVec2(4, 4), ImVec2(6, 6)));  // vertical
  // A curve rising through the right-hand spot: the label moves to the second candidate.
  const std::vector<std::vector<ImVec2>> curves = {{ImVec2(0, 100), ImVec2(300, 100), ImVec2(400, 0)}};
  const std::vector<ImVec4> spots = {ImVec4(320, 40, 390, 60), ImVec4(10, 40, 80, 60), ImVec4(10, 120, 80, 140)};
  EXPECT_EQ(free_label_box(spots, curves, {}), 1);
  // Another label already there: the next free spot, never on top of it.
  EXPECT_EQ(free_label_box(spots, curves, {ImVec4(0, 35, 100, 65)}), 2);
  // No free spot: the one crossed by the fewest segments; -1 only without candidates.
  EXPECT_EQ(free_label_box({spots[0], ImVec4(250, 50, 390, 110)}, curves, {}), 0);
  EXPECT_EQ(free_label_box({}, curves, {}), -1);
}

// A reference line's label may cross a curve but never another label: label_box_clear_of takes the spot
// no curve crosses, else the least crossed of those clear of every label, else none (-1: left out).
TEST(PlotStyle, ALabelNeverGoesOverAnotherLabel) {
  const std::vector<std::vector<ImVec2>> curves = {{ImVec2(0, 100), ImVec2(300, 100), ImVec2(400, 0)}};
  const std::vector<ImVec4> spots = {ImVec4(320, 40, 390, 60), ImVec4(10, 40, 80, 60), ImVec4(10, 90, 80, 110)};
  EXPECT_EQ(label_box_clear_of(spots, curves, {}), 1);
  const ImVec4 taken(0, 35, 100, 65);  // over spot 1
  // Spot 1 (no curve) is under the label; spots 0 and 2 each cross the curve once: the first of them.
  EXPECT_EQ(label_box_clear_of(spots, curves, {taken}), 0);
  EXPECT_EQ(label_box_clear_of({spots[1], spots[2], spots[0]}, curves, {taken}), 1);
  // Every spot under another label: none.
  EXPECT_EQ(label_box_clear_of({spots[1]}, curves, {taken}), -1);
  EXPECT_FALSE(boxes_overlap(ImVec4(0, 0, 10, 10), ImVec4(10, 0, 20, 10)));  // touching edges do not overlap
  EXPECT_TRUE(boxes_overlap(ImVec4(0, 0, 10, 10), ImVec4(9, 9, 20, 20)));
}

// A sim sweep has no GPU time: the plot shows the model's host time per n (plots_host_time), never 0s.
TEST(PlotStyle, SimSweepPlotsTheModelsHostTime) {
  Sweep sw;
  sw.spec.variants = {"epita.reduce3"};
  sw.spec.backend = BackendKind::Sim;
  for (int k = 10; k <= 12; ++k) {
    RunResult r;
    r.variant = "epita.reduce3";
    r.n = std::int64_t(1) << k;
    r.status = RunStatus::Ok;
    r.host_ms.model = 0.5 * k;
    r.host_ms.total = 1.0 * k;
    sw.runs.push_back(r);
  }
  ASSERT_TRUE(plots_host_time(sw));
  std::vector<std::vector<double>> xs, ys;
  const std::vector<PlotSeries> series = sweep_series(sw, sw.spec.variants, false, xs, ys);
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].count, 3);
  EXPECT_EQ(ys[0], (std::vector<double>{10.0, 11.0, 12.0}));
  EXPECT_EQ(xs[0], (std::vector<double>{1024.0, 2048.0, 4096.0}));
  sw.runs[0].timed = true;  // one GPU-timed run: the sweep is a GPU sweep, plotted by its timed runs only
  sw.runs[0].timing.median_ms = 0.25;
  sw.runs[0].gbps = 16;
  EXPECT_FALSE(plots_host_time(sw));
  sweep_series(sw, sw.spec.variants, true, xs, ys);
  EXPECT_EQ(ys[0], (std::vector<double>{0.25}));
}

}  // namespace
}  // namespace ws::ui
