// Exporting a step sequence for slides: the centre view at every step of the current trace, one PNG
// per step (step_000.png, ...) and an animated GIF of them all (steps.gif), played at
// PerfState::steps_gif_fps (--gif-fps) or else the player's speed. Driven one frame at a time by the
// window and the headless renderer.
#pragma once
#include <string>
#include <vector>

#include "app_state.hpp"
#include "gif_write.hpp"

namespace ws::gui {

/// File name of step k's PNG inside the export folder: "step_007.png" (at least three digits).
std::string step_png_name(int step);

/// Checks a step export's folder before it starts: unless `force`, it must not hold a step picture
/// (step_NNN.png) or steps.gif already, which the export would replace. Returns "" or one line.
std::string check_steps_folder(const std::string& dir, bool force);

class StepExporter {
 public:
  /// Call after a frame was rendered, with its pixels in the bound read buffer. Starts the export that
  /// s.perf.steps_request asks for (a folder, created if missing; the steps of s.trace), or saves
  /// the step the frame showed and moves the trace to the next one; after the last step writes the
  /// GIF and puts the trace back where it was. Outcome: a message, and s.perf.steps_error ("" = all
  /// written). `fb_scale` converts ImGui coordinates to framebuffer pixels.
  void after_frame(controller::AppState& s, int fb_width, int fb_height, float fb_scale);
  /// An export is under way (frames still to render).
  bool busy() const { return busy_; }

 private:
  void finish(controller::AppState& s, const std::string& error);
  bool busy_ = false;
  std::string dir_;
  int step_ = 0, steps_ = 0, saved_step_ = 0;
  std::vector<RgbFrame> frames_;
};

}  // namespace ws::gui
