// What the centre view laid out in the last frame, in screen pixels: the rectangle it was given, the
// extent of each picture it drew and the smallest text size it used. Views fill it while drawing; the
// GUI tests read it to check that pictures fit their view and that no text is too small for a
// lecture hall (no pixels are read back, so the checks run without a GPU or a window).
#pragma once
#include <imgui.h>

#include <map>
#include <string>

namespace ws::ui {

/// An axis-aligned rectangle in screen pixels.
struct ProbeRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float width() const { return x1 - x0; }
  float height() const { return y1 - y0; }
  /// Whether `inner` lies inside this rectangle (with `slack` pixels of tolerance for rounding).
  bool contains(const ProbeRect& inner, float slack = 0.5f) const;
};

/// Per frame: main_window resets it and names the view; the view records its pictures and texts.
struct LayoutProbe {
  std::string view;                           ///< the centre tab drawn ("tree", "warps", ...)
  ProbeRect region;                           ///< what the view may show without scrolling (its visible clip)
  std::map<std::string, ProbeRect> pictures;  ///< named pictures ("tree", "warp grid", ...) and their full extent
  std::map<std::string, int> counts;          ///< named counts the views report (labels drawn, rows, ...)
  float min_text_px = 0;                      ///< smallest text size drawn this frame (0 = none yet)

  void reset(const std::string& view_name);
  /// Notes text drawn at `px` pixels.
  void text(float px) { min_text_px = min_text_px <= 0 ? px : (px < min_text_px ? px : min_text_px); }
  /// Records (or widens) picture `name` to cover [a, b].
  void picture(const std::string& name, ImVec2 a, ImVec2 b);
};

/// The probe of the running GUI (one window, one probe).
LayoutProbe& layout_probe();

/// ImDrawList::AddText at `size` pixels, noted in the probe: every text a view draws itself goes through here.
void DrawText(ImDrawList* dl, ImFont* font, float size, ImVec2 pos, ImU32 color, const char* text);

}  // namespace ws::ui
