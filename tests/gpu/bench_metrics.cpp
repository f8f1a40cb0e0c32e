// ws_metrics_bench: in-process cost of metrics. Opens the CUDA backend,
// runs the variant once without metrics (context, modules and CUPTI's one-time set-up done), then
// with `--metrics SET` K times, and prints one JSON object: profile_ms of every collection (request
// to values, host clock), passes, and the values of the last one. scripts/metrics_vs_ncu.py puts it
// beside what ncu adds for the same kernel and metrics.
//
// --warm-up (anywhere on the line): before the K requests, the worker's start-up warm-up
// (Backend::warm_up_metrics, issue 31), timed; profile_ms[0] is then "the first request after the
// warm-up", without it "the first request cold". Both are first requests of their process (CUPTI's
// set-up is once per process), so measuring both takes two runs of this program:
//   ws_metrics_bench harris.impl2 2^24 default 4; ws_metrics_bench harris.impl2 2^24 default 4 --warm-up
//
// --prepare: after the warm-up and after each request, what the worker does while it waits for the next one
// (Backend::prepare_next_metrics: the kept session's Start), timed apart in prepare_ms; profile_ms is then
// each request as a worker's user sees it when requests do not come back to back.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backend_factory.hpp"
#include "launch_rules.hpp"
#include "report.hpp"
#include "request.hpp"

int main(int argc, char** argv) {
  bool warm_up = false, prepare = false;
  int kept_args = 1;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--warm-up")
      warm_up = true;
    else if (std::string(argv[i]) == "--prepare")
      prepare = true;
    else
      argv[kept_args++] = argv[i];
  argc = kept_args;
  if (argc < 4) {
    std::fprintf(stderr, "usage: ws_metrics_bench VARIANT N METRICS [K] [--warm-up] [--prepare]\n");
    return 2;
  }
  std::string err;
  auto backend = ws::open_cuda_backend(err);
  if (!backend) {
    std::fprintf(stderr, "ws_metrics_bench: %s\n", err.c_str());
    return 3;
  }
  ws::RunRequest req;
  // VARIANT may be a comma-separated list: collection i profiles variant i mod count (a check that
  // each request's values are its own).
  std::vector<std::string> variants;
  for (std::string v = argv[1]; !v.empty();) {
    auto c = v.find(',');
    variants.push_back(v.substr(0, c));
    v = c == std::string::npos ? "" : v.substr(c + 1);
  }
  req.variant = variants.front();
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
  out["plain_status"] = to_string(plain.status);
  out["plain_median_ms_before"] = plain.timing.median_ms;
  out["profile_ms"] = nlohmann::json::array();
  out["lines_per_collection"] = nlohmann::json::array();
  out["passes"] = nlohmann::json::array();
  out["warm_up"] = warm_up ? "" : "none (first request cold)";
  if (warm_up) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      out["warm_up"] = backend->warm_up_metrics();
    } catch (const std::exception& e) { out["warm_up"] = std::string("failed: ") + e.what(); }
    out["warm_up_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  out["prepare_ms"] = nlohmann::json::array();
  auto prepare_next = [&] {
    if (!prepare) return;
    const auto t0 = std::chrono::steady_clock::now();
    std::string did;
    try {
      did = backend->prepare_next_metrics();
    } catch (const std::exception& e) { did = std::string("failed: ") + e.what(); }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    out["prepare_ms"].push_back(did.empty() ? nlohmann::json("nothing to prepare") : nlohmann::json(ms));
    if (did.rfind("failed", 0) == 0) out["prepare_error"] = did;
  };
  if (warm_up) prepare_next();
  const int k = argc > 4 ? std::atoi(argv[4]) : 3;
  req.metrics = argv[3];
  ws::RunResult r;
  out["per_collection"] = nlohmann::json::array();
  for (int i = 0; i < k; ++i) {
    req.variant = variants[std::size_t(i) % variants.size()];
    r = ws::execute(req, backend.get());
    nlohmann::json pc;
    pc["variant"] = req.variant;
    for (const char* m : {"gpu__time_duration.sum", "smsp__inst_executed.sum", "dram__bytes_read.sum",
                          "smsp__sass_inst_executed_op_global_red"})
      if (r.metrics.values.count(m)) pc[m] = r.metrics.values.at(m);
    pc["lines"] = r.metrics.lines.size();
    pc["error"] = r.metrics.error;
    out["per_collection"].push_back(pc);
    out["profile_ms"].push_back(r.metrics.profile_ms);
    out["lines_per_collection"].push_back(r.metrics.lines.size());
    out["passes"].push_back(r.metrics.passes);
    prepare_next();
  }
  if (!out["profile_ms"].empty()) out["first_request_ms"] = out["profile_ms"][0];
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
