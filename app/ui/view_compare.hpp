// The Compare tab (issue 6, part 4): the compared variants side by side from the report shown,
// sortable, the best marked, bars for a chosen metric, and the "what changed" line for each
// consecutive pair of the lesson. Measured (CUPTI) and predicted (sim) columns are labelled apart.
#pragma once
#include <map>
#include <string>

#include "app_state.hpp"
#include "compare_model.hpp"

namespace ws::ui {

class CompareView {
 public:
  void draw(AppState& s);

 private:
  void draw_controls(AppState& s, const std::vector<CompareRow>& rows);
  void draw_table(AppState& s, const std::vector<CompareRow>& rows);
  void draw_changes(AppState& s, const std::vector<CompareRow>& rows);
  /// Sim predictions for `ids` (computed once per variant, n and type).
  const std::map<std::string, Predicted>& predictions(const AppState& s, const std::vector<std::string>& ids);

  std::map<std::string, Predicted> predicted_;
  std::string predicted_key_;  ///< n and type the cache holds
};

}  // namespace ws::ui
