// Tree view: the block's shared slots as leaves, one row per tree step, edges from the two operands
// to each result, nodes coloured by warp and marked with the thread; the current step's row is lit.
#pragma once
#include "app_state.hpp"
#include "trace_source.hpp"

namespace ws::ui {

class TreeView {
 public:
  void draw(AppState& s);

 private:
  const Trace* laid_out_ = nullptr;  ///< the trace `layout_` was built from
  std::optional<TraceKey> key_;
  TreeLayout layout_;
};

}  // namespace ws::ui
