#include "gl_recovery.hpp"

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <thread>

namespace ws::gui {

namespace {
// Why, as measured on H100 and H200 (driver 580.159.04): docs/device/gl-after-fault.md.
constexpr const char* kWhy =
    "NVIDIA's driver does this to drawing beside CUDA work on a GPU where a kernel has faulted before "
    "(dmesg: Xid 109 CTX SWITCH TIMEOUT, or Xid 31 at address 0)";
}  // namespace

GlRecovery::GlRecovery() {
  if (const char* frames = std::getenv("WARPSCOPE_TEST_GL_RESET_AT_FRAMES")) {
    std::istringstream in(frames);
    for (std::string item; std::getline(in, item, ',');) {
      char* end = nullptr;
      const long f = std::strtol(item.c_str(), &end, 10);
      if (end != item.c_str() && *end == '\0' && f >= 0) test_frames_.insert(f);
    }
  }
}

std::string GlRecovery::check(const std::string& driver_status) {
  const long frame = frame_++;
  if (!driver_status.empty()) return driver_status;
  if (test_frames_.count(frame))
    return "the GPU reset this OpenGL context (a test's reset, frame " + std::to_string(frame) + ")";
  return "";
}

bool GlRecovery::may_recover() {
  const auto now = std::chrono::steady_clock::now();
  while (!resets_.empty() && now - resets_.front() > kWindow) resets_.pop_front();
  if (int(resets_.size()) >= kMaxResets) return false;
  resets_.push_back(now);
  return true;
}

bool GlRecovery::stop_live(controller::AppState& s, const std::function<void()>& pump) {
  const bool was_on = s.perf.live_wanted || s.perf.live_running;
  s.perf.live_wanted = false;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (s.perf.live_running && std::chrono::steady_clock::now() < until) {
    pump();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return was_on;
}

void GlRecovery::recovered(controller::AppState& s, const std::string& reset, const std::string& now_on, bool same_gpu,
                           bool live_was_on) {
  std::string text = reset + "; " + kWhy + ". Drawing again in a new context on " + now_on + ".";
  if (live_was_on && same_gpu)
    text += " Live is paused (it draws beside CUDA work): press Live to go on.";
  else if (live_was_on)
    s.perf.live_wanted = true;  // another GPU draws: Live goes on
  s.message(controller::Message::Warning, text);
}

std::string GlRecovery::give_up(controller::AppState& s, const std::string& reset) {
  std::string error;
  const std::string saved = autosave_session(s, error);
  const std::string where =
      saved.empty() ? "the session was not saved (" + error + ")" : "the session is saved to " + saved;
  return reset + " " + std::to_string(kMaxResets) + " times within a minute (" + kWhy + "): " + where +
         ". Restart warpscope with __GLX_VENDOR_LIBRARY_NAME=mesa (Mesa draws without the GPU), or have the GPU "
         "reset (nvidia-smi -r, as administrator); warpscope-cli runs everything without a picture.";
}

std::string autosave_session(controller::AppState& s, std::string& error) {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    dir = fs::path(xdg) / "warpscope" / "autosave";
  else if (const char* home = std::getenv("HOME"); home && *home)
    dir = fs::path(home) / ".local" / "share" / "warpscope" / "autosave";
  else {
    error = "neither XDG_DATA_HOME nor HOME is set";
    return "";
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    error = "cannot create " + dir.string() + ": " + ec.message();
    return "";
  }
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  const std::string path = (dir / ("session-" + std::string(stamp) + ".json")).string();
  error = s.save_session(path);
  return error.empty() ? path : "";
}

}  // namespace ws::gui
