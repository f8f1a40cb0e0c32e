// What a GPU reset of the picture's OpenGL context costs a session (issue 24): the window and the headless
// renderer make a new context and keep drawing; after too many resets they save the session and say what to
// do, in one line. Why NVIDIA's driver resets it: docs/device/gl-after-fault.md.
#pragma once
#include <chrono>
#include <deque>
#include <functional>
#include <set>
#include <string>

#include "app_state.hpp"

namespace ws::gui {

/// Counts a session's GL resets and says what each one means. Not thread-safe: the render thread owns it.
class GlRecovery {
 public:
  /// Reads WARPSCOPE_TEST_GL_RESET_AT_FRAMES ("3,7": frames 3 and 7 (0-based, counted by check) report a
  /// reset as if the driver had), the tests' way to reach the recovery path on any GL driver.
  GlRecovery();
  /// After each frame: `driver_status` is the context's reset line ("" = none). Returns the reset to act
  /// on ("" = the frame is good), the driver's or the test hook's.
  std::string check(const std::string& driver_status);
  /// Whether one more recovery is allowed (at most kMaxResets within kWindow), and counts it.
  bool may_recover();
  /// Before a new context is made: stops Live and calls `pump` (the app's exchange with its worker) until the
  /// worker says Live stopped, at most 3 s. A GL context that lives through CUDA work on a GPU where a kernel
  /// faulted is reset again (docs/device/gl-after-fault.md), so the new one is made once that work is over.
  /// Returns whether Live was on.
  static bool stop_live(controller::AppState& s, const std::function<void()>& pump);
  /// Tells the session once per reset, in the status bar: what happened, why (as far as known), where the
  /// picture is drawn now (`now_on`, the new context's renderer). Live (when `live_was_on`) goes on when the
  /// new context is on another GPU; on the same GPU (`same_gpu`) it stays paused and the message says so.
  void recovered(controller::AppState& s, const std::string& reset, const std::string& now_on, bool same_gpu,
                 bool live_was_on);
  /// No context can draw any more: saves the session (autosave_session) and returns the one line to print
  /// and show, saying where the session went and what to do (restart with software drawing, reset the GPU;
  /// warpscope-cli still runs everything).
  std::string give_up(controller::AppState& s, const std::string& reset);

  static constexpr int kMaxResets = 3;
  static constexpr std::chrono::seconds kWindow{60};

 private:
  std::set<long> test_frames_;
  long frame_ = 0;
  std::deque<std::chrono::steady_clock::time_point> resets_;
};

/// Saves the session's runs and sweeps as a report in $XDG_DATA_HOME/warpscope/autosave (or
/// ~/.local/share/warpscope/autosave) as session-YYYYmmdd-HHMMSS.json. Returns the path, or "" with `error`
/// set ("nothing to save" for an empty session, or why the file could not be written).
std::string autosave_session(controller::AppState& s, std::string& error);

}  // namespace ws::gui
