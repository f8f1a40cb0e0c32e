// Memory view: the current step's global loads, one row per warp request, drawn as the 32-byte
// sectors it touched (the words read filled in) against the fewest sectors those bytes could fill.
#pragma once
#include "app_state.hpp"

namespace ws::ui {

class MemoryView {
 public:
  void draw(controller::AppState& s);
};

}  // namespace ws::ui
