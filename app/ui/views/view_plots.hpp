// The Plots tab: a sweep plot (GB/s or time against n, log axes, with
// the theoretical peak, the measured copy bandwidth and the CUB baseline as reference lines) and
// the Live plot (time or GB/s per launch, scrolling), with the Sweep and Live controls.
#pragma once
#include <string>
#include <vector>

#include "view_context.hpp"
#include "views/allreduce_sweep_plot.hpp"
#include "widgets/plot.hpp"

namespace ws::ui {

/// Series that lie within this fraction of each other at every x are named as one in the legend.
constexpr double kCoincideTolerance = 0.02;

/// Whether `sw` is plotted as host time: none of its runs is timed on a GPU (a sim sweep) and some
/// recorded their host time (host_ms.total, the CPU model's), which the plot then shows, labelled as such.
bool plots_host_time(const Sweep& sw);
/// The sweep plot's series, one per id of `vars` in that order: its timed, correct runs of `sw` by n
/// (or kept fraction), GB/s or median ms (`plot_time`; host ms when plots_host_time), into xs[i] / ys[i]
/// (which the series point to); style series_style(i); label the short id, or, for a series another one covers at every
/// point (coincident_series within kCoincideTolerance), "filter_global: same as filter_warp_agg
/// (within 2 %)" so the legend says why one line seems missing.
std::vector<PlotSeries> sweep_series(const Sweep& sw, const std::vector<std::string>& vars, bool plot_time,
                                     std::vector<std::vector<double>>& xs, std::vector<std::vector<double>>& ys);

class PlotsView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  void draw_controls(const controller::ViewContext& c, controller::ViewActions& act);
  /// Sweep's range and button, Live and its n: only where a GPU can time them.
  void draw_timing_controls(const controller::ViewContext& c, controller::ViewActions& act,
                            const std::vector<std::string>& ids, bool filters);
  void draw_sweep(const controller::ViewContext& c, controller::ViewActions& act, float height);
  void draw_live(const controller::ViewContext& c, controller::ViewActions& act, float height);
  /// Without a sweep: the report's runs of the compared variants as bars.
  void draw_runs(const controller::ViewContext& c, controller::ViewActions& act, const Report& rep);

  /// In the lesson "Reduction across GPUs": the all-reduce's message-size sweep above the one-GPU plots.
  /// Returns the height it took (0 in other lessons).
  float draw_allreduce_sweep(const controller::ViewContext& c, float height);

  std::vector<std::vector<double>> xs_, ys_;  ///< per-series buffers, reused across frames
  AllReduceSweepPlot allreduce_;              ///< ring against tree over message size (issue 30)
};

}  // namespace ws::ui
