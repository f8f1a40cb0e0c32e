// The look of warpscope: fonts sized for a projector, colours that carry meaning, and the one
// scale factor every size goes through (nothing is laid out in raw pixels).
#pragma once
#include <imgui.h>

#include <string>

#include "widgets/font_check.hpp"  // font_file_problem: a font is checked before ImGui is given it

namespace ws::ui {

/// Colours with a meaning; everything else comes from ImGui's style.
struct Palette {
  ImVec4 text, text_dim, accent, ok, lesson, bad, baseline, cpu;
  ImVec4 row_lesson, row_bad;  ///< faint row backgrounds for amber / red results
  ImVec4 badge_text;           ///< text drawn on a coloured badge
  // The views' pictures (the same in both themes; GetColorU32 applies the style's alpha as before):
  /// a cell or lane with nothing in it: a word not written, a warp not working
  ImVec4 cell_empty = ImVec4(0.25f, 0.27f, 0.31f, 1.f);
  /// a lane past the block's last thread (view_warps)
  ImVec4 cell_missing = ImVec4(0.12f, 0.13f, 0.15f, 1.f);
  /// a thread or node that does nothing in the step (race, scan, tree)
  ImVec4 thread_idle = ImVec4(0.32f, 0.35f, 0.40f, 1.f);
  /// a read in the race timeline
  ImVec4 race_read = ImVec4(0.20f, 0.42f, 0.75f, 1.f);
  /// the shadow under a lost update's mark (race timeline)
  ImVec4 race_mark = ImVec4(0.f, 0.f, 0.f, 0.45f);
  /// an edge of the scan graph
  ImVec4 graph_edge = ImVec4(0.6f, 0.62f, 0.66f, 0.5f);
  /// an edge of the scan ladder (a little stronger)
  ImVec4 graph_edge_ladder = ImVec4(0.6f, 0.62f, 0.66f, 0.6f);
  /// the band behind the tree's current level
  ImVec4 tree_highlight = ImVec4(0.30f, 0.64f, 1.f, 0.16f);
  /// a tree node's background
  ImVec4 tree_node_bg = ImVec4(0.16f, 0.17f, 0.20f, 1.f);
  /// the faint wash over a hovered card (widgets.cpp)
  ImVec4 hover_wash = ImVec4(1, 1, 1, 0.09f);
  // Colours drawn as ImU32 (no style alpha), the same in both themes:
  /// the presenter's pen and pointer ring (a saturated yellow, no status colour)
  ImU32 pen_ink = IM_COL32(255, 214, 0, 255);
  /// inside the presenter's pointer ring
  ImU32 pointer_fill = IM_COL32(255, 214, 0, 70);
  /// the "other" share of the stall bars
  ImU32 stall_other = IM_COL32(0x70, 0x74, 0x7C, 255);
  /// an atomics lane past the block's last thread
  ImU32 atomics_missing = IM_COL32(31, 33, 38, 255);
  /// an atomics lane that does nothing
  ImU32 atomics_idle = IM_COL32(64, 69, 79, 255);
  /// a convolution ghost cell (outside the input)
  ImU32 conv_ghost = IM_COL32(110, 110, 120, 255);
  /// a convolution cell no load touches
  ImU32 conv_unloaded = IM_COL32(45, 48, 56, 255);
  /// the plots' line colours, in order (SeriesColor)
  ImU32 series[10] = {IM_COL32(0x4D, 0xA3, 0xFF, 255), IM_COL32(0xFF, 0xB5, 0x2E, 255), IM_COL32(0x5B, 0xD7, 0x5B, 255),
                      IM_COL32(0xFF, 0x5A, 0x5A, 255), IM_COL32(0xC5, 0x9B, 0xFF, 255), IM_COL32(0x3F, 0xD6, 0xD0, 255),
                      IM_COL32(0xFF, 0x7E, 0xC8, 255), IM_COL32(0xE8, 0xE8, 0x5A, 255), IM_COL32(0xB0, 0xB8, 0xC4, 255),
                      IM_COL32(0xFF, 0x8C, 0x42, 255)};
  /// a warp's hue (0xRRGGBB) for tree nodes and labels, warp w takes warp_hues[w % 8] (WarpColor)
  unsigned warp_hues[8] = {0x4DA3FF, 0xFFB52E, 0x5BD75B, 0xC59BFF, 0xFF7F7F, 0x3FD0C9, 0xE8E05A, 0xF08BD0};
};

/// Fonts in the atlas (all non-null once apply() ran; ImGui's built-in font if DejaVu is missing).
struct Fonts {
  ImFont* regular = nullptr;
  ImFont* bold = nullptr;
  ImFont* mono = nullptr;
  ImFont* heading = nullptr;  ///< 1.3x regular, bold
};

/// Fonts, colours and sizes. One instance, set up before the renderer builds the font texture.
class Theme {
 public:
  static constexpr float kBaseFontPx = 20.f;  ///< body text at scale 1: readable from a lecture hall's back rows
  /// The smallest text any view draws, at scale 1 (28 px at the presentation's 2x): labels that do
  /// not fit at this size are left out (hover, or zoom in) rather than shrunk further.
  static constexpr float kMinTextPx = 14.f;
  /// Loads DejaVu from `font_dir` ("" = $WARPSCOPE_FONTS, else fonts-dejavu-core's folder) at
  /// kBaseFontPx * scale and styles ImGui (dark, high contrast).
  /// Returns "" or a one-line warning (DejaVuSans.ttf missing, empty or corrupt: ImGui's built-in font
  /// is used, scaled up; a bad bold or mono face: the regular one stands in).
  std::string apply(float scale, std::string font_dir = "");
  /// A size designed for the 20 px base font, in pixels at the current scale.
  float px(float at_base) const { return at_base * scale_; }
  ImVec2 px(float x, float y) const { return ImVec2(x * scale_, y * scale_); }
  float scale() const { return scale_; }
  /// kMinTextPx at the current scale.
  float min_text() const { return kMinTextPx * scale_; }
  const Palette& colors() const { return palette_; }
  const Fonts& fonts() const { return fonts_; }
  Palette& mutable_colors() { return palette_; }  ///< for SetHighContrast

 private:
  float scale_ = 1.f;
  Palette palette_{};
  Fonts fonts_{};
};

/// kMinTextPx as a fraction of the body text: the least a view may scale its text down to fit.
inline constexpr float kMinTextFraction = Theme::kMinTextPx / Theme::kBaseFontPx;

/// High contrast for washed-out projectors: black background, white text, yellow accents, thicker
/// borders (presentation mode). Switching off restores the colours apply() set. Call between frames.
void SetHighContrast(bool on);
bool HighContrast();

/// The WCAG contrast ratio of two opaque colours, 1 (same luminance) to 21 (black on white).
float ContrastRatio(ImU32 a, ImU32 b);
/// The text colour for a label drawn on `fill`: the palette's badge text (near black) or white, whichever
/// contrasts more (white on the slate of a cell not written, near black on the warp colours): >= 7:1 on
/// every fill the views use.
ImU32 TextOn(ImU32 fill);

/// `fill` (opaque) lightened or darkened just enough that TextOn(fill) contrasts with it 7:1 or more
/// (WCAG AAA), so a value printed in a coloured box reads from the back row; unchanged when it already does.
ImU32 Legible(ImU32 fill);

/// The theme in use (views read it; main() applies it once).
Theme& theme();

}  // namespace ws::ui
