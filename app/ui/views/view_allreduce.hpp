// The All-reduce tab (issue 30, lesson "Reduction across GPUs"): n GPUs as rows of chunk boxes, each
// box saying which GPUs' values it sums after the current step ("g0+g1", "all 4"), the step's moves as
// arrows from the sending GPU's chunk to the receiving one, the time of every step (a bundled report's
// measurement when it holds the run, else the sim's model, labelled which), and the message-size sweep
// of ring against tree with the crossover. What it draws is computed by collective/allreduce_picture.hpp.
// With a CUDA device, "Run on the GPUs" runs the hand-written ring and tree and NCCL's on the worker's
// machine at the picture's GPU count and size; their step times then replace the bundled ones ("this
// session"), and one line gives each method's time and bus bandwidth, or why it could not run.
#pragma once
#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "collective/allreduce_picture.hpp"
#include "view_context.hpp"
#include "views/allreduce_sweep_plot.hpp"

namespace ws::ui {

/// Left/Right presses: the previous / next step of the All-reduce view (ViewContext::allreduce.step, 0..steps);
/// with `space`, Space plays or pauses, as HandleStepKeys does for the trace views. Ignored while a text
/// field has the keyboard.
void HandleAllReduceKeys(controller::ViewActions& act, const std::vector<controller::NavKey>& keys, bool space);

class AllReduceView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  void draw_controls(controller::ViewActions& act, int steps);
  void draw_picture(const controller::ViewContext& ctx, const collective::AllReducePicture& p, ImVec2 size);
  void draw_step_times(const controller::ViewContext& ctx, const collective::AllReducePicture& p, float height);
  /// The line under the headline: with a CUDA device the run button and what this session measured at the
  /// picture's GPU count and size (or why it did not run); without one, why the GPU variants cannot run here.
  void draw_run_line(const controller::ViewContext& c, controller::ViewActions& act);

  AllReduceSweepPlot sweep_;  ///< ring against tree over message size (shared with Plots)
};

}  // namespace ws::ui
