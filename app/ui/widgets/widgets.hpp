// Tiny ImGui helpers shared by the views, instead of the same boilerplate in every file.
#pragma once
#include <imgui.h>

#include <string>

namespace ws::ui {

/// Text right-aligned in the rest of the current line / table cell.
void TextRight(const std::string& text);
/// Text in a colour, wrapped at the window's right edge.
void TextWrappedColored(const ImVec4& color, const std::string& text);
/// Dim text (TextDisabled style), wrapped when `wrap`.
void TextDim(const std::string& text, bool wrap = false);
/// A section title: small bold capitals in the dim colour, then a thin separator.
void SectionTitle(const char* title);
/// A small rounded tag with dark text on `color` (e.g. "racy", "baseline"); stays on the line.
void Badge(const char* label, const ImVec4& color);
/// Width Badge() takes for `label`, spacing included.
float BadgeWidth(const char* label);
/// Wrapped prose in which `code spans` are drawn in the mono font on a faint background (lesson
/// texts use them for expressions like `*sum += x`). Blank lines separate paragraphs.
void TextRich(const std::string& text, const ImVec4* color = nullptr);
/// Text cut to `max_width` pixels with a trailing "…" when it is longer; returns true if it was cut.
bool TextEllipsis(const std::string& text, float max_width, const ImVec4* color = nullptr);
/// A wrapped tooltip for the last item when it is hovered (ImGui 1.86 has no BeginItemTooltip).
void ItemTooltip(const std::string& text);
/// "label  value" on one line with the label dim and the value in the body colour.
void LabelValue(const char* label, const std::string& value);
/// A legend entry on the current line: a square of `color` (0.8 of the font size), the label, then room
/// for the next entry (SameLine).
void LegendSwatch(ImU32 color, const char* label);
/// After SameLine(): starts a new line when an item `width` pixels wide would not fit the rest of this one
/// (legends and counters wrap in a narrow view instead of running past its edge).
void WrapUnlessFits(float width);

}  // namespace ws::ui

namespace ws::ui {
/// SameLine() when an item `next_width` pixels wide still fits on the current line, else a new line
/// (control rows wrap at large font scales instead of running off the window).
void SameLineIfFits(float next_width, float spacing = -1.f);
/// Width of a button labelled `label`.
float ButtonWidth(const char* label);
/// Handout pictures (--export-view, --export-steps): while on, the views draw their content only, no
/// controls (buttons, sliders, step player, checkboxes, hints); MainWindow::draw sets it every frame from
/// Presentation::handout.
void SetHandout(bool on);
/// Whether the frame being built is a handout picture (see SetHandout).
bool Handout();
}  // namespace ws::ui
