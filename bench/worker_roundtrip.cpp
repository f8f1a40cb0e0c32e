// ws_worker_roundtrip: what a worker process adds to a request. Median (and p90) wall time of COUNT
// small runs in-process (execute) and through a worker (WorkerClient::run), same request. Live's
// launches per second: ws_live_rate (live_rate.cpp).
//   build-ci/bench/ws_worker_roundtrip --backend sim|cuda [--count 1000] [--n 1024] [--gpu local|ssh:HOST|slurm:ARGS]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "backend_factory.hpp"
#include "report.hpp"
#include "request.hpp"
#include "worker_client.hpp"

using namespace ws;

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[std::min(v.size() - 1, std::size_t(q * double(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"median round trip of small requests: in-process against a worker process"};
  std::string backend_name = "sim", gpu = "local", variant = "epita.reduce3";
  int count = 1000, repeat = 1;
  long long n = 1024;
  app.add_option("--backend", backend_name, "sim | cuda (default sim)");
  app.add_option("--count", count, "requests each way (default 1000)");
  app.add_option("--n", n, "elements per request (default 1024)");
  app.add_option("--repeat", repeat, "timed launches per request (default 1, no warm-up)");
  app.add_option("--variant", variant, "variant (default epita.reduce3)");
  app.add_option("--gpu", gpu, "where the worker runs: local | ssh:HOST | slurm:ARGS (default local)");
  CLI11_PARSE(app, argc, argv);
  BackendKind backend_kind = BackendKind::Sim;
  if (!parse_backend(backend_name, backend_kind) || backend_kind == BackendKind::Cpu) {
    std::fprintf(stderr, "%s: %s\n", "ws_worker_roundtrip", unknown_backend_message(backend_name).c_str());
    return 2;
  }

  RunRequest req;
  req.variant = variant;
  req.n = n;
  req.backend = backend_kind;
  req.repeat = repeat;
  req.warmup = 0;
  std::unique_ptr<Backend> backend;
  std::string why;
  if (backend_kind == BackendKind::Cuda && !(backend = open_cuda_backend(why))) {
    std::fprintf(stderr, "ws_worker_roundtrip: %s\n", why.c_str());
    return 3;
  }
  WorkerLaunch launch;
  if (std::string err = parse_gpu_spec(gpu, find_local_cli(), launch); !err.empty()) {
    std::fprintf(stderr, "ws_worker_roundtrip: %s\n", err.c_str());
    return 2;
  }
  WorkerClient worker(launch);
  const auto started = Clock::now();
  if (std::string err = worker.start(); !err.empty()) {
    std::fprintf(stderr, "ws_worker_roundtrip: %s\n", err.c_str());
    return 1;
  }
  const double start_ms = ms_since(started);

  std::vector<double> local, remote;
  for (int i = 0; i < count; ++i) {  // interleaved, so both see the same machine state
    auto t0 = Clock::now();
    const RunResult a = execute(req, backend.get());
    local.push_back(ms_since(t0));
    t0 = Clock::now();
    const RunResult b = worker.run(req);
    remote.push_back(ms_since(t0));
    if (a.status != RunStatus::Ok || b.status != RunStatus::Ok || a.result != b.result) {
      std::fprintf(stderr, "ws_worker_roundtrip: run %d: in-process %s (%s), worker %s (%s)\n", i, to_string(a.status),
                   a.message.c_str(), to_string(b.status), b.message.c_str());
      return 1;
    }
  }
  const double lm = percentile(local, 0.5), wm = percentile(remote, 0.5);
  std::printf("%s %s n=%lld repeat=%d, %d requests, worker on %s (%s), started in %.0f ms\n", variant.c_str(),
              backend_name.c_str(), n, repeat, count, worker.hello().host.c_str(), gpu.c_str(), start_ms);
  std::printf("  in-process   median %.3f ms   p90 %.3f ms\n", lm, percentile(local, 0.9));
  std::printf("  worker       median %.3f ms   p90 %.3f ms\n", wm, percentile(remote, 0.9));
  std::printf("  added        median %.3f ms\n", wm - lm);

  return 0;
}
