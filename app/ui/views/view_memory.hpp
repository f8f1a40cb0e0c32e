// Memory view: the current step's global loads, one row per warp request, drawn as the 32-byte
// sectors it touched (the words read filled in) against the fewest sectors those bytes could fill.
#pragma once
#include "view_context.hpp"

namespace ws::ui {

class MemoryView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);
};

}  // namespace ws::ui
