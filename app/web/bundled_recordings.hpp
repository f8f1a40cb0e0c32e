// The bundled reports' GPU recordings, read after the page's first frame: the page starts with copies of the
// bundled reports without their "traces" (split_report.py; 9.6 of nvidia-h100-lessons.json's 10 MB), and
// the step-through views get the recordings before they are first drawn.
#pragma once
#include <string>
#include <vector>

#include "app_state.hpp"
#include "report.hpp"

namespace ws::web {

/// Puts a bundled report's recordings back into the replay that was opened from its copy without them.
class BundledRecordings {
 public:
  /// `reports_dir`: where the copies without recordings are (the replays' folder); `recordings_dir`: the
  /// whole reports of the same names.
  BundledRecordings(std::string reports_dir, std::string recordings_dir);

  /// Before a frame is drawn. When the open replay is such a copy and `now` is true, reads its report's
  /// recordings (once per report: the first read of nvidia-h100-lessons.json takes ~1.5 s in the page) and
  /// puts them into the replay; the trace is then picked again, as the desktop picks it when it opens that
  /// report whole. `now`: the caller's rule (web_main: any frame after the first, or the first one when it
  /// may draw a step-through view). A report that cannot be read becomes the page's error message, once.
  void supply(controller::AppState& s, bool now);

 private:
  struct Read {
    std::string name;  ///< the report's file name
    bool ok = false;
    std::vector<Trace> traces;
  };
  std::string reports_dir_, recordings_dir_;
  std::vector<Read> read_;
};

}  // namespace ws::web
