// The roofline (roofline.hpp) from the H200 report with CUPTI metrics: one run recomputed by hand,
// the roofs from the device, the operation counts of every pattern, and the SVG export.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "patterns.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "roofline.hpp"

using namespace ws;

namespace {

Report h200() { return load_report(std::string(WS_TEST_DIR) + "/../assets/reports/nvidia-h200-metrics.json"); }

std::vector<std::size_t> lesson_runs(const Report& r, const std::string& lesson) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < r.runs.size(); ++i)
    if (r.runs[i].lesson == lesson) out.push_back(i);
  return out;
}

const RooflinePoint* point(const Roofline& rl, const std::string& id) {
  for (const RooflinePoint& p : rl.points)
    if (p.variant == id) return &p;
  return nullptr;
}

int count(const std::string& s, const std::string& what) {
  int k = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++k;
  return k;
}

}  // namespace

TEST(Roofline, OneH200RunRecomputedByHand) {
  const Report r = h200();
  const Roofline rl = build_roofline(r, lesson_runs(r, "harris"));
  ASSERT_EQ(rl.points.size(), 4u);  // impl1, impl2, impl3, impl7 carry metrics in this report
  const RooflinePoint* p = point(rl, "harris.impl1");
  ASSERT_NE(p, nullptr);
  // The report's numbers for harris.impl1 at n = 2^24 int32: dram__bytes_read.sum 67,193,088 and
  // dram__bytes_write.sum 29,179,648; median 0.1714560016989708 ms. Operations: 2^24 - 1 adds.
  EXPECT_EQ(p->operations, 16777215.0);
  EXPECT_EQ(p->dram_bytes, 96372736.0);
  EXPECT_NEAR(p->intensity, 16777215.0 / 96372736.0, 1e-15);
  EXPECT_NEAR(p->intensity, 0.174086735, 1e-9);
  EXPECT_NEAR(p->ops_per_s, 9.78514303e10, 1e3);
  EXPECT_EQ(p->label, "impl1");
  // Roofs: the device's theoretical bandwidth and the copy measured in the session.
  ASSERT_GE(rl.roofs.size(), 2u);
  EXPECT_NEAR(rl.roofs[0].bytes_per_s, 4814.304e9, 1e3);
  EXPECT_FALSE(rl.roofs[0].measured);
  EXPECT_NEAR(rl.roofs[1].bytes_per_s, 4085.029620454172e9, 1e3);
  EXPECT_TRUE(rl.roofs[1].measured);
  // This report was recorded before the SM clock was stored: no compute roof, and it says why.
  EXPECT_EQ(rl.roofs.size(), 2u);
  EXPECT_NE(rl.compute_note.find("no SM clock"), std::string::npos) << rl.compute_note;
  // Every point lies under the theoretical roof (a measurement above it would be a bug).
  for (const RooflinePoint& q : rl.points) EXPECT_LT(q.ops_per_s, roof_at(rl, q.intensity)) << q.variant;
  // The axes hold every point.
  for (const RooflinePoint& q : rl.points) {
    EXPECT_GE(q.intensity, rl.x_min);
    EXPECT_LE(q.intensity, rl.x_max);
    EXPECT_GE(q.ops_per_s, rl.y_min);
    EXPECT_LE(q.ops_per_s, rl.y_max);
  }
}

TEST(Roofline, PeakAddRateIsSmsTimesClockTimesLanes) {
  Report r = h200();
  r.device.sm_clock_mhz = 1980;  // an H200's peak SM clock, as cudaDevAttrClockRate reports it
  const Roofline rl = build_roofline(r, lesson_runs(r, "harris"));
  ASSERT_EQ(rl.roofs.size(), 3u);
  EXPECT_TRUE(rl.compute_note.empty());
  // 132 SMs x 1980 MHz x 64 int32 add lanes per SM per clock (compute capability 9.0).
  EXPECT_DOUBLE_EQ(rl.roofs[2].ops_per_s, 132.0 * 1980e6 * 64);
  EXPECT_NE(rl.roofs[2].label.find("132 SMs x 1980 MHz x 64 lanes"), std::string::npos) << rl.roofs[2].label;
  // Below the ridge (4814 GB/s x I = 16.7 Tops/s at I = 3.47) the bandwidth bounds; above, the adds.
  EXPECT_NEAR(roof_at(rl, 0.1), 481.4304e9, 1e3);
  EXPECT_DOUBLE_EQ(roof_at(rl, 100), 132.0 * 1980e6 * 64);
  EXPECT_GE(rl.x_max, 132.0 * 1980e6 * 64 / 4814.304e9);
  EXPECT_EQ(add_lanes_per_sm(9, 0, DType::Int32), 64);
  EXPECT_EQ(add_lanes_per_sm(9, 0, DType::Float32), 128);
  EXPECT_EQ(add_lanes_per_sm(8, 0, DType::Float32), 64);
  EXPECT_EQ(add_lanes_per_sm(7, 5, DType::Int32), 64);
  EXPECT_EQ(add_lanes_per_sm(12, 0, DType::Int32), 0);  // unknown here: no roof rather than a guess
}

TEST(Roofline, RunsWithoutMetricsAreLeftOutWithTheirReason) {
  Report r = h200();
  RunResult bare = r.runs[0];
  bare.metrics = KernelMetrics{};
  r.runs.push_back(bare);
  RunResult wrong = r.runs[0];
  wrong.status = RunStatus::Wrong;
  r.runs.push_back(wrong);
  const Roofline rl = build_roofline(r, {r.runs.size() - 2, r.runs.size() - 1});
  EXPECT_TRUE(rl.points.empty());
  ASSERT_EQ(rl.left_out.size(), 2u);
  EXPECT_NE(rl.left_out[0].find("no DRAM bytes measured"), std::string::npos) << rl.left_out[0];
  EXPECT_NE(rl.left_out[1].find("wrong result"), std::string::npos) << rl.left_out[1];
}

TEST(Roofline, EveryPatternCountsItsOperations) {
  PatternParams pp;
  EXPECT_EQ(pattern_of(*find_variant("epita.reduce3")).operations(*find_variant("epita.reduce3"), pp, 1000), 999.0);
  EXPECT_EQ(pattern_of(*find_variant("stevens.kogge_stone")).operations(*find_variant("stevens.kogge_stone"), pp, 1000),
            999.0);
  EXPECT_EQ(pattern_of(*find_variant("cs121.hist_shared")).operations(*find_variant("cs121.hist_shared"), pp, 1000),
            1000.0);
  pp.mask_width = 5;
  EXPECT_EQ(
      pattern_of(*find_variant("stevens.conv1d_basic")).operations(*find_variant("stevens.conv1d_basic"), pp, 1000),
      5000.0);
  EXPECT_EQ(
      pattern_of(*find_variant("stevens.conv2d_tiled")).operations(*find_variant("stevens.conv2d_tiled"), pp, 1000),
      25000.0);
  for (const PatternSpec& spec : all_patterns()) EXPECT_NE(spec.operations, nullptr) << spec.kind;
}

TEST(Roofline, SvgHoldsTheRoofsAndEveryLabelledPoint) {
  Report r = h200();
  r.device.sm_clock_mhz = 1980;
  const Roofline rl = build_roofline(r, lesson_runs(r, "harris"));
  const std::string svg = roofline_svg(rl, "Roofline: NVIDIA H200 <harris>", 1600, 900);
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1600\" height=\"900\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), 4);
  for (const char* label : {">impl1<", ">impl2<", ">impl3<", ">impl7<"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  EXPECT_NE(svg.find("<title>harris.impl1: 0.1741 ops/byte, 97.9 Gop/s"), std::string::npos);
  EXPECT_NE(svg.find("theoretical DRAM 4814 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("device copy 4085 GB/s (measured)"), std::string::npos);
  EXPECT_NE(svg.find("int32 add peak 16.7 Top/s"), std::string::npos);
  EXPECT_NE(svg.find("&lt;harris&gt;"), std::string::npos);  // the title is escaped
  // Labels do not overlap: every two are at least one line apart.
  const RooflineLayout L = roofline_layout(rl, 0, 0, 1000, 600, 20);
  for (std::size_t i = 0; i < L.label_y.size(); ++i)
    for (std::size_t j = i + 1; j < L.label_y.size(); ++j) EXPECT_GE(std::abs(L.label_y[i] - L.label_y[j]), 20 - 1e-9);
}
