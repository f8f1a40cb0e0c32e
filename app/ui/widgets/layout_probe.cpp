#include "widgets/layout_probe.hpp"

#include <algorithm>

namespace ws::ui {

bool ProbeRect::contains(const ProbeRect& in, float slack) const {
  return in.x0 >= x0 - slack && in.y0 >= y0 - slack && in.x1 <= x1 + slack && in.y1 <= y1 + slack;
}

void LayoutProbe::reset(const std::string& view_name) {
  view = view_name;
  region = {};
  pictures.clear();
  counts.clear();
  min_text_px = 0;
}

void LayoutProbe::picture(const std::string& name, ImVec2 a, ImVec2 b) {
  auto it = pictures.find(name);
  if (it == pictures.end()) {
    pictures[name] = ProbeRect{std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
    return;
  }
  ProbeRect& r = it->second;
  r.x0 = std::min({r.x0, a.x, b.x}), r.y0 = std::min({r.y0, a.y, b.y});
  r.x1 = std::max({r.x1, a.x, b.x}), r.y1 = std::max({r.y1, a.y, b.y});
}

LayoutProbe& layout_probe() {
  static LayoutProbe p;
  return p;
}

void DrawText(ImDrawList* dl, ImFont* font, float size, ImVec2 pos, ImU32 color, const char* text) {
  layout_probe().text(size);
  dl->AddText(font, size, pos, color, text);
}

}  // namespace ws::ui
