// The roofline of a lesson's runs (Williams, Waterman and Patterson, "Roofline: an insightful visual
// performance model for multicore architectures", CACM 2009): x = arithmetic intensity (operations
// per DRAM byte), y = achieved operations per second, under the roofs min(bandwidth x intensity,
// peak operation rate). Pure data from a report: no GPU needed (replayed reports draw the same chart).
//
// - Operations: PatternSpec::operations for the run's n (a reduction's n - 1 adds, ...).
// - DRAM bytes: the run's CUPTI metrics dram__bytes_read.sum + dram__bytes_write.sum (all the run's
//   kernels in one range). Runs without them are left out, each with its reason.
// - Time: the run's median time (CUDA events around everything it enqueues, as for GB/s).
// - Roofs: the device's theoretical DRAM bandwidth (2 x memory clock x bus width), the device copy
//   measured in the same session, and the peak add rate = SMs x SM clock x add lanes per SM per clock
//   for the runs' type (CUDA C++ Programming Guide, "Arithmetic Instructions", throughput table).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "report.hpp"

namespace ws {

/// One run on the chart.
struct RooflinePoint {
  std::string variant;  ///< variant id
  std::string label;    ///< what the chart prints beside the point (the id without the lesson)
  DType type = DType::Int32;
  std::int64_t n = 0;
  double operations = 0;  ///< PatternSpec::operations(n)
  double dram_bytes = 0;  ///< dram__bytes_read.sum + dram__bytes_write.sum
  double seconds = 0;     ///< median time, s
  double intensity = 0;   ///< operations / dram_bytes (ops per byte)
  double ops_per_s = 0;   ///< operations / seconds
  /// The run's check was not ok (race, slide-bug): its point is what the kernel did, not a valid
  /// answer. Drawn crossed and in the failure colour, and left out of the axis range unless asked.
  bool wrong = false;
};

/// A roof: a sloped one (bytes_per_s > 0: y = bytes_per_s x intensity) or a flat one (ops_per_s > 0).
struct RooflineRoof {
  std::string label;  ///< e.g. "theoretical DRAM 4814 GB/s"
  double bytes_per_s = 0;
  double ops_per_s = 0;
  bool measured = false;  ///< the copy bandwidth measured in the session (drawn dashed)
};

/// The chart's data and its axes (decades that hold every point and the ridge of each compute roof).
struct Roofline {
  std::vector<RooflinePoint> points;
  std::vector<RooflineRoof> roofs;    ///< sloped roofs first, then flat ones
  std::vector<std::string> left_out;  ///< "epita.race: no DRAM bytes measured (run without --metrics)"
  std::string compute_note;           ///< why there is no flat roof, when there is none ("" otherwise)
  double x_min = 0.01, x_max = 100, y_min = 1e9, y_max = 1e14;  ///< log axes: ops/byte, ops/s
};

/// Add lanes per SM per clock for 32-bit adds of `type` on compute capability major.minor (the
/// Programming Guide's table: fp32 add 64 on 7.x and 8.0, 128 on 8.6, 8.7, 8.9 and 9.0; int32 add 64
/// on 7.x to 9.0); 0 when this build does not know the architecture.
int add_lanes_per_sm(int cc_major, int cc_minor, DType type);

/// The roofline of `runs` (indices into r.runs; typically one lesson's) on r.device. Runs that did not
/// run, have no operation count, no DRAM metrics or no time go to left_out. The axes span the points of
/// runs checked ok (and the roofs' ridges); `range_wrong` widens them to the racy and slide-bug points too
/// (by default those outside sit on the plot's edge: roofline_layout clamps them and marks them off scale).
Roofline build_roofline(const Report& r, const std::vector<std::size_t>& runs, bool range_wrong = false);

/// The attainable rate at intensity x (ops/s): min(first sloped roof x x, lowest flat roof); without a
/// flat roof the sloped one alone; 0 when the chart has no roofs.
double roof_at(const Roofline& rl, double x);

/// Where things go in a plot area (pixels, y down), shared by the GUI view and the SVG writer.
struct RooflineLayout {
  double left = 0, top = 0, width = 0, height = 0;  ///< the plot area
  std::vector<double> px, py;                       ///< each point's position
  std::vector<double> label_x;                      ///< each point's label: left edge (right of the point)
  std::vector<double> label_y;                      ///< and vertical centre, moved apart so that labels do not overlap
  std::vector<bool> off_scale;                      ///< the point lies outside the axes: drawn on the nearest edge
  double x_of(double intensity) const;
  double y_of(double ops_per_s) const;
  double lx0 = 0, lx1 = 0, ly0 = 0, ly1 = 0;  ///< log10 of the axes' ends
};
/// Lays out rl in the plot area, labels line_h pixels apart at least.
RooflineLayout roofline_layout(const Roofline& rl, double left, double top, double width, double height, double line_h);

/// The chart as an SVG document of width x height pixels: log axes with decade ticks, the roofs,
/// labelled points with a <title> each (the values on hover in a browser). Self-contained text.
std::string roofline_svg(const Roofline& rl, const std::string& title, int width, int height);

}  // namespace ws
