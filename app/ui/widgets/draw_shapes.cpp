#include "widgets/draw_shapes.hpp"

#include <algorithm>
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

void HatchedRect(ImDrawList* dl, ImVec2 lo, ImVec2 hi, ImU32 col, float thick) {
  dl->AddRect(lo, hi, col, 0.f, 0, thick);
  const float h = hi.y - lo.y;
  if (h <= 0 || hi.x <= lo.x) return;
  dl->PushClipRect(lo, hi, true);
  for (float x = lo.x - h; x < hi.x; x += std::max(h * 0.6f, 3 * thick))
    dl->AddLine(ImVec2(x, hi.y), ImVec2(x + h, lo.y), col, thick);
  dl->PopClipRect();
}

}  // namespace ws::ui
