// What keeps many plot series apart and their labels readable, without ImGui state: a style per
// series (colour, dash, marker; 40 distinct), which series coincide with which (so the legend can say
// so instead of one line hiding another), and where a label box can sit without covering a curve.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace ws::ui {

enum class PlotDash { Solid, Dashed, Dotted, DashDot };
enum class PlotMarker { Circle, Square, Triangle, Diamond };

/// How series i is drawn.
struct SeriesStyle {
  ImU32 color = IM_COL32_WHITE;
  PlotDash dash = PlotDash::Solid;
  PlotMarker marker = PlotMarker::Circle;
};

/// Series i's style: the 10 colours of SeriesColor, then the next 10 dashed with squares, dotted with
/// triangles, dash-dot with diamonds: 40 distinct (colour, dash, marker) styles, then they repeat.
SeriesStyle series_style(int i);

/// Number of distinct styles series_style gives before repeating.
constexpr int kDistinctSeriesStyles = 40;

/// For each series k (xs[k], ys[k], same length), the index of a later series that coincides with it
/// (drawn after it, so on top of it), or -1: both have the same x values (at least two) and at every x
/// their y values differ by at most `tolerance` (0.02 = 2 %) of the larger magnitude.
std::vector<int> coincident_series(const std::vector<std::vector<double>>& xs,
                                   const std::vector<std::vector<double>>& ys, double tolerance);

/// "filter_global: same as filter_warp_agg (within 2 %)": the legend entry of a series hidden under another.
std::string coincidence_label(const std::string& label, const std::string& same_as, double tolerance);

/// The part of the segment a-b inside the rectangle lo-hi (screen pixels): from a + t0 (b - a) to
/// a + t1 (b - a), 0 <= t0 <= t1 <= 1; false when the segment misses it (Liang-Barsky).
bool clip_segment(ImVec2 a, ImVec2 b, ImVec2 lo, ImVec2 hi, double& t0, double& t1);

/// True when the segment a-b passes through the rectangle lo-hi (screen pixels).
bool segment_hits_rect(ImVec2 a, ImVec2 b, ImVec2 lo, ImVec2 hi);

/// Among candidate label boxes (x, y = top-left; z, w = bottom-right), the first that no polyline of
/// `curves` crosses and no box of `taken` overlaps; else the one crossed by the fewest segments.
/// Returns -1 only when there are no candidates.
int free_label_box(const std::vector<ImVec4>& candidates, const std::vector<std::vector<ImVec2>>& curves,
                   const std::vector<ImVec4>& taken);

/// True when boxes a and b (x, y = top-left; z, w = bottom-right) share an area (touching edges do not).
bool boxes_overlap(const ImVec4& a, const ImVec4& b);

/// Like free_label_box, but a box overlapping one of `taken` is never chosen: the first candidate that
/// crosses no curve and overlaps no taken box, else the one overlapping none that the fewest curve
/// segments cross. Returns -1 when every candidate overlaps a taken box (the label is left out).
int label_box_clear_of(const std::vector<ImVec4>& candidates, const std::vector<std::vector<ImVec2>>& curves,
                       const std::vector<ImVec4>& taken);

}  // namespace ws::ui
