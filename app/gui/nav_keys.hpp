// The step and scene keys, queued as they are pressed (shared by the desktop window and the browser page).
#pragma once

struct GLFWwindow;

namespace ws::gui {

/// GLFW key callback: queues every press and auto-repeat of the step and scene keys (arrows, Page Up/Down,
/// F1, Escape) into the controller::AppState that is the window's user pointer. ImGui 1.86 keeps only whether a key
/// is down, so a press and release within one frame (a quick clicker, a busy frame) would be lost; install
/// it before ImGui's key callback, which then chains to it.
void queue_nav_key(GLFWwindow* win, int key, int scancode, int action, int mods);

}  // namespace ws::gui
