// TEST CODE ONLY: writes the screenshot fixture: a report with a sweep of 10 reduction variants over
// 19 sizes (2^4 .. 2^22) and one run of each at 2^22, all from SyntheticBackend (made-up timings,
// labelled SYNTHETIC in the title and device name). Usage: ws_make_synthetic_report OUT.json [keep]
// With "keep": a report with a kept-fraction sweep of the filters instead (0..1 by 0.1 at n = 2^20).
// With "many": a sweep of 40 made-up series, two of them coinciding (synthetic_many_series.hpp).
// With "stalls FIXTURE.json": that report with made-up PC sampling stalls on the lines of each run's
// per-line metrics (samples from the line's warp instructions, reasons rotated line by line), as if
// recorded with `--metrics pcsampling` alone.
#include <cmath>
#include <cstdio>
#include <string>

#include "report.hpp"
#include "request.hpp"
#include "sweep.hpp"
#include "synthetic_backend.hpp"
#include "synthetic_many_series.hpp"

namespace {

int stalls_report(const std::string& out, const std::string& fixture) {
  const char* reasons[] = {"barrier",      "long_scoreboard",    "wait",        "short_scoreboard", "selected",
                           "not_selected", "math_pipe_throttle", "mio_throttle"};
  const double shares[] = {0.55, 0.25, 0.12, 0.08};
  ws::Report rep = ws::load_report(fixture);
  rep.title = "SYNTHETIC stall samples (made up, not measurements) on " + rep.title;
  for (auto& r : rep.runs) {
    std::vector<ws::PcRecord> records;
    for (std::size_t i = 0; i < r.metrics.lines.size(); ++i) {
      const ws::LineMetrics& l = r.metrics.lines[i];
      ws::PcRecord rec{"synthetic_" + r.variant, l.file, l.line, {}};
      for (std::size_t j = 0; j < 4; ++j)
        rec.stalls.emplace_back(std::string("smsp__pcsamp_warps_issue_stalled_") + reasons[(i + j) % 8],
                                std::floor(l.warp_instructions / 1000 * shares[j]));
      records.push_back(std::move(rec));
    }
    if (records.empty()) continue;
    r.metrics.pc_sampling.collected = true;
    r.metrics.pc_sampling.period_log2 = 8;
    r.metrics.pc_sampling.kernels = ws::aggregate_pc_records(records);
    r.metrics.pc_sampling.hardware_samples = r.metrics.pc_sampling.samples();
    // As `--metrics pcsampling` records it: that group alone.
    r.metrics.values = {{"ws__pc_samples", r.metrics.pc_sampling.samples()}};
    r.metrics.lines.clear();
    r.metrics.passes = 0;
    r.metrics.asked = "pcsampling";
  }
  ws::save_report(rep, out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[2]) == "stalls") return stalls_report(argv[1], argv[3]);
  if (argc != 2 && !(argc == 3 && (std::string(argv[2]) == "keep" || std::string(argv[2]) == "many"))) {
    std::fprintf(stderr, "usage: ws_make_synthetic_report OUT.json [keep|many|stalls FIXTURE.json]\n");
    return 2;
  }
  if (argc == 3 && std::string(argv[2]) == "many") {
    ws::save_report(ws::test::many_series_report(), argv[1]);
    return 0;
  }
  ws::test::SyntheticBackend backend;
  if (argc == 3) {
    ws::SweepSpec spec;
    spec.variants = {"cs121.filter_global", "cs121.filter_shared",   "cs121.filter_warp_agg",
                     "cs121.filter_scan",   "cs121.filter_scan_vec", "cub.select"};
    spec.n = std::int64_t(1) << 20;  // large enough for the made-up curve to be near its plateau
    spec.repeat = 3;
    std::string err = ws::parse_keep_fractions("0:1:0.1", spec.keep_fractions);
    ws::Sweep sweep = err.empty() ? ws::run_sweep(spec, &backend, "", nullptr, nullptr, &err) : ws::Sweep{};
    if (!err.empty()) {
      std::fprintf(stderr, "ws_make_synthetic_report: %s\n", err.c_str());
      return 1;
    }
    sweep.title = "SYNTHETIC kept-fraction sweep (fake backend, not measurements)";
    ws::Report rep = ws::new_report("SYNTHETIC test fixture: fake backend timings, not measurements", backend.device());
    rep.sweeps.push_back(std::move(sweep));
    ws::save_report(rep, argv[1]);
    return 0;
  }
  ws::SweepSpec spec;
  spec.variants = {"epita.reduce0", "epita.reduce2",     "epita.reduce3", "epita.reduce4",       "epita.reduce5",
                   "epita.reduce6", "epita.full_unroll", "epita.reduce7", "epita.reduce8_fixed", "cub.reduce"};
  spec.from_log2 = 4;
  spec.to_log2 = 22;
  spec.repeat = 3;
  std::string err;
  ws::Sweep sweep = ws::run_sweep(spec, &backend, "", nullptr, nullptr, &err);
  if (!err.empty()) {
    std::fprintf(stderr, "ws_make_synthetic_report: %s\n", err.c_str());
    return 1;
  }
  sweep.title = "SYNTHETIC test sweep (fake backend, not measurements)";
  ws::Report rep = ws::new_report("SYNTHETIC test fixture: fake backend timings, not measurements", backend.device());
  for (const auto& id : spec.variants) {
    ws::RunRequest req;
    req.variant = id;
    req.n = std::int64_t(1) << 22;
    req.repeat = 3;
    rep.runs.push_back(ws::execute(req, &backend));
  }
  rep.sweeps.push_back(std::move(sweep));
  ws::save_report(rep, argv[1]);
  return 0;
}
