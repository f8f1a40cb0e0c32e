#include "nav_keys.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app_state.hpp"

namespace ws::gui {

void queue_nav_key(GLFWwindow* win, int key, int /*scancode*/, int action, int /*mods*/) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  auto* s = static_cast<ui::AppState*>(glfwGetWindowUserPointer(win));
  if (!s) return;
  switch (key) {
    case GLFW_KEY_LEFT: s->nav_keys.push_back(ui::NavKey::Left); break;
    case GLFW_KEY_RIGHT: s->nav_keys.push_back(ui::NavKey::Right); break;
    case GLFW_KEY_PAGE_UP: s->nav_keys.push_back(ui::NavKey::PageUp); break;
    case GLFW_KEY_PAGE_DOWN: s->nav_keys.push_back(ui::NavKey::PageDown); break;
    case GLFW_KEY_F1: s->nav_keys.push_back(ui::NavKey::Help); break;
    case GLFW_KEY_ESCAPE: s->nav_keys.push_back(ui::NavKey::Escape); break;
    default: break;
  }
}

}  // namespace ws::gui
