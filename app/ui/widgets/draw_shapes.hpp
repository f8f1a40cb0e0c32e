// Small ImDrawList shapes the slide pictures share (race timeline, scan ladder).
#pragma once
#include <imgui.h>

namespace ws::ui {

/// A line from `a` to `b` (screen pixels) of width `thick`, with a filled arrowhead of length `head`
/// at `b`; nothing but the line when a and b coincide.
void DrawArrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thick, float head);

/// The rectangle lo-hi outlined and filled with diagonal stripes of width `thick` (screen pixels): how a
/// bar of a wrong result is drawn (Compare, Plots), so it never reads as a valid one.
void HatchedRect(ImDrawList* dl, ImVec2 lo, ImVec2 hi, ImU32 col, float thick);

}  // namespace ws::ui
