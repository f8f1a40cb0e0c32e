// ws_live_rate: Live's launches per second in this process against through a worker process, with
// Live's own engines: LiveRunner::step in a loop (what the GUI's run thread does in-process) and
// LivePipeline::next in a loop (what it does with a worker: batches by time, `depth` in flight),
// alternating every --slice seconds. A launch is a timed launch Live plots; an untimed run (the sim
// model) counts as one.
//   build-ci/bench/ws_live_rate --backend sim|cuda [--seconds 5] [--variants epita.reduce3,...] [--n 1024]
//       [--repeat 10] [--gpu local|ssh:HOST|slurm:ARGS] [--batch-seconds 0.025] [--depth 2] [--slice 0.5]
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <vector>

#include "backend_factory.hpp"
#include "launch_rules.hpp"
#include "live_pipeline.hpp"
#include "live_runner.hpp"
#include "worker_client.hpp"

using namespace ws;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Launches a run adds to Live: its plotted launches, or 1 for an untimed run that is otherwise fine.
long long launches_of(const RunResult& r) {
  if (live_plottable(r)) return (long long)r.timing.samples_ms.size();
  return !r.timed && ran_as_taught(r.status) ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Live's launches per second: in-process against through a worker process"};
  std::string backend_name = "sim", gpu = "local", variants = "epita.reduce3", n_text = "1024";
  double seconds = 5, batch_seconds = kLiveBatchSeconds, slice = 0.5;
  int repeat = 10, depth = 2;
  app.add_option("--backend", backend_name, "sim | cuda (default sim)");
  app.add_option("--seconds", seconds, "how long each way runs (default 5)");
  app.add_option("--variants", variants, "comma-separated variant ids, Live's requests (default epita.reduce3)");
  app.add_option("--n", n_text, "elements per run: 1024, 2^20 or 1<<20 (default 1024)");
  app.add_option("--repeat", repeat, "timed launches per run, as Live asks (default 10)");
  app.add_option("--gpu", gpu, "where the worker runs: local | ssh:HOST | slurm:ARGS (default local)");
  app.add_option("--batch-seconds", batch_seconds,
                 "seconds per live batch in the worker (default 0.025; 0: one round)");
  app.add_option("--slice", slice, "the two ways alternate every this many seconds (default 0.5)");
  app.add_option("--depth", depth, "live batches in flight (default 2; 1: wait for each answer before the next)");
  CLI11_PARSE(app, argc, argv);
  BackendKind backend_kind = BackendKind::Sim;
  if (!parse_backend(backend_name, backend_kind) || backend_kind == BackendKind::Cpu) {
    std::fprintf(stderr, "%s: %s\n", "ws_live_rate", unknown_backend_message(backend_name).c_str());
    return 2;
  }

  std::int64_t n = 0;
  if (std::string err = parse_count_option("--n", n_text, n); !err.empty()) {
    std::fprintf(stderr, "ws_live_rate: %s\n", err.c_str());
    return 2;
  }
  std::vector<RunRequest> reqs;
  std::stringstream ids(variants);
  for (std::string id; std::getline(ids, id, ',');) {
    RunRequest r;
    r.variant = id;
    r.n = n;
    r.backend = backend_kind;
    r.repeat = repeat;
    reqs.push_back(r);
  }
  if (reqs.empty()) {
    std::fprintf(stderr, "ws_live_rate: --variants names nothing\n");
    return 2;
  }
  std::unique_ptr<Backend> backend;
  std::string why;
  if (backend_kind == BackendKind::Cuda && !(backend = open_cuda_backend(why))) {
    std::fprintf(stderr, "ws_live_rate: %s\n", why.c_str());
    return 3;
  }
  WorkerLaunch launch;
  if (std::string err = parse_gpu_spec(gpu, find_local_cli(), launch); !err.empty()) {
    std::fprintf(stderr, "ws_live_rate: %s\n", err.c_str());
    return 2;
  }
  WorkerClient worker(launch);
  if (std::string err = worker.start(); !err.empty()) {
    std::fprintf(stderr, "ws_live_rate: %s\n", err.c_str());
    return 1;
  }

  // The two ways alternate in slices, so both see the same machine (a shared machine's load moves).
  LiveRunner runner(reqs);
  LivePipeline pipeline(worker, reqs, batch_seconds, depth);
  long long in_launches = 0, in_runs = 0, w_launches = 0, w_runs = 0, batches = 0;
  double in_s = 0, w_s = 0;
  auto count = [&](const LivePipeline::Reply& rep) {
    if (rep.kind != WorkerReply::Kind::Ok || rep.batch.failed) {
      std::fprintf(stderr, "ws_live_rate: live_batch: %s\n",
                   rep.kind != WorkerReply::Kind::Ok ? rep.text.c_str() : "a run failed");
      std::exit(1);
    }
    if (rep.dropped) return;
    ++batches;
    for (const auto& got : rep.batch.requests) {
      w_runs += got.runs;
      w_launches += got.last && got.last->timed ? (long long)got.times_ms.size() : got.runs;
    }
  };
  // Start-up is not Live's rate: the first in-process run (module load, first allocations) and the worker's
  // first batches (after its hello the worker runs its metrics warm-up, about 0.5 s on an H100, before it
  // takes a request: docs/device/h200-metrics.md) are taken before the clocks start; the worker's is printed.
  {
    RunResult r;
    runner.step(backend.get(), why, r);
  }
  const auto ready0 = Clock::now();
  const LivePipeline::Reply first = pipeline.next();
  if (first.kind != WorkerReply::Kind::Ok || first.batch.failed) {
    std::fprintf(stderr, "ws_live_rate: first live_batch: %s\n",
                 first.kind != WorkerReply::Kind::Ok ? first.text.c_str() : "a run failed");
    return 1;
  }
  (void)pipeline.drain();
  const double first_batch_s = seconds_since(ready0);
  while (in_s < seconds || w_s < seconds) {
    // In-process: one run per turn, round robin, as RunWorker's Live does without a worker.
    auto t0 = Clock::now();
    while (seconds_since(t0) < slice) {
      RunResult r;
      runner.step(backend.get(), why, r);
      const long long k = launches_of(r);
      if (k == 0) {
        std::fprintf(stderr, "ws_live_rate: in-process %s: %s %s\n", r.variant.c_str(), to_string(r.status),
                     r.message.c_str());
        return 1;
      }
      in_launches += k;
      ++in_runs;
    }
    in_s += seconds_since(t0);
    // Through the worker: batches by time, kept in flight; the slice ends when the last is back.
    t0 = Clock::now();
    while (seconds_since(t0) < slice) count(pipeline.next());
    for (const auto& rep : pipeline.drain()) count(rep);
    w_s += seconds_since(t0);
  }

  const double in_rate = double(in_launches) / in_s, w_rate = double(w_launches) / w_s;
  std::printf("Live: %s, %s, n=%lld, repeat=%d; worker on %s (%s), batches of %.3f s, %d in flight\n", variants.c_str(),
              backend_name.c_str(), (long long)n, repeat, worker.hello().host.c_str(), gpu.c_str(), batch_seconds,
              depth);
  std::printf("  in-process  %10.0f launches/s  (%lld runs in %.1f s)\n", in_rate, in_runs, in_s);
  std::printf("  worker      %10.0f launches/s  (%lld runs in %lld batches in %.1f s)\n", w_rate, w_runs, batches, w_s);
  std::printf("  ratio       %9.1f %%\n", 100.0 * w_rate / in_rate);
  std::printf("  (before the clocks: the worker's first batch came back %.3f s after its hello)\n", first_batch_s);
  return 0;
}
