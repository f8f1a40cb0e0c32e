// Banks view: for a chosen warp and the current step, each shared access drawn as lanes -> the 32
// banks, with the banks where distinct words collide marked and the access's n-way conflict.
#pragma once
#include "view_context.hpp"

namespace ws::ui {

class BanksView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);
};

}  // namespace ws::ui
