// ws_metrics_bench: in-process cost of metrics (issue 4, performance bar). Opens the CUDA backend,
// runs the variant once without metrics (context, modules and CUPTI's one-time set-up done), then
// with `--metrics SET` K times, and prints one JSON object: profile_ms of every collection (request
// to values, host clock), passes, and the values of the last one. scripts/metrics_vs_ncu.py puts it
// beside what ncu adds for the same kernel and metrics.
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "backend_factory.hpp"
#include "launch_rules.hpp"
#include "report.hpp"
#include "request.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: ws_metrics_bench VARIANT N METRICS [K]\n");
    return 2;
  }
  std::string err;
  auto backend = ws::open_cuda_backend(err);
  if (!backend) {
    std::fprintf(stderr, "ws_metrics_bench: %s\n", err.c_str());
    return 3;
  }
  ws::RunRequest req;
  req.variant = argv[1];
  if (!ws::parse_count(argv[2], req.n)) {
    std::fprintf(stderr, "ws_metrics_bench: bad N '%s'\n", argv[2]);
    return 2;
  }
  req.repeat = 20;
  req.warmup = 1;
  ws::RunResult plain = ws::execute(req, backend.get());
  req.repeat = 1;
  nlohmann::json out;
  out["variant"] = req.variant;
  out["n"] = req.n;
  out["metrics"] = argv[3];
  out["plain_status"] = plain.status;
  out["plain_median_ms_before"] = plain.timing.median_ms;
  out["profile_ms"] = nlohmann::json::array();
  out["lines_per_collection"] = nlohmann::json::array();
  out["passes"] = nlohmann::json::array();
  const int k = argc > 4 ? std::atoi(argv[4]) : 3;
  req.metrics = argv[3];
  ws::RunResult r;
  for (int i = 0; i < k; ++i) {
    r = ws::execute(req, backend.get());
    out["profile_ms"].push_back(r.metrics.profile_ms);
    out["lines_per_collection"].push_back(r.metrics.lines.size());
    out["passes"].push_back(r.metrics.passes);
  }
  out["last"] = ws::metrics_to_json(r.metrics);
  // Timing after profiling (the profiler may stay enabled on the context): compare with the first.
  req.metrics.clear();
  req.repeat = 20;
  ws::RunResult after = ws::execute(req, backend.get());
  req.repeat = 20;
  out["plain_median_ms_after"] = after.timing.median_ms;
  out["launches"] = r.launches;
  std::printf("%s\n", out.dump(2).c_str());
  return r.metrics.collected ? 0 : 1;
}
