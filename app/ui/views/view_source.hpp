// Source view: the selected variant's CUDA section as it was built (embedded, kernel_sources.hpp),
// with line numbers, the lines of the current step's phase highlighted (scrolled into view), and
// optionally the code-only diff against the previous variant of the lesson. "Edit a copy" swaps the list for
// the kernel editor (editor/kernel_editor.hpp) on a copy of the variant's kernel.
#pragma once
#include <string>
#include <vector>

#include "editor/kernel_editor.hpp"
#include "kernel_sources.hpp"
#include "view_context.hpp"

namespace ws::ui {

class SourceView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  KernelEditor editor_;
  bool diff_ = false;  ///< diff against the previous variant of the lesson
  // What the lines below were built for; rebuilt when the variant, the diff base or the toggle change.
  std::string id_, prev_;
  bool built_diff_ = false;
  std::string trace_key_;  ///< the trace the section was built for (its helpers join the section)
  controller::SourceSection section_;
  std::vector<controller::DiffLine> lines_;  ///< all Same without the diff
  std::string scrolled_for_;                 ///< the variant, step and diff the list last scrolled to
};

}  // namespace ws::ui
