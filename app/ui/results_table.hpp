// The Results tab: a sortable table of the shown report's runs (time, bandwidth, check), with
// racy and slide-bug rows styled as lessons (amber), wrong/error red, ok green.
#pragma once
#include <vector>

#include "app_state.hpp"

namespace ws::ui {

class ResultsTable {
 public:
  /// Draws the report switcher (recorded file / this session) and the table; clicking a row
  /// selects its variant.
  void draw(AppState& s);

 private:
  void draw_source_switch(AppState& s);
  void draw_table(AppState& s, const Report& r);
  std::vector<int> order_;  ///< row order after sorting (indices into the report's runs)
};

}  // namespace ws::ui
