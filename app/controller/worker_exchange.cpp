#include "worker_exchange.hpp"

#include <algorithm>
#include <filesystem>

#include "edit_step_trace.hpp"
#include "perf_state.hpp"

namespace ws::controller {

void take_allreduces(AppState::AllReduceView& a, std::vector<AllReduceDone>& done) {
  for (auto& d : done) {
    a.pending = std::max(0, a.pending - 1);
    if (!d.error.empty()) {
      a.note = "all-reduce " + std::string(collective::to_string(d.ask.run.method)) + ": " + d.error;
      continue;
    }
    a.visible_gpus = d.visible_gpus;
    if (!d.result.ran) {
      a.note = d.result.error;
      continue;
    }
    a.measured.insert(a.measured.begin(), std::move(d.result));
  }
  constexpr std::size_t kKept = 64;  // a lecture's worth of sizes and methods
  if (a.measured.size() > kKept) a.measured.resize(kKept);
}

void exchange_with_worker(AppState& s, RunWorker& worker, const std::string& reports_dir) {
  if (!s.to_run.empty()) {
    worker.submit(s.to_run);
    s.to_run.clear();
  }
  if (!s.to_allreduce.empty()) {
    std::vector<AllReduceAsk> asks;
    for (const auto& r : s.to_allreduce) {
      AllReduceAsk a;
      a.run = r;
      a.backend = BackendKind::Cuda;
      asks.push_back(a);
    }
    worker.submit_allreduce(asks);
    s.to_allreduce.clear();
  }
  if (s.cancel_requested) {
    const int n = worker.cancel_queued();
    s.cancel_requested = false;
    s.edit.cancel_check();  // its queued run may be among those dropped
    s.message(Message::Info, "cancelled " + std::to_string(n) + " queued runs");
  }
  send_perf_intents(s, worker);
  RunWorker::Snapshot snap = worker.take();
  if (s.allreduce.visible_gpus < 0) s.allreduce.visible_gpus = snap.visible_gpus;  // the hello's, until an answer
  take_allreduces(s.allreduce, snap.allreduces);
  take_perf_results(s, snap);
  const bool first_open = snap.opened && !s.device.opened;
  s.device.opened = snap.opened;
  s.device.device = snap.device;
  s.device.backend = snap.backend_name;
  s.device.error = snap.open_error;
  s.device.busy = snap.busy;
  s.device.running = snap.running;
  s.device.batch_done = snap.batch_done;
  s.device.batch_total = snap.batch_total;
  s.device.worker = snap.worker;
  s.device.worker_restarts = snap.worker_restarts;
  s.device.worker_fault = snap.worker_fault;
  // An exercise's Check runs are the grading's, not rows of the session: its hidden cases stay hidden.
  for (auto& r : snap.finished)
    if (!s.edit.take_check_result(r)) s.add_result(std::move(r));
  // The kernel editor's compile (a thread), run (a row of the session) and check come back whatever view is open.
  s.edit.poll();
  const bool edited_ran = s.edit.take_run(s.session.runs);
  s.bound.take(s.session.runs);  // the editor's Find the bound: its three runs are rows of the session
  exchange_edit_trace(s, worker, snap, edited_ran);
  if (std::optional<RunRequest> next = s.edit.next_check_request()) s.to_run.push_back(std::move(*next));
  if (first_open) {
    // A worker on another machine that cannot be reached or has no GPU: say why where it shows.
    if (!snap.device.available && !snap.worker_where.empty() && snap.worker_where != "local") {
      std::string why = snap.open_error;
      if (!why.empty() && why.back() == '.') why.pop_back();  // ssh's own lines end with one
      s.message(Message::Error, why + "; simulation and replay run here");
    }
    if (s.session.created.empty()) {
      std::vector<RunResult> runs = std::move(s.session.runs);
      s.session = new_report("warpscope GUI session", snap.device);
      s.session.runs = std::move(runs);
    }
    if (!snap.device.available && !s.replay && s.auto_replay) {
      Report loaded;  // read once: the bundled report is 10 MB
      if (const std::string newest = AppState::startup_report(reports_dir, &loaded); !newest.empty())
        s.show_report(newest, std::move(loaded));
    }
  }
  // A scene that ranks runs on a GPU machine with no run yet: the bundled report, with a line saying so.
  if (s.device.opened)
    s.fall_back_for_scene([&](const std::string& name) {
      if (!name.empty()) return (std::filesystem::path(reports_dir) / name).string();
      return s.auto_replay ? AppState::startup_report(reports_dir) : std::string();
    });
}

}  // namespace ws::controller
