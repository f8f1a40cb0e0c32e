#include "edit_step_trace.hpp"

#include "kernel_trace_points.hpp"
#include "registry.hpp"

namespace ws::controller {

namespace {

const char* const kAfterRun =
    "the edited kernel's steps are recorded on the GPU after it runs there (Ctrl+Enter); the original's are not "
    "shown as the edit's";

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

const RunResult* latest_run(const AppState& s, const std::string& label) {
  for (auto it = s.session.runs.rbegin(); it != s.session.runs.rend(); ++it)
    if (it->variant == label) return &*it;
  return nullptr;
}

}  // namespace

void exchange_edit_trace(AppState& s, RunWorker& worker, RunWorker::Snapshot& snap, bool edited_ran) {
  KernelEdit& e = s.edit;
  for (TraceDone& d : snap.traces) {
    if (!e.is_open() || e.trace_pending.empty() ||
        instrument_edit(e.traced_copy(), e.trace_pending).source != d.request.kernel.source)
      continue;  // a trace of a text no longer waited for
    KernelEdit::StepTrace st;
    st.text = e.trace_pending;
    st.block_index = d.block_index;
    st.trace = std::move(d.trace);
    if (!d.error.empty()) st.why = "the edited kernel's steps were not recorded: " + first_line(d.error);
    e.trace_pending.clear();
    e.set_step_trace(std::move(st));
  }
  const VariantInfo* v = e.is_open() && !e.exercise() ? find_variant(e.variant()) : nullptr;
  if (!v) return;
  const KernelEdit::RanText* ran = edited_ran ? e.ran_text(e.run_label()) : nullptr;
  const RunResult* run = ran ? latest_run(s, e.run_label()) : nullptr;
  if (ran && run && ran->text != e.original()) {
    KernelEdit::StepTrace st;
    st.text = ran->text;
    const TracedEdit te = instrument_edit(e.traced_copy(), ran->text);
    if (!te.why.empty() || run->status == RunStatus::Error || run->status == RunStatus::Faulted) {
      st.why = !te.why.empty() ? te.why : std::string(kAfterRun) + " (" + first_line(run->message) + ")";
      e.set_step_trace(std::move(st));
      return;
    }
    const TraceKey k = s.trace_key();
    std::int64_t n = 0;
    RunRequest req = e.run_request(s.params.to_request(v->id));
    req.launch = trace_launch_request(*v, k, k.n > 0 ? k.n : s.params.n(), n);
    req.n = n;
    req.kernel.source = te.source;
    req.metrics.clear();
    worker.submit_trace(req, k.block_index);
    e.trace_pending = ran->text;
    st.block_index = k.block_index;
    st.why = "recording the edited kernel's steps on the GPU (block " + std::to_string(k.block_index) + ")";
    e.set_step_trace(std::move(st));
    return;
  }
  // The text changed since the latest step trace: say now what the views can show of it.
  const KernelEdit::StepTrace* st = e.step_trace();
  if (!e.steps_are_the_edits(v->id) || e.running() || !e.trace_pending.empty() || (st && st->text == e.text)) return;
  KernelEdit::StepTrace now;
  now.text = e.text;
  now.why = instrument_edit(e.traced_copy(), e.text).why;
  if (now.why.empty()) now.why = kAfterRun;
  e.set_step_trace(std::move(now));
}

}  // namespace ws::controller
