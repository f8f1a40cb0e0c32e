#include "view_context.hpp"

#include <utility>

namespace ws::controller {

ViewContext ViewContext::of(const AppState& s) {
  return ViewContext{s.shown(),        s.showing_replay(),
                     s.lesson(),       s.variant(),
                     s.step_index(),   s.params,
                     s.device,         s.trace,
                     s.session,        s.replay ? &*s.replay : nullptr,
                     s.replay_path,    s.perf,
                     s.allreduce,      s.grid,
                     s.edit,           s.bound,
                     s.view,           s.scene(),
                     s.scene_serial(), s.trace_key()};
}

void ViewActions::set_metrics(const std::string& metrics) { s_.params.metrics = metrics; }
void ViewActions::say(Message::Level level, const std::string& text) { s_.message(level, text); }
void ViewActions::open_view(const std::string& id) { s_.view = id; }
bool ViewActions::select_variant(const std::string& id) { return s_.select_variant(id); }
void ViewActions::show_replay(bool on) { s_.show_replay = on; }
void ViewActions::queue_run(RunRequest req) { s_.to_run.push_back(std::move(req)); }

void ViewActions::queue_allreduce(const collective::AllReduceRequest& req) {
  s_.to_allreduce.push_back(req);
  ++s_.allreduce.pending;
}
TraceState& ViewActions::trace() { return s_.trace; }
PerfState& ViewActions::perf() { return s_.perf; }
AppState::AllReduceView& ViewActions::allreduce() { return s_.allreduce; }
GridState& ViewActions::grid() { return s_.grid; }
KernelEdit& ViewActions::edit() { return s_.edit; }
BoundEdit& ViewActions::bound() { return s_.bound; }
PatternParams& ViewActions::pattern_params() { return s_.params.pattern; }
void ViewActions::set_block(int block) { s_.params.block = block; }
void ViewActions::refresh_trace() { s_.refresh_trace(); }

}  // namespace ws::controller
