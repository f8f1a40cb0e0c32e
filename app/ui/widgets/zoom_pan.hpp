// Zoom and pan for the pictures that lay themselves out to fit their view (tree, warp grid, scan
// graph): zoom 1 is "fit"; the mouse wheel zooms about the pointer, dragging pans, a double click or
// Ctrl+0 fits again, Ctrl+= / Ctrl+- zoom about the centre. Ctrl with = - 0 sends no text to ImGui,
// so these never clash with the plain + / - text-size keys.
#pragma once
#include <imgui.h>

namespace ws::ui {

/// Where a picture is laid out this frame: `origin` and `size` in screen pixels (size = the visible
/// canvas times the zoom; origin moved by the pan), and the visible canvas itself.
struct ZoomCanvas {
  ImVec2 origin, size;
  ImVec2 visible_min, visible_max;
  float zoom = 1.f;
};

class ZoomPan {
 public:
  static constexpr float kMaxZoom = 8.f;
  /// Opens child window `id` of `size` (0 = the rest of the view, as BeginChild) without scroll bars,
  /// applies the keys and the last frame's mouse input, and returns where to draw. Call end() after drawing.
  ZoomCanvas begin(const char* id, ImVec2 size = ImVec2(0, 0));
  /// Handles the mouse over the canvas (wheel, drag, double click) and closes the child.
  void end();
  /// Back to "fit".
  void reset() { zoom_ = 1.f, pan_ = ImVec2(0, 0); }
  float zoom() const { return zoom_; }
  /// Zooms by `factor` keeping the point `at` (screen pixels) where it is.
  void zoom_about(float factor, ImVec2 at);

 private:
  void clamp_pan();
  float zoom_ = 1.f;
  ImVec2 pan_{0, 0};  ///< origin - visible_min, <= 0 on both axes
  ImVec2 vis_min_{0, 0}, vis_size_{0, 0};
};

/// One line for the views' captions: how to zoom and pan.
const char* ZoomHint();

}  // namespace ws::ui
