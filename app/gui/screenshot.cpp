// Headless mode: ImGui with the OpenGL3 backend only (no platform backend: display size and time
// step are set here), drawn into HeadlessGl's FBO.
#include <GL/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>

#include "headless.hpp"
#include "main_window.hpp"
#include "modes.hpp"
#include "theme.hpp"

namespace ws::gui {

int run_screenshot(ui::AppState& s, ui::RunWorker& worker, const Options& o) {
  HeadlessGl gl;
  if (std::string err = gl.open(o.width, o.height); !err.empty()) {
    std::fprintf(stderr, "warpscope: headless rendering: %s\n", err.c_str());
    return 1;
  }
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(float(o.width), float(o.height));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  if (std::string warn = ui::theme().apply(o.font_scale > 0 ? o.font_scale : 1.f); !warn.empty())
    std::fprintf(stderr, "warpscope: %s\n", warn.c_str());
  if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
    std::fprintf(stderr, "warpscope: headless rendering: ImGui's OpenGL 3 loader failed (is libGL.so.1 installed?)\n");
    ImGui::DestroyContext();
    return 1;
  }
  install_gl_image_textures();
  // The picture must show the device line, so wait for the worker to open (or fail to open) it.
  if (!worker.wait_opened(std::chrono::seconds(60)))
    std::fprintf(stderr, "warpscope: the CUDA device did not open within 60 s; rendering without it\n");

  ui::MainWindow window;
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  for (int i = 0; i < o.frames; ++i) {
    ui::MainWindow::exchange(s, worker, reports_dir());
    io.DeltaTime = 1.f / 60.f;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    window.draw(s, io.DisplaySize);
    ImGui::Render();
    glViewport(0, 0, o.width, o.height);
    glClearColor(bg.x, bg.y, bg.z, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  glFinish();
  const std::string err = gl.save_png(o.screenshot);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui::DestroyContext();
  for (const auto& m : s.messages)
    if (m.level != ui::Message::Info) std::fprintf(stderr, "warpscope: %s\n", m.text.c_str());
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", err.c_str());
    return 1;
  }
  return 0;
}

}  // namespace ws::gui
