// Left panel: lessons and their variants in teaching order, then the selected variant's story.
#pragma once
#include "app_state.hpp"

namespace ws::ui {

class LessonBrowser {
 public:
  /// Draws into the current child window; clicks change the selection in `s`.
  void draw(controller::AppState& s);

 private:
  void draw_list(controller::AppState& s);
  void draw_details(const controller::AppState& s);
  std::string scrolled_to_;  ///< scroll the list to a selection made elsewhere (results table, CLI)
};

/// One line summarising a variant's launch rules for students: "block 64..1024, power of two; ...".
std::string describe_rules(const VariantInfo& v);

}  // namespace ws::ui
