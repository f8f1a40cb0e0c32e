// The Source view's kernel editor ("Edit a copy"): the copy of the selected variant's kernel in ImGui's
// multiline text field (its undo: Ctrl+Z / Ctrl+Y), in the monospace font at the presentation scale, with a
// margin of line numbers, compiler marks (errors red, warnings amber), lines changed from the slide and,
// after a run with metrics, warp instructions per line; a find box; the compiler's messages under it (a
// click goes to the line). Ctrl+Enter compiles and runs through the GUI's run queue. The model is
// ViewContext::edit (app/controller/kernel_edit.hpp); this file only draws it and writes intents (ViewActions).
#pragma once
#include <string>
#include <vector>

#include "view_context.hpp"

namespace ws::ui {

class KernelEditor {
 public:
  /// Opens the editor on a copy of `v` (kernel_copy.hpp; the user's saved edit of it when there is one).
  void open(controller::ViewActions& act, const VariantInfo& v);
  /// Opens exercise `ex` (its starter, or the user's saved edit of it), its statement beside the text and a
  /// Check button that grades as `warpscope-cli grade` does. A starter that cannot be read is a message.
  void open_exercise(controller::ViewActions& act, const Exercise& ex);
  /// Draws the open editor in the space left; false when the user closed it ("Back to the slide").
  bool draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  /// Ctrl+Enter: runs (a variant's copy) or checks (an exercise) the text where a GPU is, else compiles it
  /// here and says why it cannot run.
  void compile_and_run(const controller::ViewContext& c, controller::ViewActions& act);
  /// The exercise's panel beside the text: title, statement, goal, the check's verdicts, hints.
  void draw_exercise(const controller::ViewContext& c, const Exercise& ex);
  std::string path_;           ///< the Save as / Open field
  std::string find_;           ///< the find box
  std::size_t find_from_ = 0;  ///< where the next search starts
  int goto_line_ = 0;          ///< a line to scroll to at the next frame (0: none)
  int marked_line_ = 0;        ///< the line the last find or message click went to (margin arrow)
  bool focus_text_ = false;    ///< give the text field the keyboard at the next frame
  int diags_seen_ = 0;         ///< KernelEdit::diagnostics_generation() last scrolled to
  std::string marks_for_;      ///< the text changed_ was computed for
  std::vector<int> changed_;   ///< changed_line_marks of the text
};

}  // namespace ws::ui
