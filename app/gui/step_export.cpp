#include "step_export.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include "png_region.hpp"

namespace ws::gui {

std::string step_png_name(int step) {
  char name[32];
  std::snprintf(name, sizeof name, "step_%03d.png", step);
  return name;
}

std::string check_steps_folder(const std::string& dir, bool force) {
  std::error_code ec;
  if (force || !std::filesystem::is_directory(dir, ec)) return "";
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool step = name.size() >= 12 && name.rfind("step_", 0) == 0 && name.substr(name.size() - 4) == ".png";
    if (step || name == "steps.gif")
      return "--export-steps '" + dir + "' already holds " + name +
             ": it is kept (give --force to replace the step pictures, or another folder)";
  }
  return "";
}

void StepExporter::finish(controller::AppState& s, const std::string& error) {
  busy_ = s.perf.steps_busy = false;
  frames_.clear();
  s.trace.step = saved_step_;
  s.perf.steps_error = error;
  if (error.empty())
    s.message(controller::Message::Info,
              "exported " + std::to_string(steps_) + " steps to " + dir_ + " (PNG per step, steps.gif)");
  else
    s.message(controller::Message::Error, "step export: " + error);
}

void StepExporter::after_frame(controller::AppState& s, int fb_width, int fb_height, float fb_scale) {
  if (!busy_) {
    if (s.perf.steps_request.empty()) return;
    dir_ = s.perf.steps_request;
    s.perf.steps_request.clear();
    saved_step_ = s.trace.step;
    steps_ = s.trace.steps();
    busy_ = s.perf.steps_busy = true;
    if (steps_ == 0)
      return finish(
          s, "there is no trace to export" + (s.trace.why_none.empty() ? std::string() : ": " + s.trace.why_none));
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec || !std::filesystem::is_directory(dir_))
      return finish(s, "cannot create the folder " + dir_ + (ec ? ": " + ec.message() : ""));
    step_ = 0;
    s.trace.playing = false;
    s.trace.step = 0;  // the next frame draws step 0
    return;
  }
  const float* r = s.perf.png_rect;
  RgbFrame f;
  if (std::string err = read_region_rgb(int(r[0] * fb_scale), int(r[1] * fb_scale), int(r[2] * fb_scale),
                                        int(r[3] * fb_scale), fb_width, fb_height, f.w, f.h, f.rgb);
      !err.empty())
    return finish(s, err);
  const std::string png = (std::filesystem::path(dir_) / step_png_name(step_)).string();
  if (std::string err = write_png_atomic(png, f.w, f.h, f.rgb, controller::export_policy(s.perf)); !err.empty())
    return finish(s, err);
  frames_.push_back(std::move(f));
  if (++step_ < steps_) {
    s.trace.step = step_;
    return;
  }
  // --gif-fps, else the player's speed; GIF delays are whole centiseconds, and viewers slow any below 2.
  const float fps = s.perf.steps_gif_fps > 0 ? s.perf.steps_gif_fps : std::max(0.25f, s.trace.speed);
  const int delay_cs = std::max(2, int(100.f / fps + 0.5f));
  finish(s, write_gif_atomic((std::filesystem::path(dir_) / "steps.gif").string(), frames_, delay_cs,
                             controller::export_policy(s.perf)));
}

}  // namespace ws::gui
