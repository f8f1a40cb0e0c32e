// Grid view: every warp of the launch (up to 2^16) by step, coloured by active lanes, bank-conflict
// ways or sectors per request, drawn by GLSL shaders (grid_renderer.hpp) as one image. The wheel
// zooms the warps about the pointer down to one warp, dragging pans, a click opens that block in
// the Warps view (the step-through views then trace that block of the whole launch).
#pragma once
#include <string>

#include "view_context.hpp"

namespace ws::ui {

/// The grid the parameters ask for: the selected variant over all n elements with the run's block and grid.
controller::GridKey grid_key(const controller::ViewContext& c);

/// Opens block `block` of the launch the Grid view shows in the step-through views, warp `warp` of
/// it in the Banks view, at `step`; shows `view` ("warps").
void open_grid_block(controller::ViewActions& act, std::int64_t block, int warp, int step, const std::string& view);

class GridView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  bool dragging_ = false;
  float drag_total_ = 0;        ///< pixels the pointer moved while the button was down (a click moves < 4)
  std::string reported_error_;  ///< the renderer's failure last posted as a message
};

}  // namespace ws::ui
