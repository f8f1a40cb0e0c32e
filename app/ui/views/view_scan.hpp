// Scan view: for the current step, which thread adds which pair of the block's array (the Kogge-Stone
// and Brent-Kung graphs: the array before the step on top, after it below, an edge per addition),
// the active lanes per warp, and the work count against the sequential scan (scan_graph.hpp). The
// graph fits the view; zoom and pan (zoom_pan.hpp).
#pragma once
#include <optional>

#include "trace_source.hpp"
#include "view_context.hpp"
#include "views/scan_graph.hpp"
#include "widgets/zoom_pan.hpp"

namespace ws::ui {

class ScanView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  const Trace* built_from_ = nullptr;  ///< the trace `graph_` was built from
  std::optional<controller::TraceKey> key_;
  ScanGraph graph_;
  ZoomPan zoom_;  ///< the graph's zoom and pan
};

}  // namespace ws::ui
