// An ImGui context for tests without a window: what app/gui's window would set up before the first frame,
// so NewFrame/Render and every view run headless (the draw lists are built, nothing is uploaded).
#pragma once
#include <imgui.h>

#include "widgets/theme.hpp"

namespace ws::test {

/// Creates and makes current an ImGui context with no .ini file, a `width` x `height` pixel display, frames of
/// 1/60 s, warpscope's theme at text scale `scale` (ui::Theme::apply) and the font atlas built (a backend
/// would upload it). The caller destroys it (ImGui::DestroyContext).
inline void start_headless_imgui(float width, float height, float scale = 1.f) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(width, height);
  io.DeltaTime = 1.f / 60.f;
  ui::theme().apply(scale);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
}

}  // namespace ws::test
