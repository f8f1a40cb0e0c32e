#include "widgets/theme.hpp"

#include "widgets/font_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace ws::ui {

namespace {

ImVec4 rgb(int hex, float a = 1.f) {
  return ImVec4(((hex >> 16) & 0xff) / 255.f, ((hex >> 8) & 0xff) / 255.f, (hex & 0xff) / 255.f, a);
}

/// Loads the font at `path`, or returns nullptr and says why in `why` ("" when the file is absent).
ImFont* load(ImGuiIO& io, const std::string& path, float size_px, std::string& why) {
  why.clear();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return nullptr;
  // ImGui asserts (and aborts, even in Release) on a font it cannot parse: check it first.
  if (why = font_file_problem(path); !why.empty()) return nullptr;
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  ImFont* f = io.Fonts->AddFontFromFileTTF(path.c_str(), size_px, &cfg, kFontGlyphRanges);
  if (!f) why = "ImGui could not read it";
  return f;
}

}  // namespace

Theme& theme() {
  static Theme t;
  return t;
}

std::string Theme::apply(float scale, std::string font_dir) {
  if (font_dir.empty()) {
    const char* env = std::getenv("WARPSCOPE_FONTS");
    font_dir = env && *env ? env : "/usr/share/fonts/truetype/dejavu";
  }
  scale_ = std::clamp(scale, 0.5f, 4.f);
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float base = kBaseFontPx * scale_;
  std::string warning, why;
  const std::string regular_path = font_dir + "/DejaVuSans.ttf";
  fonts_.regular = load(io, regular_path, base, why);
  if (!fonts_.regular) {
    // The built-in font is a 13 px bitmap: scale it up rather than leave the hall unable to read.
    ImFontConfig cfg;
    cfg.SizePixels = 13.f;
    fonts_.regular = io.Fonts->AddFontDefault(&cfg);
    io.FontGlobalScale = base / 13.f;
    warning = "font " + regular_path + (why.empty() ? " not found" : " cannot be used (" + why + ")") +
              ": using ImGui's built-in font (reinstall fonts-dejavu-core or set WARPSCOPE_FONTS)";
    // The other faces would be drawn at base size under a global scale meant for the 13 px font.
    fonts_.bold = fonts_.mono = fonts_.heading = nullptr;
  } else {
    io.FontGlobalScale = 1.f;
    const auto extra = [&](const char* file, float px) {
      ImFont* f = load(io, font_dir + "/" + file, px, why);
      if (!why.empty() && warning.empty())
        warning = "font " + font_dir + "/" + file + " cannot be used (" + why + "): using DejaVuSans.ttf in its place";
      return f;
    };
    fonts_.bold = extra("DejaVuSans-Bold.ttf", base);
    fonts_.mono = extra("DejaVuSansMono.ttf", base);
    fonts_.heading = extra("DejaVuSans-Bold.ttf", base * 1.3f);
  }
  if (!fonts_.bold) fonts_.bold = fonts_.regular;
  if (!fonts_.mono) fonts_.mono = fonts_.regular;
  if (!fonts_.heading) fonts_.heading = fonts_.bold;
  io.FontDefault = fonts_.regular;

  // Dark and high-contrast: white text on near-black survives a washed-out projector.
  palette_.text = rgb(0xF2F4F8);
  palette_.text_dim = rgb(0xA9B1BD);
  palette_.accent = rgb(0x4DA3FF);
  palette_.ok = rgb(0x5BD75B);
  palette_.lesson = rgb(0xFFB52E);
  palette_.bad = rgb(0xFF5A5A);
  palette_.baseline = rgb(0x7FB8FF);
  palette_.cpu = rgb(0xC59BFF);
  palette_.row_lesson = rgb(0xFFB52E, 0.13f);
  palette_.row_bad = rgb(0xFF5A5A, 0.15f);
  palette_.badge_text = rgb(0x111318);

  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = palette_.text;
  c[ImGuiCol_TextDisabled] = palette_.text_dim;
  c[ImGuiCol_WindowBg] = rgb(0x15171C);
  c[ImGuiCol_ChildBg] = rgb(0x15171C);
  c[ImGuiCol_PopupBg] = rgb(0x1E2128);
  c[ImGuiCol_MenuBarBg] = rgb(0x1E2128);
  c[ImGuiCol_Border] = rgb(0x3A404C);
  c[ImGuiCol_FrameBg] = rgb(0x262A33);
  c[ImGuiCol_FrameBgHovered] = rgb(0x323846);
  c[ImGuiCol_FrameBgActive] = rgb(0x3A4252);
  c[ImGuiCol_Button] = rgb(0x2D5C95);
  c[ImGuiCol_ButtonHovered] = rgb(0x3A72B5);
  c[ImGuiCol_ButtonActive] = rgb(0x4484CC);
  c[ImGuiCol_Header] = rgb(0x2A4E7A);
  c[ImGuiCol_HeaderHovered] = rgb(0x31598A);
  c[ImGuiCol_HeaderActive] = rgb(0x3A6AA3);
  c[ImGuiCol_Tab] = rgb(0x22262E);
  c[ImGuiCol_TabHovered] = rgb(0x3A72B5);
  c[ImGuiCol_TabActive] = rgb(0x2D5C95);
  c[ImGuiCol_TableHeaderBg] = rgb(0x232730);
  c[ImGuiCol_TableRowBgAlt] = rgb(0xFFFFFF, 0.03f);
  c[ImGuiCol_TableBorderStrong] = rgb(0x3A404C);
  c[ImGuiCol_TableBorderLight] = rgb(0x2C313B);
  c[ImGuiCol_PlotHistogram] = rgb(0x4DA3FF);
  c[ImGuiCol_Separator] = rgb(0x3A404C);
  c[ImGuiCol_CheckMark] = rgb(0x8CC4FF);
  c[ImGuiCol_SliderGrab] = rgb(0x4DA3FF, 0.45f);  // the value is drawn over it
  c[ImGuiCol_SliderGrabActive] = rgb(0x8CC4FF);
  style.WindowRounding = 0.f;
  style.ChildRounding = 3.f;
  style.FrameRounding = 3.f;
  style.GrabRounding = 3.f;
  style.TabRounding = 3.f;
  style.PopupRounding = 3.f;
  style.WindowBorderSize = 0.f;
  style.ChildBorderSize = 1.f;
  style.FrameBorderSize = 0.f;
  style.WindowPadding = ImVec2(8, 8);
  style.FramePadding = ImVec2(6, 4);
  style.ItemSpacing = ImVec2(9, 6);
  style.ItemInnerSpacing = ImVec2(6, 4);
  style.CellPadding = ImVec2(7, 4);
  style.IndentSpacing = 18.f;
  style.ScrollbarSize = 15.f;
  style.GrabMinSize = 12.f;
  // The sizes above are for the 20 px base font at scale 1.
  style.ScaleAllSizes(scale_);
  ImGui::GetStyle() = style;
  return warning;
}

}  // namespace ws::ui
