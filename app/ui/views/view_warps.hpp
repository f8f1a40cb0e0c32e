// Warps view: warps x 32 lanes for the current step (working lane, idle lane of an active warp =
// divergence, idle warp), the step's counters, and a strip of every step's warp states. The grid
// fits the view; zoom and pan (zoom_pan.hpp).
#pragma once
#include "view_context.hpp"
#include "widgets/zoom_pan.hpp"

namespace ws::ui {

class WarpsView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  ZoomPan zoom_;  ///< the lane grid's zoom and pan
};

}  // namespace ws::ui
