// Bottom line: the device (or "no CUDA device: simulation and replay"), the backend, and where the
// report on screen comes from (this session, or a file and the device it was recorded on).
#pragma once
#include "app_state.hpp"

namespace ws::ui {

class StatusBar {
 public:
  /// Height the bar needs at the current font and scale.
  static float height();
  /// Draws into the current window (a child of height()).
  void draw(const controller::AppState& s);
};

/// The device part of the status line, e.g. "NVIDIA H200 · 132 SMs · peak 4814 GB/s · copy 4214 GB/s".
std::string device_summary(const DeviceInfo& d);

}  // namespace ws::ui
