// warpscope-cli sweep: the chosen variants at n = 2^from .. 2^to, as a table, JSON or CSV.
#include <cstdio>
#include <memory>
#include <string>

#include "backend_factory.hpp"
#include "commands.hpp"
#include "report.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "sweep.hpp"

namespace ws::cli {

int cmd_sweep(const SweepOptions& so, const RunOptions& o, bool json, bool csv) {
  SweepSpec spec;
  std::string err = select_variants(so.variants == "all" ? "reduction" : so.variants, spec.variants);  // sweeps are of reductions
  spec.from_log2 = so.from_log2;
  spec.to_log2 = so.to_log2;
  if (err.empty() && !o.n.empty()) err = "sweep takes --from and --to (n = 2^from .. 2^to), not --n";
  if (err.empty() && (o.block != 0 || o.grid != 0)) err = "sweep runs each variant with its own default launch: drop --block/--grid";
  if (err.empty() && !parse_dtype(o.type, spec.type)) err = "--type '" + o.type + "' is not int32 or float32";
  spec.input = o.input;
  spec.seed = o.seed;
  spec.repeat = o.repeat;
  spec.backend = o.backend;
  if (err.empty()) err = validate_sweep(spec);
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", err.c_str());
    return kBadRequest;
  }
  std::string why;
  std::unique_ptr<Backend> backend;
  if (spec.backend == "cuda") {
    backend = open_cuda_backend(why);
    if (!backend) {
      std::fprintf(stderr, "warpscope-cli: %s\n", no_device_hint(why).c_str());
      return kNoDevice;
    }
  }
  DeviceInfo device = backend ? backend->device() : sim::SimBackend().device();
  int failures = 0;
  const bool table = !json && !csv;
  if (table) std::printf("%-22s %6s %12s %10s %8s  %s\n", "variant", "n", "time ms", "GB/s", "% peak", "check");
  if (csv) std::printf("%s\n", csv_header().c_str());
  auto progress = [&](const SweepProgress& p) {
    const RunResult& r = *p.last;
    if (r.status == "wrong" || r.status == "error") ++failures;
    if (table) {
      int k = 0;
      while ((std::int64_t(1) << k) < r.n) ++k;
      auto num = [&](const char* fmt, double v) {  // "-" for untimed runs (sim, errors, skipped)
        char buf[32];
        std::snprintf(buf, sizeof buf, fmt, v);
        return r.timed ? std::string(buf) : std::string("-");
      };
      std::printf("%-22s %6s %12s %10s %8s  %s\n", r.variant.c_str(), ("2^" + std::to_string(k)).c_str(),
                  num("%.4f", r.timing.median_ms).c_str(), num("%.1f", r.gbps).c_str(),
                  num("%.1f", r.pct_theoretical).c_str(), r.message.empty() ? r.status.c_str() : r.message.c_str());
    } else if (!json) {
      std::printf("%s\n", csv_row(r).c_str());
    } else {
      std::fprintf(stderr, "\r%d/%d %s", p.done, p.total, r.variant.c_str());
    }
    std::fflush(stdout);
  };
  Sweep s = run_sweep(spec, backend.get(), why, nullptr, progress, &err);
  if (json) std::fprintf(stderr, "\n");
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", err.c_str());
    return kFailed;
  }
  s.title = so.title.empty() ? "sweep 2^" + std::to_string(spec.from_log2) + "..2^" + std::to_string(spec.to_log2) +
                                   " of " + so.variants
                             : so.title;
  if (json) {
    nlohmann::json j = sweep_to_json(s);
    j["device"] = device_to_json(device);
    std::printf("%s\n", j.dump(2).c_str());
  }
  if (!so.report_path.empty()) {
    Report report = new_report(s.title, device);
    report.sweeps.push_back(s);
    save_report(report, so.report_path);
    std::fprintf(stderr, "wrote %s (sweep of %zu runs, %d failed)\n", so.report_path.c_str(), s.runs.size(), failures);
  }
  return failures ? kFailed : kOk;
}

}  // namespace ws::cli
