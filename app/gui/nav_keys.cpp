#include "nav_keys.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app_state.hpp"

namespace ws::gui {

void queue_nav_key(GLFWwindow* win, int key, int /*scancode*/, int action, int /*mods*/) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  auto* s = static_cast<controller::AppState*>(glfwGetWindowUserPointer(win));
  if (!s) return;
  switch (key) {
    case GLFW_KEY_LEFT: s->nav_keys.push_back(controller::NavKey::Left); break;
    case GLFW_KEY_RIGHT: s->nav_keys.push_back(controller::NavKey::Right); break;
    case GLFW_KEY_PAGE_UP: s->nav_keys.push_back(controller::NavKey::PageUp); break;
    case GLFW_KEY_PAGE_DOWN: s->nav_keys.push_back(controller::NavKey::PageDown); break;
    case GLFW_KEY_F1: s->nav_keys.push_back(controller::NavKey::Help); break;
    case GLFW_KEY_ESCAPE: s->nav_keys.push_back(controller::NavKey::Escape); break;
    default: break;
  }
}

}  // namespace ws::gui
