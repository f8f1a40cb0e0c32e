#include "widgets/draw_shapes.hpp"

#include <cmath>

namespace ws::ui {

void DrawArrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thick, float head) {
  dl->AddLine(a, b, col, thick);
  const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f) return;
  const float ux = dx / len, uy = dy / len;
  dl->AddTriangleFilled(b, ImVec2(b.x - ux * head - uy * head * 0.5f, b.y - uy * head + ux * head * 0.5f),
                        ImVec2(b.x - ux * head + uy * head * 0.5f, b.y - uy * head - ux * head * 0.5f), col);
}

}  // namespace ws::ui
