// The Compare tab: the compared variants side by side from the report shown,
// sortable, the best marked, bars for a chosen metric, and the "what changed" line for each
// consecutive pair of the lesson. Measured (CUPTI) and predicted (sim) columns are labelled apart.
#pragma once
#include <imgui.h>

#include <map>
#include <string>

#include "app_state.hpp"
#include "views/compare_model.hpp"

namespace ws::ui {

/// How the Compare table is drawn to fit its space: the text scale (0.7 .. 1 of the body text) and
/// the cells' vertical padding in pixels.
struct CompareFit {
  float scale = 1.f;
  float cell_pad_y = 0.f;
};
/// The largest text scale at which the Compare table of `rows` fits `avail` pixels without
/// scrolling (tighter rows first); 0.7 when even that is too big (the table then scrolls).
CompareFit compare_table_fit(const std::vector<CompareRow>& rows, ImVec2 avail);

class CompareView {
 public:
  void draw(AppState& s);

 private:
  void draw_controls(AppState& s, const std::vector<CompareRow>& rows);
  /// The table with its text at `k` times the body size (compare_table_scale()).
  void draw_table(AppState& s, const std::vector<CompareRow>& rows, float k);
  void draw_changes(AppState& s, const std::vector<CompareRow>& rows);
  /// Sim predictions for `ids` (computed once per variant, n and type).
  const std::map<std::string, Predicted>& predictions(const AppState& s, const std::vector<std::string>& ids);

  std::map<std::string, Predicted> predicted_;
  std::string predicted_key_;  ///< n and type the cache holds
  std::string slides_error_shown_;  ///< the slide-timings problem already reported (once, not every frame)
};

}  // namespace ws::ui
