// The high-contrast theme (theme.hpp: SetHighContrast): projector colours over the normal theme,
// which is saved on the way in and restored on the way out.
#include <imgui.h>

#include <algorithm>

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
    p.bad = rgb(0xFF4040);
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
    c[ImGuiCol_TabActive] = rgb(0x0060C0);
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

}  // namespace ws::ui
