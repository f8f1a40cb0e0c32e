// warpscope-cli sweep: the chosen variants at n = 2^from .. 2^to, or filters over the kept fraction at
// one n (--keep-fraction), as a table, JSON or CSV.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "backend_factory.hpp"
#include "commands.hpp"
#include "json_read.hpp"
#include "launch_rules.hpp"
#include "patterns.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "sweep.hpp"
#include "table.hpp"

namespace ws::cli {

namespace {

/// "n" of a size sweep as 2^k (or the number when it is not a power of two).
std::string pow2_label(std::int64_t n) {
  int k = 0;
  while ((std::int64_t(1) << k) < n) ++k;
  return (std::int64_t(1) << k) == n ? "2^" + std::to_string(k) : std::to_string(n);
}

}  // namespace

int cmd_sweep(const SweepOptions& so, const RunOptions& o, bool json, bool csv, ProgressMode progress_mode) {
  SweepSpec spec;
  const bool by_keep = !so.keep_fractions.empty();
  // "all": every reduction (every filter for a kept-fraction sweep). A lesson or pattern drops the variants
  // that cannot be swept, saying so; ids named one by one are checked by validate_sweep.
  const std::string& which = so.variants;
  std::vector<std::string> ids, notes;
  // --report (the old name of --out: the GUI's --report reads) never replaces a file, even with --force.
  RunOptions out_check = o;
  if (so.deprecated_report) out_check.force = false;
  const OutputPolicy out_policy = output_policy(out_check.force);
  std::string err = so.report_path.empty()
                        ? ""
                        : check_output(out_check, so.report_path, so.deprecated_report ? "--report" : "--out");
  if (so.deprecated_report && err.find("' exists: it is kept") != std::string::npos)
    err = "--report '" + so.report_path +
          "' exists: it is kept (--report, the old name of --out, never replaces a "
          "file: use --out PATH --force)";
  if (err.empty() && so.keep_fractions_given && so.keep_fractions.empty())
    err = "--keep-fraction is empty: give A:B:STEP (0:1:0.1) or a list (0.1,0.5,0.9)";
  // A pattern name first: the scan lesson holds one variant of the scan pattern.
  PatternKind pattern{};
  const bool a_pattern = parse_pattern(which, pattern);
  for (const auto& v : all_variants()) {
    const bool all = which == "all" && (by_keep ? is_filter_variant(v) : pattern_of(v).swept_by_default);
    if (all || (a_pattern && v.pattern == pattern)) ids.push_back(v.id);
  }
  if (ids.empty() && err.empty()) err = select_variants(which, ids);
  const bool named = which.find(',') != std::string::npos || find_variant(which) != nullptr;
  for (const auto& id : ids) {
    const VariantInfo& v = *find_variant(id);
    std::string why = named ? "" : sweep_refusal(v);
    if (why.empty() && !named && by_keep && !is_filter_variant(v)) why = "not a filter";
    if (why.empty())
      spec.variants.push_back(id);
    else if (!(by_keep && !is_filter_variant(v)))
      notes.push_back(why);
  }
  if (err.empty() && !spec.variants.empty()) err = pattern_option_refusal(o, spec.variants);
  if (err.empty() && spec.variants.empty()) err = "--variants " + so.variants + " names no variant that can be swept";
  spec.from_log2 = so.from_log2;
  spec.to_log2 = so.to_log2;
  if (err.empty() && by_keep) {
    err = parse_keep_fractions(so.keep_fractions, spec.keep_fractions);
    if (err.empty() && so.range_given) err = "--keep-fraction sweeps at one n: give --n, not --from/--to";
    if (err.empty() && so.keep_given) err = "--keep-fraction sweeps the kept fraction: drop --keep";
    const std::string n_text = o.n.empty() ? "2^24" : o.n;
    if (err.empty()) err = parse_count_option("--n", n_text, spec.n);
  } else if (err.empty() && !o.n.empty()) {
    err = "sweep takes --from and --to (n = 2^from .. 2^to), not --n (--n goes with --keep-fraction)";
  }
  if (err.empty()) {  // the option ranges `run` checks (--mask-width, --keep, --type, ...)
    RunOptions check = o;
    check.n.clear();
    RunRequest probe;
    err = to_request(check, spec.variants[0], probe);
  }
  if (err.empty() && (o.block != 0 || o.grid != 0))
    err = "sweep runs each variant with its own default launch: drop --block/--grid";
  if (err.empty() && !parse_dtype(o.type, spec.type)) err = "--type '" + o.type + "' is not int32, float32 or uint8";
  spec.input = o.input;
  spec.seed = o.seed;
  spec.repeat = o.repeat;
  spec.backend = o.backend;
  spec.params = o.params;
  if (err.empty()) err = validate_sweep(spec);
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", err.c_str());
    return kBadRequest;
  }
  for (const auto& note : notes) std::fprintf(stderr, "warpscope-cli: not swept: %s\n", note.c_str());
  if (so.deprecated_report)
    std::fprintf(stderr, "warpscope-cli: sweep --report is deprecated: it is --out now (it never replaces a file)\n");
  std::string why;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<WorkerClient> worker;  // --gpu: the sweep runs in it
  if (!o.gpu.empty()) {
    worker = start_gpu_worker(o, why);
    if (!worker) {
      std::fprintf(stderr, "warpscope-cli: %s\n", why.c_str());
      return kFailed;
    }
    if (spec.backend == BackendKind::Cuda) {
      if (std::string lack = worker_lacks(*worker, BackendKind::Cuda); !lack.empty()) {
        std::fprintf(stderr, "warpscope-cli: %s\n", no_device_hint(lack).c_str());
        return kNoDevice;
      }
      backend = std::make_unique<WorkerTraceBackend>(*worker);  // its device() is the worker's
    }
  } else if (spec.backend == BackendKind::Cuda) {
    backend = open_cuda_backend(why);
    if (!backend) {
      std::fprintf(stderr, "warpscope-cli: %s\n", no_device_hint(why).c_str());
      return kNoDevice;
    }
  }
  DeviceInfo device = backend ? backend->device() : sim::SimBackend().device();
  int failures = 0;
  const bool table = !json && !csv;
  if (table && by_keep) std::printf("n = %s\n", pow2_label(spec.n).c_str());
  const int id_w = column_width(spec.variants, "variant");
  // Sim runs are untimed: their column is the model's host time, marked as such (not GPU time).
  if (table)
    std::printf("%-*s %6s %12s %10s %8s %12s  %s\n", id_w, "variant", by_keep ? "kept" : "n", "time ms", "GB/s",
                "% peak", "host ms", "check");
  Progress shown(show_progress(progress_mode, !table), 0);
  auto progress = [&](const SweepProgress& p) {
    const RunResult& r = *p.last;
    if (is_failure(r.status)) ++failures;
    char kept[64] = "";
    if (by_keep)
      std::snprintf(kept, sizeof kept, "%.3f", kept_fraction(r) >= 0 ? kept_fraction(r) : r.params.keep_fraction);
    if (table) {
      char host[32] = "-";
      if (r.host_ms.recorded()) std::snprintf(host, sizeof host, "%.3f", r.host_ms.total);
      std::printf("%-*s %6s %12s %10s %8s %12s  %s\n", id_w, r.variant.c_str(),
                  by_keep ? kept : pow2_label(r.n).c_str(), timed_cell(r, "%.4f", r.timing.median_ms).c_str(),
                  timed_cell(r, "%.1f", r.gbps).c_str(),
                  (r.pct_theoretical > 0 ? timed_cell(r, "%.1f", r.pct_theoretical) : "-").c_str(), host,
                  r.message.empty() ? to_string(r.status) : r.message.c_str());
      std::fflush(stdout);
    }
    shown.item(p.done, r.variant + " " + (by_keep ? std::string(kept) : pow2_label(r.n)) + " " + to_string(r.status),
               p.total);
  };
  Sweep s = worker ? worker->sweep(spec, "", nullptr, progress, err)
                   : run_sweep(spec, backend.get(), why, nullptr, progress, &err);
  shown.done();
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", err.c_str());
    return kFailed;
  }
  if (!so.title.empty())
    s.title = so.title;
  else if (by_keep)
    s.title = "kept-fraction sweep at n = " + pow2_label(spec.n) + " of " + so.variants;
  else
    s.title =
        "sweep 2^" + std::to_string(spec.from_log2) + "..2^" + std::to_string(spec.to_log2) + " of " + so.variants;
  if (json || csv) {
    nlohmann::json j = sweep_to_json(s);
    j["device"] = device_to_json(device);
    // A kept-fraction sweep's x: the fraction asked (params.keep_fraction) and the one the input kept.
    if (by_keep && j.contains("runs"))
      for (std::size_t i = 0; i < s.runs.size() && i < j["runs"].size(); ++i)
        j["runs"][i]["kept_fraction"] =
            kept_fraction(s.runs[i]) >= 0 ? nlohmann::json(kept_fraction(s.runs[i])) : nlohmann::json(nullptr);
    if (json) {
      std::printf("%s\n", dump_json_text(with_format(j, "sweep"), 2).c_str());
    } else {
      std::vector<nlohmann::json> rows(j["runs"].begin(), j["runs"].end());
      std::fputs(
          csv_table(rows, {"variant", "n", "params.keep_fraction", "kept_fraction", "time_ms", "gbps", "host_ms.total"})
              .c_str(),
          stdout);
    }
  }
  if (!so.report_path.empty()) {
    Report report = new_report(s.title, device);
    report.sweeps.push_back(s);
    save_report(report, so.report_path, out_policy);
    std::fprintf(stderr, "wrote %s (sweep of %zu runs, %d failed)\n", so.report_path.c_str(), s.runs.size(), failures);
  }
  if (exit_code(s.runs) == kFaulted && !worker)
    for (const auto& r : s.runs)
      if (r.status == RunStatus::Faulted) std::fprintf(stderr, "warpscope-cli: %s\n", fault_line(r, true).c_str());
  return failures ? std::max<int>(kFailed, exit_code(s.runs)) : kOk;
}

}  // namespace ws::cli
