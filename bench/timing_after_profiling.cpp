// ws_timing_after_profiling: do profiling passes leave the GPU's timed launches unchanged? (Moved out of the
// GPU tests, issue 24: a timing compared with a margin is a benchmark.) In one process on the CUDA backend:
//   1. epita.reduce6 at 2^26 int32, median of 30 launches, before and after a PC sampling pass of the same
//      variant: prints the ratio after / before (1.00 = unchanged; the tests once held it under 1.05).
//   2. The range profiler's kept session against a fresh one (WS_CUPTI_FRESH_SESSION=1): the third
//      request's profile_ms in each (the kept session skips the set-up) and the kernels' profiled durations.
// Usage: ws_timing_after_profiling [--rounds R]   (prints one line per measurement; needs a GPU)
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "backend_factory.hpp"
#include "request.hpp"

using namespace ws;

namespace {

RunResult run(Backend* b, const std::string& variant, std::int64_t n, int repeat, const std::string& metrics) {
  RunRequest req;
  req.variant = variant;
  req.n = n;
  req.repeat = repeat;
  req.metrics = metrics;
  RunResult r = execute(req, b);
  if (r.status != RunStatus::Ok && r.status != RunStatus::Race)
    std::fprintf(stderr, "ws_timing_after_profiling: %s: %s\n", variant.c_str(), r.message.c_str());
  return r;
}

double duration_ns(const RunResult& r) {
  const auto it = r.metrics.values.find("gpu__time_duration.sum");
  return it == r.metrics.values.end() ? 0 : it->second;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Timed launches after profiling passes, against before (a benchmark, not a test)"};
  int rounds = 3;
  app.add_option("--rounds", rounds, "rounds of each measurement")->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);
  std::string err;
  std::unique_ptr<Backend> b = open_cuda_backend(err);
  if (!b) {
    std::fprintf(stderr, "ws_timing_after_profiling: %s\n", err.c_str());
    return 3;
  }
  const std::int64_t n = std::int64_t(1) << 26;
  for (int i = 0; i < rounds; ++i) {
    const double before = run(b.get(), "epita.reduce6", n, 30, "").timing.median_ms;
    run(b.get(), "epita.reduce6", std::int64_t(1) << 24, 3, "pcsampling");
    const double after = run(b.get(), "epita.reduce6", n, 30, "").timing.median_ms;
    std::printf("pc sampling round %d: epita.reduce6 2^26 median %.4f ms before, %.4f ms after: %.3fx\n", i, before,
                after, before > 0 ? after / before : 0);
  }
  const char* variants[] = {"harris.impl1", "epita.reduce1", "cs121.hist_global"};
  for (int i = 0; i < rounds; ++i) {
    RunResult kept[3], fresh[3];
    for (int k = 0; k < 3; ++k) kept[k] = run(b.get(), variants[k], std::int64_t(1) << 24, 3, "default");
    setenv("WS_CUPTI_FRESH_SESSION", "1", 1);
    for (int k = 0; k < 3; ++k) fresh[k] = run(b.get(), variants[k], std::int64_t(1) << 24, 3, "default");
    unsetenv("WS_CUPTI_FRESH_SESSION");
    for (int k = 0; k < 3; ++k)
      std::printf(
          "range profiler round %d: %s profile %.1f ms kept, %.1f ms fresh; kernel %.0f ns kept, %.0f ns "
          "fresh (%.2fx)\n",
          i, variants[k], kept[k].metrics.profile_ms, fresh[k].metrics.profile_ms, duration_ns(kept[k]),
          duration_ns(fresh[k]), duration_ns(fresh[k]) > 0 ? duration_ns(kept[k]) / duration_ns(fresh[k]) : 0);
  }
  return 0;
}
