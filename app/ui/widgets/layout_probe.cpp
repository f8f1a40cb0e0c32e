#include "widgets/layout_probe.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "widgets/theme.hpp"

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

namespace {
/// `top` (with its alpha) over the opaque `under`.
ImU32 blend(ImU32 top, ImU32 under) {
  const float a = float((top >> IM_COL32_A_SHIFT) & 0xff) / 255.f;
  auto mix = [&](int shift) {
    const float t = float((top >> shift) & 0xff), u = float((under >> shift) & 0xff);
    return ImU32(t * a + u * (1 - a) + 0.5f) << shift;
  };
  return mix(IM_COL32_R_SHIFT) | mix(IM_COL32_G_SHIFT) | mix(IM_COL32_B_SHIFT) | (ImU32(0xff) << IM_COL32_A_SHIFT);
}
bool inside(ImVec2 p, ImVec2 a, ImVec2 b, ImVec2 c) {
  auto side = [](ImVec2 p0, ImVec2 p1, ImVec2 q) {
    return (p1.x - p0.x) * (q.y - p0.y) - (p1.y - p0.y) * (q.x - p0.x);
  };
  const float d0 = side(a, b, p), d1 = side(b, c, p), d2 = side(c, a, p);
  return (d0 >= 0 && d1 >= 0 && d2 >= 0) || (d0 <= 0 && d1 <= 0 && d2 <= 0);
}
}  // namespace

TextContrast measure_text_contrast(const ImDrawData& dd, const ImFontAtlas& atlas, ImU32 background) {
  std::map<std::tuple<float, float, float, float>, const ImFontGlyph*> by_uv;
  for (const ImFont* font : atlas.Fonts)
    for (const ImFontGlyph& g : font->Glyphs)
      if (g.Visible && g.Y1 > g.Y0) by_uv.emplace(std::make_tuple(g.U0, g.V0, g.U1, g.V1), &g);
  const ImVec2 white = atlas.TexUvWhitePixel;
  auto is_white = [&](const ImDrawVert& v) { return v.uv.x == white.x && v.uv.y == white.y; };
  // A fill: one primitive's run of solid triangles of one colour (a rectangle's two, a rounded box's fan).
  struct Fill {
    std::vector<ImVec2> tri;  // 3 corners per triangle
    ImVec2 lo, hi;
    ImU32 col;
  };
  TextContrast out;
  for (int l = 0; l < dd.CmdListsCount; ++l) {
    const ImDrawList& list = *dd.CmdLists[l];
    std::vector<Fill> fills;  // in drawing order
    bool extend = false;      // the previous triangle was solid: a same-coloured one continues its fill
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback || cmd.TextureId != atlas.TexID) continue;
      for (unsigned i = cmd.IdxOffset; i + 2 < cmd.IdxOffset + cmd.ElemCount; i += 3) {
        const ImDrawVert& v0 = list.VtxBuffer[int(list.IdxBuffer[int(i)] + cmd.VtxOffset)];
        const ImDrawVert& v1 = list.VtxBuffer[int(list.IdxBuffer[int(i + 1)] + cmd.VtxOffset)];
        const ImDrawVert& v2 = list.VtxBuffer[int(list.IdxBuffer[int(i + 2)] + cmd.VtxOffset)];
        if (is_white(v0) && is_white(v1) && is_white(v2)) {
          // Anti-aliasing fringes (alpha fading to 0 across the triangle) are edges, not backgrounds.
          if (v0.col != v1.col || v1.col != v2.col || (v0.col >> IM_COL32_A_SHIFT) == 0) {
            extend = false;
            continue;
          }
          if (!extend || fills.empty() || fills.back().col != v0.col) fills.push_back(Fill{{}, v0.pos, v0.pos, v0.col});
          Fill& f = fills.back();
          for (const ImDrawVert* v : {&v0, &v1, &v2}) {
            f.tri.push_back(v->pos);
            f.lo = ImVec2(std::min(f.lo.x, v->pos.x), std::min(f.lo.y, v->pos.y));
            f.hi = ImVec2(std::max(f.hi.x, v->pos.x), std::max(f.hi.y, v->pos.y));
          }
          extend = true;
          continue;
        }
        extend = false;
        // A glyph's first triangle: corners 0, 1, 2 of its quad (the second, 0 2 3, finds no glyph).
        const auto it = by_uv.find(std::make_tuple(v0.uv.x, v0.uv.y, v2.uv.x, v2.uv.y));
        if (it == by_uv.end() || v1.uv.x != v2.uv.x || v1.uv.y != v0.uv.y) continue;
        const ImVec2 lo = v0.pos, hi = v2.pos;
        const ImVec4& c = cmd.ClipRect;
        if (hi.x <= c.x || lo.x >= c.z || hi.y <= c.y || lo.y >= c.w) continue;
        ImU32 back = background;
        const ImVec2 mid((lo.x + hi.x) * 0.5f, (lo.y + hi.y) * 0.5f);
        for (const Fill& f : fills) {
          if (f.lo.x > lo.x || f.lo.y > lo.y || f.hi.x < hi.x || f.hi.y < hi.y) continue;  // thinner than the glyph
          for (std::size_t t = 0; t + 2 < f.tri.size(); t += 3)
            if (inside(mid, f.tri[t], f.tri[t + 1], f.tri[t + 2])) {
              back = blend(f.col, back);
              break;
            }
        }
        const ImU32 text = blend(v0.col, back);
        const float ratio = ContrastRatio(text, back);
        if (out.min_ratio <= 0 || ratio < out.min_ratio)
          out = TextContrast{ratio, it->second->Codepoint, lo, text, back};
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
