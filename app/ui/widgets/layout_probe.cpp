#include "widgets/layout_probe.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace ws::ui {

bool ProbeRect::contains(const ProbeRect& in, float slack) const {
  return in.x0 >= x0 - slack && in.y0 >= y0 - slack && in.x1 <= x1 + slack && in.y1 <= y1 + slack;
}

void LayoutProbe::reset(const std::string& view_name) {
  view = view_name;
  region = {};
  pictures.clear();
  counts.clear();
  labels.clear();
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

void LayoutProbe::label(const std::string& text, ImVec2 a, ImVec2 b) {
  labels.push_back(
      ProbeLabel{text, ProbeRect{std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)}});
}

float cap_height_px(const ImFont& font, float size_px) {
  const ImFontGlyph* h = font.FindGlyphNoFallback('H');
  return h && font.FontSize > 0 ? (h->Y1 - h->Y0) * size_px / font.FontSize : 0.f;
}

DrawnText measure_drawn_text(const ImDrawData& dd, const ImFontAtlas& atlas, ProbeRect within) {
  struct Source {
    const ImFontGlyph* glyph;
    float cap;  ///< the font's cap height at its own size
  };
  std::map<std::tuple<float, float, float, float>, Source> by_uv;
  for (const ImFont* font : atlas.Fonts) {
    const float cap = cap_height_px(*font, font->FontSize);
    for (const ImFontGlyph& g : font->Glyphs)
      if (g.Visible && g.Y1 > g.Y0) by_uv.emplace(std::make_tuple(g.U0, g.V0, g.U1, g.V1), Source{&g, cap});
  }
  const bool whole = within.width() <= 0 || within.height() <= 0;
  DrawnText out;
  for (int l = 0; l < dd.CmdListsCount; ++l) {
    const ImDrawList& list = *dd.CmdLists[l];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback || cmd.TextureId != atlas.TexID || cmd.ElemCount == 0) continue;
      unsigned lo = ~0u, hi = 0;  // the vertices this command draws
      for (unsigned i = cmd.IdxOffset; i < cmd.IdxOffset + cmd.ElemCount; ++i)
        lo = std::min<unsigned>(lo, list.IdxBuffer[int(i)]), hi = std::max<unsigned>(hi, list.IdxBuffer[int(i)]);
      lo += cmd.VtxOffset, hi += cmd.VtxOffset;
      for (unsigned v = lo; v + 3 <= hi && v + 3 < unsigned(list.VtxBuffer.Size); ++v) {
        const ImDrawVert* q = &list.VtxBuffer[int(v)];
        const auto it = by_uv.find(std::make_tuple(q[0].uv.x, q[0].uv.y, q[2].uv.x, q[2].uv.y));
        if (it == by_uv.end() || q[1].uv.x != q[2].uv.x || q[1].uv.y != q[0].uv.y || q[3].uv.x != q[0].uv.x ||
            q[3].uv.y != q[2].uv.y)
          continue;
        const ImVec2 a = q[0].pos, b = q[2].pos;
        const ImVec4& c = cmd.ClipRect;
        if (b.x <= c.x || a.x >= c.z || b.y <= c.y || a.y >= c.w) continue;
        if (!whole && (b.x <= within.x0 || a.x >= within.x1 || b.y <= within.y0 || a.y >= within.y1)) continue;
        const ImFontGlyph& g = *it->second.glyph;
        const float cap = (b.y - a.y) / (g.Y1 - g.Y0) * it->second.cap;
        ++out.glyphs;
        if (out.min_cap_px <= 0 || cap < out.min_cap_px)
          out.min_cap_px = cap, out.codepoint = g.Codepoint, out.where = a;
        v += 3;
      }
    }
  }
  return out;
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
