// The step views of an edited copy (docs/your-kernel.md, "Step views of an edited copy"): after each run of the edit
// on a GPU, the trace of its traced build is asked of the run worker where the edit kept the copy's trace points;
// the edit's step trace (KernelEdit::StepTrace) says why there is none where it did not, so Tree, Warps, Banks and
// Memory show what the edited kernel did or one line why, never the original's steps as the edit's.
#pragma once
#include "app_state.hpp"
#include "run_worker.hpp"

namespace ws::controller {

/// One frame's work, after the worker's snapshot: takes the edit's traces finished in `snap` (by text) into
/// s.edit's step trace; when `edited_ran` (the edit's run came back this frame: KernelEdit::take_run) and the text
/// that ran kept its trace points and ran on a GPU, submits the trace of block s.trace's block of the views' window
/// (trace_launch_request) to `worker`; when the text changed since the step trace, sets why the views show nothing of
/// it yet (the trace point the edit dropped, or that its steps are recorded after a run on a GPU).
void exchange_edit_trace(AppState& s, RunWorker& worker, RunWorker::Snapshot& snap, bool edited_ran);

}  // namespace ws::controller
