// The high-contrast theme (theme.hpp: SetHighContrast): projector colours over the normal theme,
// which is saved on the way in and restored on the way out.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "widgets/theme.hpp"

namespace ws::ui {

namespace {

struct SavedStyle {
  bool saved = false;
  ImGuiStyle style;
  Palette palette;
};
SavedStyle& saved() {
  static SavedStyle s;
  return s;
}
bool g_high_contrast = false;

ImVec4 rgb(int hex, float a = 1.f) {
  return ImVec4(((hex >> 16) & 0xff) / 255.f, ((hex >> 8) & 0xff) / 255.f, (hex & 0xff) / 255.f, a);
}

}  // namespace

void SetHighContrast(bool on) {
  SavedStyle& sv = saved();
  if (on && !g_high_contrast) {
    sv.style = ImGui::GetStyle();
    sv.palette = theme().colors();
    sv.saved = true;
    Palette& p = theme().mutable_colors();
    p.text = rgb(0xFFFFFF);
    p.text_dim = rgb(0xD8DDE6);
    p.accent = rgb(0x00D0FF);
    p.ok = rgb(0x3CFF3C);
    p.lesson = rgb(0xFFD400);
    p.bad = rgb(0xFF8C8C);  // 9.4:1 on black, 7:1 on a highlighted row (0xFF4040 was 6:1 on black)
    p.baseline = rgb(0x9CCBFF);
    p.cpu = rgb(0xE0B8FF);
    ImGuiStyle& st = ImGui::GetStyle();
    ImVec4* c = st.Colors;
    c[ImGuiCol_Text] = p.text;
    c[ImGuiCol_TextDisabled] = p.text_dim;
    c[ImGuiCol_WindowBg] = c[ImGuiCol_ChildBg] = rgb(0x000000);
    c[ImGuiCol_PopupBg] = rgb(0x101010);
    c[ImGuiCol_Border] = rgb(0xFFFFFF, 0.7f);
    c[ImGuiCol_FrameBg] = rgb(0x1A1A1A);
    c[ImGuiCol_Button] = rgb(0x0050A0);
    c[ImGuiCol_Tab] = rgb(0x202020);
    c[ImGuiCol_TabActive] = rgb(0x0050A0);  // white on it 7.9:1 (on 0x0060C0 it was 6.1:1)
    c[ImGuiCol_TableRowBgAlt] = rgb(0xFFFFFF, 0.07f);
    c[ImGuiCol_TableBorderLight] = rgb(0x808080);
    st.ChildBorderSize = std::max(2.f, st.ChildBorderSize);
    st.FrameBorderSize = 1.f;
  } else if (!on && g_high_contrast && sv.saved) {
    ImGui::GetStyle() = sv.style;
    theme().mutable_colors() = sv.palette;
  }
  g_high_contrast = on;
}

bool HighContrast() { return g_high_contrast; }

namespace {
/// Relative luminance (WCAG 2) of an sRGB colour packed as ImU32.
float luminance(ImU32 c) {
  auto lin = [](unsigned v) {
    const float x = float(v & 0xff) / 255.f;
    return x <= 0.03928f ? x / 12.92f : std::pow((x + 0.055f) / 1.055f, 2.4f);
  };
  return 0.2126f * lin(c >> IM_COL32_R_SHIFT) + 0.7152f * lin(c >> IM_COL32_G_SHIFT) +
         0.0722f * lin(c >> IM_COL32_B_SHIFT);
}
}  // namespace

float ContrastRatio(ImU32 a, ImU32 b) {
  const float la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05f) / (std::min(la, lb) + 0.05f);
}

ImU32 TextOn(ImU32 fill) {
  const ImU32 dark = ImGui::ColorConvertFloat4ToU32(theme().colors().badge_text), light = IM_COL32_WHITE;
  return ContrastRatio(dark, fill) >= ContrastRatio(light, fill) ? dark : light;
}

ImU32 Legible(ImU32 fill) {
  const ImU32 dark = ImGui::ColorConvertFloat4ToU32(theme().colors().badge_text);
  const bool light_text = ContrastRatio(IM_COL32_WHITE, fill) > ContrastRatio(dark, fill);
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(fill);
  const float to = light_text ? 0.f : 1.f;  // darken under white text, lighten under dark text
  for (int k = 0; k <= 20; ++k) {
    const float t = float(k) / 20.f;
    const ImU32 f =
        ImGui::ColorConvertFloat4ToU32(ImVec4(c.x + (to - c.x) * t, c.y + (to - c.y) * t, c.z + (to - c.z) * t, 1.f));
    if (ContrastRatio(TextOn(f), f) >= 7.f) return f;
  }
  return light_text ? IM_COL32_BLACK : IM_COL32_WHITE;
}

}  // namespace ws::ui
