// What the centre view laid out in the last frame, in screen pixels: the rectangle it was given, the
// extent of each picture it drew and the smallest text size it used. Views fill it while drawing; the
// GUI tests read it to check that pictures fit their view and that no text is too small for a
// lecture hall (no pixels are read back, so the checks run without a GPU or a window).
#pragma once
#include <imgui.h>

#include <map>
#include <string>
#include <vector>

namespace ws::ui {

/// An axis-aligned rectangle in screen pixels.
struct ProbeRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float width() const { return x1 - x0; }
  float height() const { return y1 - y0; }
  /// Whether `inner` lies inside this rectangle (with `slack` pixels of tolerance for rounding).
  bool contains(const ProbeRect& inner, float slack = 0.5f) const;
};

/// A text a view placed itself, and the box it covers (with its backing, if any).
struct ProbeLabel {
  std::string text;
  ProbeRect box;
};

/// Per frame: main_window resets it and names the view; the view records its pictures and texts.
struct LayoutProbe {
  std::string view;                           ///< the centre tab drawn ("tree", "warps", ...)
  ProbeRect region;                           ///< what the view may show without scrolling (its visible clip)
  std::map<std::string, ProbeRect> pictures;  ///< named pictures ("tree", "warp grid", ...) and their full extent
  std::map<std::string, int> counts;          ///< named counts the views report (labels drawn, rows, ...)
  float min_text_px = 0;                      ///< smallest text size drawn this frame (0 = none yet)
  std::vector<ProbeLabel> labels;             ///< texts placed by a picture (a plot's), which must not overlap

  void reset(const std::string& view_name);
  /// Notes text drawn at `px` pixels.
  void text(float px) { min_text_px = min_text_px <= 0 ? px : (px < min_text_px ? px : min_text_px); }
  /// Records (or widens) picture `name` to cover [a, b].
  void picture(const std::string& name, ImVec2 a, ImVec2 b);
  /// Records a text placed at [a, b].
  void label(const std::string& text, ImVec2 a, ImVec2 b);
};

/// The smallest text of a frame as a viewer sees it: measured from the glyphs in its draw lists, not from
/// the sizes views asked for, so text drawn by ImGui's own widgets (tables, the Source view, buttons) counts.
struct DrawnText {
  float min_cap_px = 0;    ///< smallest cap height drawn (the height of an 'H' at the glyph's size), 0 = no glyph
  unsigned codepoint = 0;  ///< a glyph of that size
  ImVec2 where;            ///< its top-left on screen
  int glyphs = 0;          ///< glyphs measured
};

/// The cap height in pixels of `font` drawn at `size_px`: its rasterised 'H' scaled (0 without an 'H').
float cap_height_px(const ImFont& font, float size_px);

/// Finds every glyph quad of `atlas`'s fonts in `dd` (ImFont::RenderText writes 4 vertices whose UVs are the
/// glyph's corners in the atlas), skipping those wholly outside their clip rectangle or outside `within`
/// (an empty rectangle = the whole frame), and returns the smallest cap height drawn: a quad's height over
/// its glyph's height in the font, times the font's cap height. Glyphs cut by the CPU (ImGui does that only
/// in multi-line text fields) lose their corner UVs and are not counted.
DrawnText measure_drawn_text(const ImDrawData& dd, const ImFontAtlas& atlas, ProbeRect within = {});

/// The least contrasting text of a frame, as drawn.
struct TextContrast {
  float min_ratio = 0;       ///< WCAG contrast of the worst glyph against what lies under it, 0 = no glyph
  unsigned codepoint = 0;    ///< that glyph
  ImVec2 where;              ///< its top-left on screen
  ImU32 text = 0, back = 0;  ///< its colour and its background's, both opaque
};

/// For every glyph quad of `atlas`'s fonts in `dd`: its colour blended over what its draw list filled under
/// it before, over `background`; returns the glyph whose WCAG contrast is the lowest. A fill is a run of
/// solid triangles (the atlas' white pixel) of one colour: a rectangle, a rounded box's fan; it counts where
/// its extent covers the whole glyph (lines thinner than the glyph do not) and one of its triangles holds the
/// glyph's centre. Each window's draw list starts from `background` (the high-contrast windows are black);
/// images (other textures) are not seen.
TextContrast measure_text_contrast(const ImDrawData& dd, const ImFontAtlas& atlas, ImU32 background);

/// The probe of the running GUI (one window, one probe).
LayoutProbe& layout_probe();

/// ImDrawList::AddText at `size` pixels, noted in the probe: every text a view draws itself goes through here.
void DrawText(ImDrawList* dl, ImFont* font, float size, ImVec2 pos, ImU32 color, const char* text);

}  // namespace ws::ui
