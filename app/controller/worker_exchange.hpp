// One frame's exchange between the GUI's model (AppState) and its run worker: what the frame queued goes
// to the worker, what the worker finished comes back into the model. The window (app/gui), the page
// (app/web) and the headless pictures call it once a frame before drawing; no ImGui.
#pragma once
#include <string>

#include "app_state.hpp"
#include "run_worker.hpp"

namespace ws::controller {

/// Takes the all-reduces the worker answered into the All-reduce tab's state: a result that ran goes to the front
/// of `a.measured` (the newest 64 kept; an incorrect one too: the tab shows its check), one that could not run or
/// got no answer sets `a.note` to its one line (kept until the tab asks again: a batch's refusal stays beside its
/// measurements); each answer lowers `a.pending`; `a.visible_gpus` follows the answers.
void take_allreduces(AppState::AllReduceView& a, std::vector<AllReduceDone>& done);

/// Moves queued runs (s.to_run) and all-reduces (s.to_allreduce), a cancel and the performance intents to
/// `worker`; takes its snapshot's finished results, all-reduces, progress and device into `s` (the editor's
/// compile, run, check and step trace too).
/// On the first snapshot with no device, opens the newest report in `reports_dir` as a replay (when
/// s.auto_replay); a scene that ranks runs with none yet falls back to the bundled report there.
void exchange_with_worker(AppState& s, RunWorker& worker, const std::string& reports_dir);

}  // namespace ws::controller
