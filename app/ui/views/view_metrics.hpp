// Metrics view: the hardware metrics of the selected variant's latest run in the shown
// report (session or replay), grouped as the catalog groups them, measured next to what the sim
// model predicts, with each metric's two-line explanation on hover, the pass count, the main
// kernel's occupancy limiter, and the collection's warnings. Also the switch that asks the next
// runs for the default metric set.
#pragma once
#include <map>
#include <string>

#include "view_context.hpp"

namespace ws::ui {

/// The selected variant's newest run in c.shown that asked for metrics; nullptr when none.
const RunResult* metrics_run(const controller::ViewContext& c);

/// The Metrics tab: draws from the context; its one action is the switch of the metrics the next runs collect.
class MetricsView {
 public:
  /// Draws the metrics of c.variant's newest run with metrics in c.shown, and the switches.
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  // Predictions of the run they were computed for (variant, n, block, grid).
  std::string predicted_for_;
  std::map<std::string, double> predicted_;
  std::string prediction_note_;
};

}  // namespace ws::ui
