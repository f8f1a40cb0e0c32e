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
