// The Plots tab (issue 6, parts 2 and 3): a sweep plot (GB/s or time against n, log axes, with
// the theoretical peak, the measured copy bandwidth and the CUB baseline as reference lines) and
// the Live plot (time or GB/s per launch, scrolling), with the Sweep and Live controls.
#pragma once
#include <string>
#include <vector>

#include "app_state.hpp"

namespace ws::ui {

class PlotsView {
 public:
  void draw(AppState& s);

 private:
  void draw_controls(AppState& s);
  void draw_sweep(AppState& s, float height);
  void draw_live(AppState& s, float height);
  /// Without a sweep: the report's runs of the compared variants as bars.
  void draw_runs(AppState& s, const Report& rep);

  std::vector<std::vector<double>> xs_, ys_;  ///< per-series buffers, reused across frames
};

}  // namespace ws::ui
