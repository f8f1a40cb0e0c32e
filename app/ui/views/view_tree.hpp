// Tree view: the block's shared slots as leaves, one row per tree step, edges from the two operands
// to each result, nodes coloured by warp and marked with the thread; the current step's row is lit and
// rows not reached yet show their shape without numbers. Fits the view; zoom and pan (zoom_pan.hpp).
#pragma once
#include "trace_source.hpp"
#include "view_context.hpp"
#include "widgets/zoom_pan.hpp"

namespace ws::ui {

class TreeView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  const Trace* laid_out_ = nullptr;  ///< the trace `layout_` was built from
  std::optional<controller::TraceKey> key_;
  controller::TreeLayout layout_;
  ZoomPan zoom_;  ///< back to "fit" when the trace changes
};

}  // namespace ws::ui
