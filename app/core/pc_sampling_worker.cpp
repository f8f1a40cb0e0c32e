#include "pc_sampling_worker.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "worker_client.hpp"

namespace ws {

namespace {
/// Set in the child's environment: a worker started for PC sampling never starts another.
constexpr const char* kInFreshWorker = "WARPSCOPE_PC_SAMPLING_WORKER";

/// The ready worker's hardware buffer of samples, and the longest run (the launcher's median time over
/// warm launches, ms) it serves; a run of unknown length is tried in it, and sampled again with the
/// default buffer when its samples did not fit. H100, 2026-12-06: the first launch after PC sampling's
/// enable took 78 ms with 32 MiB against 306 ms with CUPTI's default 512 MiB; 32 MiB held all 1.59
/// million samples of harris.impl2 at 2^28 (a 2.5 ms run), 8 MiB none of them. A run samples at most
/// one PC per SM sub-partition every 2^8 cycles (cupti_pcsampling.hpp): 0.4 ms at 2 GHz on 132 SMs is
/// 1.65 million at most, what 32 MiB was seen to hold.
constexpr int kReadyWorkerHardwareMiB = 32;
constexpr double kReadyWorkerMaxRunMs = 0.4;
/// The buffer of a worker started for a longer run (or one of unknown length with no worker ready, or one
/// whose samples did not fit in 32 MiB): CUPTI's default.
constexpr int kDefaultHardwareMiB = 512;

bool in_fresh_worker() {
  const char* env = std::getenv(kInFreshWorker);
  return env && *env;
}

/// A fresh local worker for one PC sampling collection with a hardware buffer of `hardware_mib` MiB
/// (cupti_pcsampling.cpp reads WS_PC_SAMPLING_HW_MB), started (hello read: its CUDA context exists);
/// nullptr with `error` when it could not start.
std::unique_ptr<WorkerClient> start_fresh_worker(const std::string& cli, int hardware_mib, std::string& error) {
  WorkerClientOptions o;
  o.env.emplace_back(kInFreshWorker, "1");
  o.env.emplace_back("WS_PC_SAMPLING_HW_MB", std::to_string(hardware_mib));
  auto w = std::make_unique<WorkerClient>(WorkerLaunch{{cli, "worker"}, "local"}, o);
  error = w->start();
  if (!error.empty()) return nullptr;
  return w;
}

/// The worker kept ready (prepare_pc_sampling_worker): started on a thread of its own, taken by the next
/// request.
struct ReadyWorker {
  std::mutex m;
  bool keep = false;  // prepare was called: start the next one after each use
  std::string cli;
  std::future<std::unique_ptr<WorkerClient>> next;
  PcSamplingWorkerStats stats;

  void start_next_locked() {
    if (!keep || next.valid()) return;
    ++stats.started;
    next = std::async(std::launch::async, [cli = cli] {
      std::string error;
      return start_fresh_worker(cli, kReadyWorkerHardwareMiB, error);  // a failure: the request starts its own
    });
  }
  /// Stops a used worker on a thread of its own: its exit (about 85 ms on the H100 machine, its CUDA
  /// context torn down) is not the user's wait. wait_for_stopping_pc_sampling_workers(),
  /// release_pc_sampling_worker() and this process's end wait for it.
  std::vector<std::future<void>> stopping;
  void retire(std::unique_ptr<WorkerClient> w) {
    std::lock_guard<std::mutex> lock(m);
    stopping.erase(std::remove_if(stopping.begin(), stopping.end(),
                                  [](const std::future<void>& f) {
                                    return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
                                  }),
                   stopping.end());
    std::shared_ptr<WorkerClient> shared(std::move(w));
    try {
      stopping.push_back(std::async(std::launch::async, [shared] { shared->stop(); }));
    } catch (const std::exception&) {
      shared->stop();  // no thread: stop it here, as before
    }
  }
  /// The ready worker, waiting for its start if it is still starting; nullptr when none is kept.
  std::unique_ptr<WorkerClient> take() {
    std::future<std::unique_ptr<WorkerClient>> f;
    {
      std::lock_guard<std::mutex> lock(m);
      if (!next.valid()) return nullptr;
      f = std::move(next);
    }
    std::unique_ptr<WorkerClient> w = f.get();
    return w && w->running() ? std::move(w) : nullptr;
  }
};

ReadyWorker& ready_worker() {
  static ReadyWorker r;
  return r;
}
}  // namespace

void prepare_pc_sampling_worker() {
  if (in_fresh_worker()) return;
  // The metrics warm-up's switch turns this off too (the cold figures of scripts/device-metrics-warmup.sh).
  if (const char* off = std::getenv("WS_NO_METRICS_WARMUP"); off && std::string(off) == "1") return;
  const std::string cli = find_local_cli();
  if (cli.empty()) return;
  try {
    ReadyWorker& r = ready_worker();
    std::lock_guard<std::mutex> lock(r.m);
    r.keep = true;
    r.cli = cli;
    r.start_next_locked();
  } catch (const std::exception&) {}  // no thread: the requests start their own workers, as before
}

void wait_for_stopping_pc_sampling_workers() {
  ReadyWorker& r = ready_worker();
  std::vector<std::future<void>> stopping;
  {
    std::lock_guard<std::mutex> lock(r.m);
    stopping = std::move(r.stopping);
    r.stopping.clear();
  }
  for (auto& s : stopping) s.wait();
}

void release_pc_sampling_worker() {
  ReadyWorker& r = ready_worker();
  std::future<std::unique_ptr<WorkerClient>> f;
  {
    std::lock_guard<std::mutex> lock(r.m);
    r.keep = false;
    f = std::move(r.next);
  }
  wait_for_stopping_pc_sampling_workers();
  if (f.valid()) {
    std::unique_ptr<WorkerClient> w = f.get();
    if (w) w->stop();
  }
}

PcSamplingWorkerStats pc_sampling_worker_stats() {
  ReadyWorker& r = ready_worker();
  std::lock_guard<std::mutex> lock(r.m);
  return r.stats;
}

void sample_pcs_in_fresh_worker(const RunRequest& req, RunResult& r) {
  KernelMetrics& m = r.metrics;
  m.pc_sampling_needs_fresh_process = false;
  auto warn = [&](const std::string& why) { m.warnings.push_back("PC sampling: " + why); };
  if (in_fresh_worker()) {
    warn("not collected: even a fresh worker process had profiled before its PC sampling pass");
    return;
  }
  const std::string cli = find_local_cli();
  if (cli.empty()) {
    warn(
        "not collected: it needs a fresh process, and no warpscope-cli was found beside this program (set "
        "$WARPSCOPE_CLI)");
    return;
  }
  try {
    RunRequest sub = req;
    sub.metrics = "pcsampling";
    sub.repeat = 1;
    sub.warmup = 0;
    // WS_METRICS_TIMING=1 prints where the request's time goes: the ready worker, its run, its stop.
    const bool timing = std::getenv("WS_METRICS_TIMING") != nullptr;
    HostClock clock;
    ReadyWorker& ready = ready_worker();
    // The run's length as the serving worker timed it. A median over warm launches says a run is longer
    // than the ready worker's buffer holds: it gets a worker of CUPTI's default buffer. A single cold
    // launch (repeat 1, warmup 0) is no such proof: its time holds the module's first load (harris.impl2,
    // 2^24, H100: 1.6 ms for a 0.2 ms kernel), so the ready worker takes it, and a full buffer samples
    // again below.
    const bool warm_timing = req.warmup > 0 || r.timing.samples_ms.size() >= 3;
    const bool known_short = r.timed && r.timing.median_ms > 0 && r.timing.median_ms <= kReadyWorkerMaxRunMs;
    const bool known_long = r.timed && warm_timing && r.timing.median_ms > kReadyWorkerMaxRunMs;
    std::unique_ptr<WorkerClient> worker = known_long ? nullptr : ready.take();
    const double t_take = clock.lap();
    RunResult got;
    bool from_ready = false;
    int buffer_mib = kReadyWorkerHardwareMiB;
    if (worker) {
      got = worker->run(sub);
      const double t_run = clock.lap();
      ready.retire(std::move(worker));
      if (timing)
        std::fprintf(stderr, "pc sampling worker: ready one taken %.1f, its request %.1f (%s; profiling %.1f) ms\n",
                     t_take, t_run, format_host_times(got.host_ms).c_str(), got.metrics.profile_ms);
      // A ready worker that died while it waited (another process's fault on the GPU) costs nothing:
      // a worker started now runs the request, as it would have without one ready.
      from_ready = got.status != RunStatus::Error && got.status != RunStatus::Faulted;
    }
    if (!known_long) {
      std::lock_guard<std::mutex> lock(ready.m);
      if (from_ready) ++ready.stats.from_ready;
      ready.start_next_locked();  // for the next request, while this one's result is checked
    }
    // One collection in a worker started now with a buffer of `mib` MiB; false (warned) when none started.
    auto run_in_new_worker = [&](int mib) {
      std::string error;
      std::unique_ptr<WorkerClient> w = start_fresh_worker(cli, mib, error);
      {
        std::lock_guard<std::mutex> lock(ready.m);
        ++ready.stats.started;
      }
      if (!w) {
        warn("not collected: the fresh worker process answered: " + error);
        return false;
      }
      buffer_mib = mib;
      got = w->run(sub);
      ready.retire(std::move(w));
      return true;
    };
    if (!from_ready && !run_in_new_worker(known_short ? kReadyWorkerHardwareMiB : kDefaultHardwareMiB)) return;
    const PcSampling& sampled = got.metrics.pc_sampling;
    if (buffer_mib < kDefaultHardwareMiB && got.metrics.error.empty() &&
        (sampled.hardware_buffer_full || sampled.dropped_samples > 0)) {
      // The run was longer than its timing said: its samples did not fit. Sampled again with the default.
      const int buffer_first_mib = buffer_mib;
      if (timing)
        std::fprintf(stderr, "pc sampling worker: %d MiB buffer full after %.1f ms; again with %d MiB\n", buffer_mib,
                     clock.lap(), kDefaultHardwareMiB);
      if (!run_in_new_worker(kDefaultHardwareMiB)) return;
      m.warnings.push_back("PC sampling: sampled again in a worker with a " + std::to_string(kDefaultHardwareMiB) +
                           " MiB hardware buffer: the first worker's " + std::to_string(buffer_first_mib) +
                           " MiB filled");
    }
    if (got.status == RunStatus::Error || got.status == RunStatus::Faulted) {
      warn("not collected: the fresh worker process answered: " + got.message);
      return;
    }
    if (!got.metrics.error.empty()) {
      warn("not collected: " + got.metrics.error);
      return;
    }
    m.pc_sampling = std::move(got.metrics.pc_sampling);
    if (const auto it = got.metrics.values.find("ws__pc_samples"); it != got.metrics.values.end())
      m.values[it->first] = it->second;
    m.warnings.push_back(
        "PC sampling ran in a fresh worker process (CUPTI gives PC records to one collection per process)");
    m.warnings.insert(m.warnings.end(), got.metrics.warnings.begin(), got.metrics.warnings.end());
    m.collected = m.collected || m.pc_sampling.collected;
  } catch (const std::exception& e) { warn(std::string("not collected: ") + e.what()); }
}

}  // namespace ws
