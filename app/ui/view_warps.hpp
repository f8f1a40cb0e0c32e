// Warps view: warps x 32 lanes for the current step (working lane, idle lane of an active warp =
// divergence, idle warp), the step's counters, and a strip of every step's warp states.
#pragma once
#include "app_state.hpp"

namespace ws::ui {

class WarpsView {
 public:
  void draw(AppState& s);
};

}  // namespace ws::ui
