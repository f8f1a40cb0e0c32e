// The Compare tab: the compared variants side by side from the report shown,
// sortable, the best marked, bars for a chosen metric, and the "what changed" line for each
// consecutive pair of the lesson. Measured (CUPTI) and predicted (sim) columns are labelled apart.
#pragma once
#include <imgui.h>

#include <map>
#include <string>
#include <vector>

#include "kernel_copy.hpp"
#include "view_context.hpp"
#include "views/compare_model.hpp"

namespace ws::ui {

/// How the Compare table is drawn to fit its space: the text scale (0.7 .. 1 of the body text), the
/// cells' vertical padding in pixels, and per column the widest text at scale 1 and the pixels that do
/// not scale with it (badges' padding, a header's sort arrow room stays in the text), 0 for a hidden
/// column. A column is `text * scale + extra` wide: set from the first frame, so a table too wide for
/// its view shows its horizontal scroll bar at once instead of after ImGui's auto-fit frames.
struct CompareFit {
  float scale = 1.f;
  float cell_pad_y = 0.f;
  bool scrolls_x = false;  ///< wider than the view even at the smallest text: scrolls sideways
  std::vector<float> text, extra;
  /// The content width of column `c` at `scale` (0: let ImGui fit it).
  float column_width(int c) const {
    return c < int(text.size()) && text[std::size_t(c)] > 0 ? text[std::size_t(c)] * scale + extra[std::size_t(c)] + 1.f
                                                            : 0.f;
  }
};
/// The largest text scale at which the Compare table of `rows` fits `avail` pixels without
/// scrolling (tighter rows first); 0.7 when even that is too big (the table then scrolls).
CompareFit compare_table_fit(const std::vector<CompareRow>& rows, ImVec2 avail);

class CompareView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  void draw_controls(const controller::ViewContext& c, controller::ViewActions& act,
                     const std::vector<CompareRow>& rows);
  /// The table with its text at `fit.scale` times the body size and its columns as wide as `fit` says.
  void draw_table(const controller::ViewContext& c, const std::vector<CompareRow>& rows, const CompareFit& fit);
  void draw_changes(const controller::ViewContext& c, const std::vector<CompareRow>& rows);
  /// Under an edited run's "what changed" line: the lines its text changed against the copy of the variant
  /// (code_diff_rows, the editor's line diff), numbered in both, added green and removed red.
  void draw_code_diff(const std::string& label, const controller::KernelEdit::RanText& ran);
  /// Sim predictions for `ids` (computed once per variant, n and type).
  const std::map<std::string, Predicted>& predictions(const controller::ViewContext& c,
                                                      const std::vector<std::string>& ids);

  std::map<std::string, Predicted> predicted_;
  std::string predicted_key_;       ///< n and type the cache holds
  std::string slides_error_shown_;  ///< the slide-timings problem already reported (once, not every frame)
  std::string scrolled_to_;         ///< the selected variant whose row was last scrolled into view
  std::vector<float> widths_;       ///< the column widths last set (CompareFit::column_width)
  /// code_diff_rows per edited run label, with the texts they were computed from.
  struct CodeDiff {
    std::string original, text;
    std::vector<controller::CodeDiffRow> rows;
  };
  std::map<std::string, CodeDiff> code_diffs_;
};

}  // namespace ws::ui
