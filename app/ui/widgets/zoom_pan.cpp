#include "widgets/zoom_pan.hpp"

#include <algorithm>

namespace ws::ui {

namespace {
// ImGui 1.86's GLFW backend indexes io.KeysDown by GLFW key codes.
constexpr int kKeyEqual = 61, kKeyMinus = 45, kKey0 = 48, kKeyKpAdd = 334, kKeyKpSubtract = 333, kKeyKp0 = 320;
constexpr float kStep = 1.25f;
}  // namespace

const char* ZoomHint() { return "wheel or Ctrl+= / Ctrl+- zoom, drag pans, Ctrl+0 or double click fits"; }

void ZoomPan::zoom_about(float factor, ImVec2 at) {
  const float z = std::clamp(zoom_ * factor, 1.f, kMaxZoom);
  if (z == zoom_) return;
  // The picture point under `at` stays under it: origin' = at - (at - origin) * z / zoom.
  const ImVec2 origin(vis_min_.x + pan_.x, vis_min_.y + pan_.y);
  const float k = z / zoom_;
  pan_ = ImVec2(at.x - (at.x - origin.x) * k - vis_min_.x, at.y - (at.y - origin.y) * k - vis_min_.y);
  zoom_ = z;
  clamp_pan();
}

void ZoomPan::clamp_pan() {
  pan_.x = std::clamp(pan_.x, -vis_size_.x * (zoom_ - 1.f), 0.f);
  pan_.y = std::clamp(pan_.y, -vis_size_.y * (zoom_ - 1.f), 0.f);
}

ZoomCanvas ZoomPan::begin(const char* id, ImVec2 size) {
  ImGui::BeginChild(id, size, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  vis_min_ = p, vis_size_ = ImVec2(std::max(avail.x, 1.f), std::max(avail.y, 1.f));
  const ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl && !io.WantTextInput) {
    const ImVec2 centre(vis_min_.x + vis_size_.x * 0.5f, vis_min_.y + vis_size_.y * 0.5f);
    if (ImGui::IsKeyPressed(kKeyEqual) || ImGui::IsKeyPressed(kKeyKpAdd)) zoom_about(kStep, centre);
    if (ImGui::IsKeyPressed(kKeyMinus) || ImGui::IsKeyPressed(kKeyKpSubtract)) zoom_about(1.f / kStep, centre);
    if (ImGui::IsKeyPressed(kKey0, false) || ImGui::IsKeyPressed(kKeyKp0, false)) reset();
  }
  clamp_pan();
  ZoomCanvas c;
  c.zoom = zoom_;
  c.visible_min = vis_min_;
  c.visible_max = ImVec2(vis_min_.x + vis_size_.x, vis_min_.y + vis_size_.y);
  c.origin = ImVec2(vis_min_.x + pan_.x, vis_min_.y + pan_.y);
  c.size = ImVec2(vis_size_.x * zoom_, vis_size_.y * zoom_);
  return c;
}

void ZoomPan::end() {
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsWindowHovered()) {
    if (io.MouseWheel != 0) zoom_about(io.MouseWheel > 0 ? kStep : 1.f / kStep, io.MousePos);
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) reset();
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.f) && zoom_ > 1.f) {
      pan_.x += io.MouseDelta.x, pan_.y += io.MouseDelta.y;
      clamp_pan();
    }
  }
  ImGui::EndChild();
}

}  // namespace ws::ui
