// What the step-through views (tree, warps, banks) share: the line saying where the trace came
// from, the step slider with previous/next and play/pause, the keys, and the warp colours.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "view_context.hpp"

namespace ws::ui {

/// Source line and step controls over a view (none in a handout picture: Handout()). Returns false (after
/// saying why) when there is no trace to draw; the caller then draws nothing else. Its controls move the
/// trace's player (act.trace()) and ask for a step export (act.perf().steps_request).
bool TraceHeader(const controller::ViewContext& c, controller::ViewActions& act);
/// Previous/next, play/pause, speed and the step slider of `t`, with the step's phase and label
/// (`label` replaces them when non-empty). TraceHeader draws them; so do views showing two traces
/// under one control. n >= 0: also the block switch of a trace over several blocks, for input size n.
void StepControls(controller::TraceState& t, const std::string& label = "", std::int64_t n = -1);
/// While one is alive, TraceHeader draws a single line (variant and where the trace came from; the
/// rest on hover) and no step controls: for two views side by side under one StepControls.
class CompactTraceHeaders {
 public:
  CompactTraceHeaders();
  ~CompactTraceHeaders();
  CompactTraceHeaders(const CompactTraceHeaders&) = delete;
  CompactTraceHeaders& operator=(const CompactTraceHeaders&) = delete;
};
/// Left/Right presses (one entry per press or auto-repeat, none lost): previous/next step; with
/// `space`, Space: play/pause. Ignored while a text field has the keyboard.
void HandleStepKeys(controller::TraceState& t, const std::vector<controller::NavKey>& keys, bool space);
/// A distinct colour per warp (cycles through 8 hues), for nodes and labels.
ImU32 WarpColor(int warp, float alpha = 1.f);

}  // namespace ws::ui
