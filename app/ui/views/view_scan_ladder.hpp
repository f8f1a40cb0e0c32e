// Ladder view: every step of a block scan at once, one row per step under the input row, an arrow from
// x[i - stride] of the row above to each x[i] it updates, the values in the boxes (scan_ladder() in
// scan_graph.hpp): the stacked Kogge-Stone iterations of "CS 677 Lecture 6", Mordohai, and Brent-Kung's
// up-sweep tree above its down-sweep tree. The current step's row is lit; rows not reached yet show
// their shape only until asked. Fits the view; zoom and pan (zoom_pan.hpp).
#pragma once
#include <optional>
#include <vector>

#include "trace_source.hpp"
#include "view_context.hpp"
#include "views/scan_graph.hpp"
#include "widgets/zoom_pan.hpp"

namespace ws::ui {

class ScanLadderView {
 public:
  /// Elements the ladder draws at most (the slides draw 8 and 16).
  static constexpr int kMaxSlots = 32;
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  const Trace* built_from_ = nullptr;
  std::optional<controller::TraceKey> key_;
  ScanGraph graph_;
  std::vector<LadderRow> rows_;
  ZoomPan zoom_;
};

}  // namespace ws::ui
