// Centre top: run parameters (n, block, grid, type, input, seed, repeat), Run and Run lesson,
// and a line saying why Run is disabled or what is running.
#pragma once
#include <string>

#include "app_state.hpp"

namespace ws::ui {

class ParametersPanel {
 public:
  /// Draws into the current window; Run buttons append to s.to_run, Cancel sets s.cancel_requested.
  void draw(controller::AppState& s);

 private:
  void draw_status_line(controller::AppState& s, const std::string& why_not);

  std::string typed_edit_;   ///< the typed-numbers field as being edited
  std::string file_edit_;    ///< the file field as being edited
  std::string typed_error_;  ///< why the typed numbers or the file were refused ("" = taken)
};

}  // namespace ws::ui
