// Small ImDrawList shapes the slide pictures share (race timeline, scan ladder).
#pragma once
#include <imgui.h>

namespace ws::ui {

/// A line from `a` to `b` (screen pixels) of width `thick`, with a filled arrowhead of length `head`
/// at `b`; nothing but the line when a and b coincide.
void DrawArrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thick, float head);

}  // namespace ws::ui
