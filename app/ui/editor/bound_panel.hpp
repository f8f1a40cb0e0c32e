// The kernel editor's "Find the bound" panel, beside the text: the memory-only and compute-only copies (editable),
// "Run the three" and, once they ran, the three times, x of the original, DRAM bytes, occupancy, the fairness
// checks and the slides' verdict ("Code Optimizations", J. Filipovic, slides "Code Modifications"). It draws
// ViewContext::bound (app/controller/bound_edit.hpp) and its reading; it computes nothing of its own.
#pragma once
#include <string>

#include "view_context.hpp"

namespace ws::ui {

/// The one line the editor shows when no GPU can run its text: "Running it needs an NVIDIA GPU (here, --gpu
/// ssh:HOST or --gpu 'slurm:ARGS'); ..." (`what` is "Running it", "Checking it", "Running the three").
std::string needs_gpu_line(const std::string& what);

/// Presses "Find the bound": makes the copies of the editor's text (BoundEdit::open) and opens the panel.
void find_the_bound(controller::ViewActions& act);

/// Presses "Run the three": queues the three requests where a GPU is (the GUI's run queue), else says in one
/// line that running them needs a GPU (needs_gpu_line). Ignored while they run.
void run_the_three(const controller::ViewContext& c, controller::ViewActions& act);

/// Draws the panel in the space given (a child window `width` wide, the rest of the height); false when the
/// user closed it.
bool draw_bound_panel(const controller::ViewContext& c, controller::ViewActions& act, float width);

}  // namespace ws::ui
