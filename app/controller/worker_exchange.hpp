// One frame's exchange between the GUI's model (AppState) and its run worker: what the frame queued goes
// to the worker, what the worker finished comes back into the model. The window (app/gui), the page
// (app/web) and the headless pictures call it once a frame before drawing; no ImGui.
#pragma once
#include <string>

#include "app_state.hpp"
#include "run_worker.hpp"

namespace ws::controller {

/// Moves queued runs (s.to_run), a cancel and the performance intents to `worker`; takes its snapshot's
/// finished results, progress and device into `s` (the editor's compile, run, check and step trace too).
/// On the first snapshot with no device, opens the newest report in `reports_dir` as a replay (when
/// s.auto_replay); a scene that ranks runs with none yet falls back to the bundled report there.
void exchange_with_worker(AppState& s, RunWorker& worker, const std::string& reports_dir);

}  // namespace ws::controller
