#include "run_worker.hpp"

#include <algorithm>
#include <exception>

#include "limits.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "sweep.hpp"
#include "worker_protocol.hpp"

namespace ws::ui {

RunWorker::RunWorker(Opener open) : open_(std::move(open)) { thread_ = std::thread([this] { loop(); }); }

RunWorker::RunWorker(WorkerLaunch launch, WorkerClientOptions options)
    : launch_(std::move(launch)), launch_options_(std::move(options)) {
  thread_ = std::thread([this] { loop(); });
}

std::string RunWorker::worker_line(const WorkerClient& c) const {
  const WorkerHello& h = c.hello();
  return "worker " + std::to_string(h.pid) + " on " + h.host + " (" + c.launch().where + ")";
}

void RunWorker::note_fault(WorkerClient& client, const std::string& why) {
  const std::string err = client.start();  // a fresh worker now, not at the next request
  std::lock_guard<std::mutex> lock(mutex_);
  shared_.worker_fault = why;
  shared_.worker_restarts = client.restarts();
  shared_.worker = err.empty() ? worker_line(client) : "no worker: " + err;
}

RunWorker::~RunWorker() { stop(); }

void RunWorker::submit(const std::vector<RunRequest>& requests) {
  if (requests.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    if (!shared_.busy) shared_.batch_done = shared_.batch_total = 0;
    for (const auto& r : requests) queue_.push_back(r);
    shared_.batch_total += int(requests.size());
    shared_.busy = true;
  }
  cv_.notify_all();
}

int RunWorker::cancel_queued() {
  std::lock_guard<std::mutex> lock(mutex_);
  const int dropped = int(queue_.size());
  queue_.clear();
  shared_.batch_total -= dropped;
  if (shared_.running.empty()) shared_.busy = false;
  return dropped;
}

RunWorker::Snapshot RunWorker::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  Snapshot s = shared_;
  shared_.finished.clear();
  shared_.sweep_runs.clear();
  shared_.sweeps_finished.clear();
  shared_.live_points.clear();
  shared_.live_results.clear();
  return s;
}

bool RunWorker::wait_opened(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [this] { return shared_.opened; });
}

bool RunWorker::submit_sweep(const SweepSpec& spec) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || sweep_) return false;
    sweep_ = spec;
    cancel_sweep_ = false;
    shared_.sweeping = true;
    shared_.sweep_done = 0;
    shared_.sweep_total = spec.total_runs();
  }
  cv_.notify_all();
  return true;
}

void RunWorker::cancel_sweep() { cancel_sweep_ = true; }

void RunWorker::set_live(const std::vector<RunRequest>& requests) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    live_ = requests;
    ++live_generation_;
    shared_.live = !requests.empty();
  }
  cv_.notify_all();
}

void RunWorker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
    live_.clear();
    shared_.live = false;
  }
  cancel_sweep_ = true;
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  shared_.busy = false;
  shared_.running.clear();
}

void RunWorker::loop() {
  std::unique_ptr<Backend> backend;
  std::unique_ptr<WorkerClient> client;  // GPU work in a worker process (WorkerLaunch mode)
  std::string error;
  if (launch_) {
    client = std::make_unique<WorkerClient>(*launch_, launch_options_);
    error = client->start();
    const auto& kinds = client->hello().backends;
    if (error.empty() && std::find(kinds.begin(), kinds.end(), "cuda") == kinds.end()) {
      const WorkerHello& h = client->hello();
      error = "the worker on " + h.host + " (" + launch_->where + ") has no CUDA device" +
              (h.device.error.empty() ? "" : ": " + h.device.error);
      client.reset();  // nothing for it to do: sim and replay stay here
    } else if (!error.empty()) {
      client.reset();
    }
  } else {
    try {
      backend = open_ ? open_(error) : nullptr;
    } catch (const std::exception& e) {
      backend.reset();
      error = describe_exception(e);
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shared_.opened = true;
    if (launch_) shared_.worker_where = launch_->where;
    if (client) {
      shared_.device = client->hello().device;
      shared_.backend_name = "cuda";
      shared_.worker = worker_line(*client);
    } else if (backend) {
      shared_.device = backend->device();
      shared_.backend_name = backend->name();
    } else {
      shared_.device.available = false;
      shared_.device.error = error;
    }
    shared_.open_error = error;
  }
  cv_.notify_all();

  // Live inputs are generated once per set_live(), on this thread.
  struct LiveRun {
    RunRequest req;
    PreparedRun prepared;
    std::int64_t launches = 0;
  };
  std::vector<LiveRun> live;
  int live_generation = -1;
  std::size_t live_next = 0;
  int live_faults = 0;  // consecutive faulted live batches
  // Live requests share one input when they ask for the same one (they do: the GUI builds them all
  // from one set of parameters), so ten variants at 2^24 hold 64 MB, not 640 MB.
  Input live_input;
  std::string live_input_key;
  auto input_key = [](const RunRequest& r) {  // scans share the reductions' input; histograms, filters, convolutions their own
    const VariantInfo* v = find_variant(r.variant);
    return v ? input_share_key(*v, r) : r.variant;
  };

  for (;;) {
    RunRequest req;
    enum { Run, SweepJob, LiveJob } job = Run;
    SweepSpec sweep;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty() || sweep_ || !live_.empty(); });
      if (stopping_) break;
      if (!queue_.empty()) {
        req = queue_.front();
        queue_.pop_front();
        shared_.running = req.variant;
      } else if (sweep_) {
        job = SweepJob;
        sweep = *sweep_;
        shared_.running = "sweep";
      } else {
        job = LiveJob;
        if (live_generation != live_generation_) {
          live.clear();
          for (const auto& r : live_) live.push_back(LiveRun{r, {}, 0});
          live_generation = live_generation_;
          live_next = 0;
          live_input = Input{};
          live_input_key.clear();
        }
      }
    }
    if (job == SweepJob) {
      auto progress = [this](const SweepProgress& p) {
        std::lock_guard<std::mutex> lock(mutex_);
        shared_.sweep_done = p.done;
        shared_.sweep_runs.push_back(*p.last);
      };
      Sweep done;
      if (client && sweep.backend == "cuda") {
        std::string err;
        done = client->sweep(sweep, "", &cancel_sweep_, progress, err);
        if (!err.empty() && !client->running()) note_fault(*client, err);
      } else {
        done = run_sweep(sweep, backend.get(), error, &cancel_sweep_, progress);
      }
      std::lock_guard<std::mutex> lock(mutex_);
      shared_.sweeps_finished.push_back(std::move(done));
      shared_.sweeping = false;
      shared_.running.clear();
      sweep_.reset();
      if (stopping_) break;
      continue;
    }
    if (job == LiveJob) {
      if (live.empty()) continue;
      if (client && live.front().req.backend == "cuda") {
        // One batch of every live request per turn: a round trip per batch, not per run.
        nlohmann::json reqs = nlohmann::json::array();
        double expected = 0;
        for (const auto& l : live) {
          reqs.push_back(request_to_json(l.req));
          expected = std::max(expected, expected_seconds(l.req));
        }
        const WorkerReply rep = client->call("live_batch", {{"requests", reqs}, {"rounds", 1}}, expected * double(live.size()));
        std::vector<RunResult> runs;
        if (rep.ok()) {
          try {
            for (const auto& j : rep.message.at("runs")) runs.push_back(run_from_wire(j));
          } catch (const std::exception&) {
            runs.clear();
          }
        } else {
          RunResult bad;
          bad.variant = live.front().req.variant;
          bad.backend = "cuda";
          bad.status = rep.kind == WorkerReply::Kind::Faulted ? "faulted" : "error";
          bad.message = rep.text;
          runs.push_back(bad);
          if (rep.kind == WorkerReply::Kind::Faulted) note_fault(*client, rep.text);
        }
        std::lock_guard<std::mutex> lock(mutex_);
        if (live_generation != live_generation_) continue;  // switched off or changed meanwhile
        bool any_points = false;
        for (std::size_t i = 0; i < runs.size(); ++i) {
          std::vector<LivePoint> pts = i < live.size() && rep.ok() ? live_points(runs[i], live[i].launches) : std::vector<LivePoint>{};
          if (i < live.size()) live[i].launches += std::int64_t(pts.size());
          any_points |= !pts.empty();
          shared_.live_points.insert(shared_.live_points.end(), pts.begin(), pts.end());
          shared_.live_results.push_back(std::move(runs[i]));
        }
        if (shared_.live_points.size() > 100000)
          shared_.live_points.erase(shared_.live_points.begin(), shared_.live_points.end() - 50000);
        while (shared_.live_results.size() > 64) shared_.live_results.erase(shared_.live_results.begin());
        // A fault costs one batch and Live goes on in the fresh worker; twice in a row, or no timings at
        // all, and it stops rather than spin.
        live_faults = rep.kind == WorkerReply::Kind::Faulted ? live_faults + 1 : 0;
        if ((!rep.ok() && rep.kind != WorkerReply::Kind::Faulted) || live_faults >= 2 || (rep.ok() && !any_points)) {
          live_.clear();
          shared_.live = false;
        }
        continue;
      }
      LiveRun& lr = live[live_next++ % live.size()];
      if (!lr.prepared.variant) {
        if (std::string err = prepare_run(lr.req, lr.prepared); !err.empty()) {
          RunResult bad;
          bad.variant = lr.req.variant;
          bad.status = "error";
          bad.message = err;
          std::lock_guard<std::mutex> lock(mutex_);
          shared_.live_results.push_back(bad);
          live_.clear();  // a request that cannot run would spin: Live stops and says why
          shared_.live = false;
          continue;
        }
      }
      const std::string key = input_key(lr.req);
      if (lr.prepared.input.n() > 0 && (live_input_key.empty() || live_input_key == key)) {
        if (live_input_key.empty()) live_input = std::move(lr.prepared.input), live_input_key = key;
        lr.prepared.input = Input{};  // the shared copy serves this run from now on
      }
      const bool shared_input = lr.prepared.input.n() == 0 && live_input_key == key;
      if (shared_input) std::swap(lr.prepared.input, live_input);  // lend it without copying
      RunResult r = execute_prepared(lr.req, lr.prepared, backend.get(), error);
      if (shared_input) std::swap(lr.prepared.input, live_input);
      std::vector<LivePoint> pts = live_points(r, lr.launches);
      lr.launches += std::int64_t(pts.size());
      std::lock_guard<std::mutex> lock(mutex_);
      if (live_generation != live_generation_) continue;  // switched off or changed meanwhile
      shared_.live_points.insert(shared_.live_points.end(), pts.begin(), pts.end());
      // Bounded even when nobody takes snapshots: keep the newest points of a long backlog.
      if (shared_.live_points.size() > 100000)
        shared_.live_points.erase(shared_.live_points.begin(), shared_.live_points.end() - 50000);
      if (shared_.live_results.size() > 64) shared_.live_results.erase(shared_.live_results.begin());
      const bool stalled = r.status == "error" || pts.empty();
      shared_.live_results.push_back(std::move(r));
      if (stalled) {
        live_.clear();  // no timings to show (no device, untimed backend): stop rather than spin
        shared_.live = false;
      }
      continue;
    }
    RunResult r;
    if (client && req.backend == "cuda") {
      r = client->run(req);
      if (r.status == "faulted") note_fault(*client, r.message);
    } else {
      r = execute(req, backend.get(), error);  // never throws
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      shared_.finished.push_back(std::move(r));
      ++shared_.batch_done;
      shared_.running.clear();
      if (queue_.empty()) shared_.busy = false;
      if (stopping_) break;
    }
  }
  backend.reset();  // the backend is created and destroyed on this thread
  client.reset();   // shuts the worker down
}

}  // namespace ws::ui
