// warpscope's plot widget on ImDrawList (ImPlot is not packaged for Debian): lines, scatter and
// bars on linear or log axes with readable ticks and units (plot_axis.hpp), a legend, a hover
// read-out and labelled reference lines (theoretical peak, measured copy bandwidth, CUB baseline).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "widgets/plot_axis.hpp"
#include "widgets/plot_style.hpp"

namespace ws::ui {

/// One data series. x and y point to `count` values each (not copied; they must live until the
/// call returns). Line series must have increasing x (long ones are thinned to min/max per pixel).
struct PlotSeries {
  enum Style { Line, LineMarkers, Scatter, Bars };
  std::string label;
  ImU32 color = IM_COL32_WHITE;
  const double* x = nullptr;
  const double* y = nullptr;
  int count = 0;
  Style style = LineMarkers;
  float thickness = 2.f;                   ///< at scale 1 (theme().px applies)
  PlotDash dash = PlotDash::Solid;         ///< lines (and the legend's swatch)
  PlotMarker marker = PlotMarker::Circle;  ///< LineMarkers and Scatter points
  float dash_phase = 0;                    ///< 0..1 of the dash pattern, so parallel dashed lines differ
  bool keep_in_legend = false;             ///< stays in a legend too long to show every entry
  /// Non-empty ("WRONG: slide-bug"): the series is of runs whose check is not ok. Bars are hatched with
  /// this text over them, lines dashed with it at their last point, the legend swatch hatched.
  std::string flag;
  /// Colour, dash, marker and dash phase of series i (series_style(i)).
  void set_style(int i) {
    const SeriesStyle st = series_style(i);
    color = st.color, dash = st.dash, marker = st.marker;
    dash_phase = float((i * 7) % 10) / 10.f;
  }
};

/// A horizontal line at y = value across the plot (dashed), labelled where the label box crosses no
/// curve: at its right end, else its left end, else along it, above or below the line.
struct PlotReference {
  std::string label;
  double value = 0;
  ImU32 color = IM_COL32_WHITE;
};

struct PlotConfig {
  std::string title;             ///< drawn above the plot ("" = none)
  std::string x_label, y_label;  ///< axis titles, with units, e.g. "n (elements)", "GB/s"
  AxisSpec x, y;
  int max_x_ticks = 10, max_y_ticks = 6;
  bool legend = true;
  std::vector<std::string> x_categories;  ///< non-empty: x ticks at 1, 2, ... labelled with these (bar charts)
};

/// What the mouse points at after Plot() (series index -1 when nothing is near).
struct PlotHover {
  int series = -1, index = -1;
  double x = 0, y = 0;
};

/// Draws the plot filling `size` at the cursor (an item: the cursor moves on). Hovering shows the
/// nearest point (within 12 px) with its series, x and y in the axes' units.
PlotHover Plot(const char* id, const PlotConfig& cfg, const std::vector<PlotSeries>& series,
               const std::vector<PlotReference>& refs, ImVec2 size);

/// Distinct colours for up to 10 series (then they repeat), readable on the dark and the
/// high-contrast theme alike.
ImU32 SeriesColor(int i);

}  // namespace ws::ui
