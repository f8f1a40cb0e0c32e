#include "run_worker.hpp"

#include <algorithm>
#include <exception>
#include <tuple>

#include "collective/allreduce_sim.hpp"
#include "collective/link_model.hpp"
#include "limits.hpp"
#ifndef WS_NO_WORKERS
#include "live_pipeline.hpp"
#endif
#include "live_runner.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "sweep.hpp"
#include "trace/trace_store.hpp"
#include "user_trace.hpp"
#include "worker_protocol.hpp"

namespace ws::controller {

RunWorker::RunWorker(Opener open) : open_(std::move(open)) {
#ifndef WS_NO_THREADS
  thread_ = std::thread([this] { loop(); });
#endif
}

RunWorker::RunWorker(WorkerLaunch launch, WorkerClientOptions options)
    : launch_(std::move(launch)), launch_options_(std::move(options)) {
#ifndef WS_NO_THREADS
  thread_ = std::thread([this] { loop(); });
#endif
}

#ifndef WS_NO_WORKERS
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
#endif

RunWorker::~RunWorker() { stop(); }

void RunWorker::submit(const std::vector<RunRequest>& requests) {
  if (requests.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    const bool user_kernel =
        std::any_of(requests.begin(), requests.end(), [](const RunRequest& r) { return !r.kernel.empty(); });
    if (!held_.empty() || (hold_user_kernels_ && user_kernel)) {
      held_.insert(held_.end(), requests.begin(), requests.end());
      shared_.busy = true;
      return;
    }
    if (!shared_.busy) shared_.batch_done = shared_.batch_total = 0;
    for (const auto& r : requests) queue_.push_back(r);
    shared_.batch_total += int(requests.size());
    shared_.busy = true;
    live_interrupt_ = true;
  }
  cv_.notify_all();
}

void RunWorker::submit_trace(const RunRequest& req, int block_index) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    traces_.emplace_back(req, block_index);
    shared_.busy = true;
    live_interrupt_ = true;
  }
  cv_.notify_all();
}

void RunWorker::submit_allreduce(const std::vector<AllReduceAsk>& asks) {
  if (asks.empty()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    allreduces_.insert(allreduces_.end(), asks.begin(), asks.end());
    shared_.busy = true;
    live_interrupt_ = true;
  }
  cv_.notify_all();
}

void RunWorker::hold_user_kernels(bool hold) {
  std::lock_guard<std::mutex> lock(mutex_);
  hold_user_kernels_ = hold;
}

bool RunWorker::user_kernels_waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return !held_.empty();
}

void RunWorker::release_user_kernels() {
  std::vector<RunRequest> held;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    hold_user_kernels_ = false;
    held.swap(held_);
  }
  submit(held);
}

int RunWorker::cancel_queued() {
  std::lock_guard<std::mutex> lock(mutex_);
  const int dropped = int(queue_.size());
  queue_.clear();
  traces_.clear();  // all-reduces stay: the tab counts their answers
  shared_.batch_total -= dropped;
  if (shared_.running.empty()) shared_.busy = false;
  return dropped;
}

RunWorker::Snapshot RunWorker::take() {
#ifdef WS_NO_THREADS
  if (!in_loop_) {
    in_loop_ = true;
    loop();  // the next job, if any
    in_loop_ = false;
  }
#endif
  std::lock_guard<std::mutex> lock(mutex_);
  Snapshot s = shared_;
  shared_.finished.clear();
  shared_.traces.clear();
  shared_.allreduces.clear();
  shared_.sweep_runs.clear();
  shared_.sweeps_finished.clear();
  shared_.live_points.clear();
  shared_.live_results.clear();
  return s;
}

bool RunWorker::wait_opened(std::chrono::milliseconds timeout) {
#ifdef WS_NO_THREADS
  if (!shared_.opened && !in_loop_) {
    in_loop_ = true;
    loop();
    in_loop_ = false;
  }
#endif
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
    live_interrupt_ = true;
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
    live_interrupt_ = true;
  }
  cv_.notify_all();
}

void RunWorker::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
    traces_.clear();
    allreduces_.clear();
    live_.clear();
    shared_.live = false;
    live_interrupt_ = true;
  }
  cancel_sweep_ = true;
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  shared_.busy = false;
  shared_.running.clear();
}

/// What the loop's thread owns while it runs: the backend or the worker process, and Live's state.
struct RunWorker::LoopState {
  std::unique_ptr<Backend> backend;
#ifndef WS_NO_WORKERS
  std::unique_ptr<WorkerClient> client;  // GPU work in a worker process (WorkerLaunch mode)
  std::unique_ptr<LivePipeline> pipeline;
  int live_faults = 0;  // consecutive faulted live batches
#endif
  std::string error;  // why there is no backend
  // Live: the requests of the latest set_live(), prepared once (live_runner.hpp); through a worker
  // process, batches kept in flight there (live_pipeline.hpp).
  std::unique_ptr<LiveRunner> runner;
  std::vector<std::int64_t> launches;  // per live request: launches shown so far
  int live_generation = -1;

  /// True when GPU work of this request goes to the worker process.
  bool to_worker(BackendKind kind) const {
#ifndef WS_NO_WORKERS
    return client && kind == BackendKind::Cuda;
#else
    (void)kind;
    return false;
#endif
  }
};

/// The next piece of work, taken from the queues under the mutex.
struct RunWorker::Job {
  enum Kind { Run, Trace, AllReduce, Sweep, Live } kind = Run;
  RunRequest request;
  AllReduceAsk allreduce;
  int trace_block = 0;
  SweepSpec sweep;
  bool live_changed = false;  // Live: the requests changed since the last live job
  std::vector<RunRequest> live_requests;
  int live_generation = -1;
};

void RunWorker::open_backend(LoopState& st) {
#ifndef WS_NO_WORKERS
  if (launch_) {
    st.client = std::make_unique<WorkerClient>(*launch_, launch_options_);
    st.error = st.client->start();
    const auto& kinds = st.client->hello().backends;
    if (st.error.empty() && std::find(kinds.begin(), kinds.end(), BackendKind::Cuda) == kinds.end()) {
      const WorkerHello& h = st.client->hello();
      st.error = "the worker on " + h.host + " (" + launch_->where + ") has no CUDA device" +
                 (h.device.error.empty() ? "" : ": " + h.device.error);
      st.client.reset();  // nothing for it to do: sim and replay stay here
    } else if (!st.error.empty()) {
      st.client.reset();
    }
  } else
#endif
  {
    try {
      st.backend = open_ ? open_(st.error) : nullptr;
    } catch (const std::exception& e) {
      st.backend.reset();
      st.error = describe_exception(e);
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  shared_.opened = true;
  if (launch_) shared_.worker_where = launch_->where;
#ifndef WS_NO_WORKERS
  if (st.client) {
    shared_.device = st.client->hello().device;
    shared_.visible_gpus = st.client->hello().visible_gpus;
    shared_.backend_name = to_string(BackendKind::Cuda);
    shared_.worker = worker_line(*st.client);
  } else
#endif
      if (st.backend) {
    shared_.device = st.backend->device();
    shared_.backend_name = st.backend->name();
  } else {
    shared_.device.available = false;
    shared_.device.error = st.error;
  }
  shared_.open_error = st.error;
}

bool RunWorker::next_job(LoopState& st, Job& job, int& jobs) {
  std::unique_lock<std::mutex> lock(mutex_);
#ifdef WS_NO_THREADS
  if (stopping_ || jobs++ > 0 || (queue_.empty() && traces_.empty() && allreduces_.empty() && !sweep_ && live_.empty()))
    return false;
#else
  (void)jobs;
  cv_.wait(lock, [this] {
    return stopping_ || !queue_.empty() || !traces_.empty() || !allreduces_.empty() || sweep_ || !live_.empty();
  });
  if (stopping_) return false;
#endif
  live_interrupt_ = false;
  if (!queue_.empty()) {
    job.request = queue_.front();
    queue_.pop_front();
    shared_.running = job.request.variant;
  } else if (!traces_.empty()) {
    job.kind = Job::Trace;
    std::tie(job.request, job.trace_block) = traces_.front();
    traces_.pop_front();
    shared_.running = "trace of " + job.request.kernel.file;
  } else if (!allreduces_.empty()) {
    job.kind = Job::AllReduce;
    job.allreduce = allreduces_.front();
    allreduces_.pop_front();
    shared_.running = std::string("all-reduce ") + collective::to_string(job.allreduce.run.method);
  } else if (sweep_) {
    job.kind = Job::Sweep;
    job.sweep = *sweep_;
    shared_.running = "sweep";
  } else {
    job.kind = Job::Live;
    job.live_changed = st.live_generation != live_generation_;
    if (job.live_changed) job.live_requests = live_, job.live_generation = live_generation_;
  }
  return true;
}

// Under the mutex: Live ends and says why through the results already pushed; batches still in flight
// are dropped when they come back.
void RunWorker::stop_live_locked() {
  live_.clear();
  ++live_generation_;
  shared_.live = false;
}

// Under the mutex: bounded even when nobody takes snapshots: keep the newest of a long backlog.
void RunWorker::trim_live_locked() {
  if (shared_.live_points.size() > 100000)
    shared_.live_points.erase(shared_.live_points.begin(), shared_.live_points.end() - 50000);
  while (shared_.live_results.size() > 64) shared_.live_results.erase(shared_.live_results.begin());
}

#ifndef WS_NO_WORKERS
void RunWorker::take_batch(LoopState& st, const LivePipeline::Reply& rep) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (st.live_generation != live_generation_ || rep.dropped) return;  // switched off or changed meanwhile
  bool stop = false;
  if (rep.kind == WorkerReply::Kind::Ok) {
    bool any_points = false, any_run = false;
    for (std::size_t i = 0; i < rep.batch.requests.size() && i < st.launches.size(); ++i) {
      const LiveRequestRuns& got = rep.batch.requests[i];
      if (!got.last) continue;
      any_run = true;
      const std::vector<LivePoint> pts = live_points(got.last->variant, got.times_ms, got.last->bytes, st.launches[i]);
      st.launches[i] += std::int64_t(pts.size());
      any_points |= !pts.empty();
      shared_.live_points.insert(shared_.live_points.end(), pts.begin(), pts.end());
      shared_.live_results.push_back(*got.last);
    }
    st.live_faults = 0;
    // A failed run stops Live, as it does in-process; so does a batch that ran and timed nothing.
    stop = rep.batch.failed || (any_run && !any_points);
  } else {
    RunResult bad;
    bad.variant = st.runner ? st.runner->requests().front().variant : "";
    bad.backend = BackendKind::Cuda;
    bad.status = rep.kind == WorkerReply::Kind::Faulted ? RunStatus::Faulted : RunStatus::Error;
    bad.message = rep.text;
    shared_.live_results.push_back(bad);
    // A fault costs one batch and Live goes on in the fresh worker; twice in a row and it stops
    // rather than spin. A refusal stops it at once.
    st.live_faults = rep.kind == WorkerReply::Kind::Faulted ? st.live_faults + 1 : 0;
    stop = rep.kind == WorkerReply::Kind::Error || st.live_faults >= 2;
  }
  trim_live_locked();
  if (stop) stop_live_locked();
}
#endif

void RunWorker::finish_pipeline(LoopState& st) {
#ifndef WS_NO_WORKERS
  if (!st.pipeline) return;
  for (const auto& rep : st.pipeline->drain()) {
    if (rep.kind == WorkerReply::Kind::Faulted) note_fault(*st.client, rep.text);
    take_batch(st, rep);
  }
  st.pipeline.reset();
#else
  (void)st;  // no worker process, no batches in flight
#endif
}

void RunWorker::run_sweep_job(LoopState& st, const SweepSpec& spec) {
  auto progress = [this](const SweepProgress& p) {
    std::lock_guard<std::mutex> lock(mutex_);
    shared_.sweep_done = p.done;
    shared_.sweep_runs.push_back(*p.last);
  };
  Sweep done;
#ifndef WS_NO_WORKERS
  if (st.to_worker(spec.backend)) {
    std::string err;
    done = st.client->sweep(spec, "", &cancel_sweep_, progress, err);
    if (!err.empty() && !st.client->running()) note_fault(*st.client, err);
  } else
#endif
  {
    done = run_sweep(spec, st.backend.get(), st.error, &cancel_sweep_, progress);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  shared_.sweeps_finished.push_back(std::move(done));
  shared_.sweeping = false;
  shared_.running.clear();
  sweep_.reset();
}

void RunWorker::run_live_job(LoopState& st) {
  if (!st.runner || st.runner->requests().empty()) return;
#ifndef WS_NO_WORKERS
  if (st.to_worker(st.runner->requests().front().backend)) {
    if (!st.pipeline) st.pipeline = std::make_unique<LivePipeline>(*st.client, st.runner->requests());
    const LivePipeline::Reply rep = st.pipeline->next(&live_interrupt_);
    if (rep.kind == WorkerReply::Kind::Faulted) note_fault(*st.client, rep.text);
    take_batch(st, rep);
    return;
  }
#endif
  RunResult r;
  const std::size_t i = st.runner->step(st.backend.get(), st.error, r);
  std::vector<LivePoint> pts = live_points(r, st.launches[i]);
  st.launches[i] += std::int64_t(pts.size());
  std::lock_guard<std::mutex> lock(mutex_);
  if (st.live_generation != live_generation_) return;  // switched off or changed meanwhile
  shared_.live_points.insert(shared_.live_points.end(), pts.begin(), pts.end());
  const bool stalled = r.status == RunStatus::Error || pts.empty();
  shared_.live_results.push_back(std::move(r));
  trim_live_locked();
  if (stalled) stop_live_locked();  // no timings to show (no device, untimed backend): stop rather than spin
}

TraceDone RunWorker::run_trace_job(LoopState& st, const RunRequest& req, int trace_block) {
  TraceDone done;
  done.request = req;
  done.block_index = trace_block;
#ifndef WS_NO_WORKERS
  if (st.to_worker(req.backend)) {
    const WorkerReply reply = st.client->call(
        "trace", {{"request", request_to_json(req)}, {"block_index", trace_block}}, expected_seconds(req));
    if (reply.kind == WorkerReply::Kind::Faulted) note_fault(*st.client, reply.text);
    try {
      if (reply.ok())
        done.trace = trace_from_store_json(reply.message.at("trace"));
      else
        done.error = reply.text;
    } catch (const std::exception& e) { done.error = std::string("the worker's answer is not a trace: ") + e.what(); }
    return done;
  }
#endif
  Trace t;
  std::string difference;
  try {
    done.error = trace_user_kernel(req, trace_block, st.backend.get(), t, difference);
  } catch (const std::exception& e) { done.error = describe_exception(e); }
  if (done.error.empty()) done.trace = std::move(t);
  return done;
}

AllReduceDone RunWorker::run_allreduce_job(LoopState& st, const AllReduceAsk& ask) {
  AllReduceDone done;
  done.ask = ask;
#ifndef WS_NO_WORKERS
  if (st.to_worker(ask.backend)) {
    const WorkerReply reply = st.client->allreduce(ask, done.result, done.visible_gpus);
    if (reply.kind == WorkerReply::Kind::Faulted) note_fault(*st.client, reply.text), done.faulted = true;
    if (!reply.ok()) done.error = reply.text;
    return done;
  }
#endif
  try {
    if (ask.backend == BackendKind::Sim) {
      collective::LinkModel link;
      if (!collective::link_model_by_name(ask.link, link)) {
        done.error = "unknown link '" + ask.link + "'";
        return done;
      }
      done.result = collective::simulate_allreduce(ask.run, link);
    } else if (!st.backend) {
      done.error = st.error.empty() ? "no CUDA device" : st.error;
    } else {
      // The GPUs' all-reduce is a worker's request (worker_server.cpp's run_allreduce, which the CLI's build
      // links); without a worker process this GUI has only its one device's backend.
      done.error =
          "all-reduces on GPUs run in a worker process, and this GUI runs its GPU work in-process "
          "(no warpscope-cli beside it): run `warpscope-cli allreduce`";
    }
  } catch (const std::exception& e) { done.error = describe_exception(e); }
  return done;
}

RunResult RunWorker::run_request(LoopState& st, const RunRequest& req) {
#ifndef WS_NO_WORKERS
  if (st.to_worker(req.backend)) {
    RunResult r = st.client->run(req);
    if (r.status == RunStatus::Faulted) note_fault(*st.client, r.message);
    return r;
  }
#endif
  return execute(req, st.backend.get(), st.error);  // never throws
}

void RunWorker::loop() {
  LoopState st;
#ifdef WS_NO_THREADS
  // take() calls this once per frame: the backend (none in the browser: sim and replay) opens once.
  const bool open_now = !shared_.opened;
  if (!open_now) st.error = shared_.open_error;
#else
  const bool open_now = true;
#endif
  if (open_now) open_backend(st);
  cv_.notify_all();

  int jobs = 0;  // WS_NO_THREADS: one job per call
  for (;;) {
    Job job;
    if (!next_job(st, job, jobs)) break;
    // Other work, or other live requests: the batches in flight end first (their runs still count
    // when Live goes on with the same requests).
    if (job.kind != Job::Live || job.live_changed) finish_pipeline(st);
    if (job.live_changed) {
      st.live_generation = job.live_generation;
      st.runner = std::make_unique<LiveRunner>(job.live_requests);
      st.launches.assign(job.live_requests.size(), 0);
#ifndef WS_NO_WORKERS
      st.live_faults = 0;
#endif
    }
    if (job.kind == Job::Live) {
      run_live_job(st);
      continue;
    }
    if (job.kind == Job::Sweep) {
      run_sweep_job(st, job.sweep);
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) break;
      continue;
    }
    if (job.kind == Job::Trace || job.kind == Job::AllReduce) {
      TraceDone trace;
      AllReduceDone allreduce;
      if (job.kind == Job::Trace)
        trace = run_trace_job(st, job.request, job.trace_block);
      else
        allreduce = run_allreduce_job(st, job.allreduce);
      std::lock_guard<std::mutex> lock(mutex_);
      if (job.kind == Job::Trace)
        shared_.traces.push_back(std::move(trace));
      else
        shared_.allreduces.push_back(std::move(allreduce));
      shared_.running.clear();
      if (queue_.empty() && traces_.empty() && allreduces_.empty()) shared_.busy = false;
      if (stopping_) break;
      continue;
    }
    RunResult r = run_request(st, job.request);
    std::lock_guard<std::mutex> lock(mutex_);
    shared_.finished.push_back(std::move(r));
    ++shared_.batch_done;
    shared_.running.clear();
    if (queue_.empty() && traces_.empty() && allreduces_.empty()) shared_.busy = false;
    if (stopping_) break;
  }
#ifndef WS_NO_WORKERS
  st.pipeline.reset();  // batches still in flight are answered before the worker's shutdown
#endif
  st.backend.reset();  // the backend is created and destroyed on this thread
#ifndef WS_NO_WORKERS
  st.client.reset();  // shuts the worker down
#endif
}

}  // namespace ws::controller
