#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>

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
#include "trace_request.hpp"

namespace ws::cli {

/// The variant ids `which` names: "all", a lesson id, a pattern, or comma-separated ids. "" error or one line.
std::string select_variants(const std::string& which, std::vector<std::string>& ids) {
  if (which == "all") {
    for (const auto& v : all_variants()) ids.push_back(v.id);
    return "";
  }
  for (const auto& v : all_variants())
    if (v.lesson == which) ids.push_back(v.id);
  if (!ids.empty()) return "";
  if (PatternKind pattern; parse_pattern(which, pattern)) {
    for (const auto& v : all_variants())
      if (v.pattern == pattern) ids.push_back(v.id);
    if (!ids.empty()) return "";
  }
  std::stringstream ss(which);
  std::string id;
  while (std::getline(ss, id, ',')) {
    if (find_variant(id)) {
      ids.push_back(id);
      continue;
    }
    // One name may be a lesson or a pattern too; in a list of ids it is a variant id.
    if (id == which)
      return "unknown variant, lesson or pattern '" + id + "' (patterns: " + pattern_names() +
             "; warpscope-cli list shows the ids and lessons)";
    return "unknown variant '" + id + "' in '" + which + "' (warpscope-cli list shows the ids)";
  }
  return ids.empty() ? "--variants names nothing" : "";
}
namespace {

/// Stores the trace of block 0 of each traceable variant of `ids` on n random int32 elements with its
/// default block: recorded on the GPU and compared with the model (cuda), or the model's (sim).
/// Reductions and scans (inclusive) are traced; a scan whose launch rules refuse n gets a note.
/// Returns the number of GPU traces that could not be recorded or differ from the model.
int record_traces(const std::vector<std::string>& ids, long long n, Backend* gpu, Report& report) {
  Input in;
  make_input("random", n, DType::Int32, 1, in);
  int failures = 0;
  for (const auto& id : ids) {
    const VariantInfo& v = *find_variant(id);
    if (v.cpu_only || !v.traceable || !sim::has_model(id) || (gpu && v.racy)) continue;
    PreparedTrace prepared;
    std::string refused;
    const TraceStatus ready =
        prepare_trace(v, n, DType::Int32, TraceAsk{}, gpu ? gpu->device().shape() : DeviceShape{}, prepared, refused);
    if (ready != TraceStatus::Ok) {
      if (!pattern_of(v).scalar_result)
        std::fprintf(stderr, "%-22s trace: not stored (%s)\n", id.c_str(), refused.c_str());
      continue;
    }
    TraceOutcome traced;
    try {
      traced = execute_trace(prepared, in, PatternParams{}, gpu, TraceRecording::StepsOnly);
    } catch (const std::exception&) { continue; }
    if (traced.status != TraceStatus::Ok) {
      std::fprintf(stderr, "%-22s trace: %s\n", id.c_str(), traced.message.c_str());
      if (traced.status != TraceStatus::NoTraceBuild) ++failures;  // not instrumented: a note, not a failure
      continue;
    }
    if (traced.outs[0].trace.steps.empty()) continue;  // result-only models (cub.reduce)
    if (!traced.recorded) {
      report.traces.push_back(std::move(traced.outs[0].trace));
      continue;
    }
    Trace& recorded = traced.outs[0].trace;
    std::fprintf(stderr, "%-22s trace: %zu steps recorded on the GPU, %s\n", id.c_str(), recorded.steps.size(),
                 recorded.model_difference.empty() ? "equal to the model" : recorded.model_difference.c_str());
    if (!recorded.model_difference.empty()) ++failures;
    report.traces.push_back(std::move(recorded));
  }
  return failures;
}

}  // namespace

int cmd_report(const std::string& which, const RunOptions& o, const std::string& out_path, const std::string& title,
               bool json, long long trace_n, bool csv, ProgressMode progress_mode) {
  if (trace_n < 0 || trace_n > (1 << 24)) {
    std::fprintf(stderr, "warpscope-cli: --traces takes 1..16777216 elements (got %lld)\n", trace_n);
    return kBadRequest;
  }
  std::vector<std::string> ids;
  std::string err = check_output(o, out_path, "--out");  // before the first run, not after the last
  if (err.empty()) err = select_variants(which, ids);
  if (err.empty()) err = pattern_option_refusal(o, ids);
  RunRequest probe;
  PreparedRun shared;  // one input for every variant: generated (or read) once
  if (err.empty()) err = to_request(o, ids.front(), probe);
  if (err.empty()) {
    probe.launch = LaunchConfig{};  // each variant's own rules are checked below
    err = prepare_run(probe, shared);
  }
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", err.c_str());
    return kBadRequest;
  }
  std::string why;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<WorkerClient> worker;  // --gpu: every run (and GPU trace) goes to it
  if (!o.gpu.empty()) {
    worker = start_gpu_worker(o, why);
    if (!worker) {
      std::fprintf(stderr, "warpscope-cli: %s\n", why.c_str());
      return kFailed;
    }
    if (o.backend == BackendKind::Cuda) {
      if (std::string lack = worker_lacks(*worker, BackendKind::Cuda); !lack.empty()) {
        std::fprintf(stderr, "warpscope-cli: %s\n", no_device_hint(lack).c_str());
        return kNoDevice;
      }
      backend = std::make_unique<WorkerTraceBackend>(*worker);
    }
  } else if (o.backend == BackendKind::Cuda) {
    backend = open_cuda_backend(why);
    if (!backend) {
      std::fprintf(stderr, "warpscope-cli: %s\n", no_device_hint(why).c_str());
      return kNoDevice;
    }
  }
  DeviceInfo device = backend ? backend->device() : DeviceInfo{};
  if (o.backend == BackendKind::Sim)
    device = sim::SimBackend().device();  // runs go to the CPU model (execute_prepared)
  Report report = new_report(title.empty() ? "warpscope report: " + which : title, device);
  int failures = 0;
  // Generated inputs of the variants that make their own (histogram bytes, filters' --keep values), one
  // per kind of input (input_share_key), lent to each variant that reads the same.
  std::map<std::string, Input> own_inputs;
  const int id_w = column_width(ids, "variant");
  const bool table = !json && !csv;  // the table is stdout's; with --json/--csv stdout carries the data alone
  if (table) std::fputs(runs_table_header(id_w).c_str(), stdout);
  Progress progress(show_progress(progress_mode, !table), int(ids.size()));
  for (const auto& id : ids) {
    RunRequest req;
    to_request(o, id, req);
    PreparedRun p;
    p.variant = find_variant(id);
    p.launch = req.launch;
    RunResult r;
    // Patterns that build their own input (convolution: 1D signals and 2D images; atomics: bytes for
    // histograms, --keep for filters) prepare it per variant (same seed and options, so the same data);
    // the others share the report's input.
    const PatternSpec& spec = pattern_of(*p.variant);
    const bool own_input = spec.build_input || spec.make_input;
    PreparedRun mine;
    Input* lend = nullptr;
    if (own_input && !spec.build_input && is_generated_kind(req.input)) {
      const LaunchRules& rules = p.variant->rules;  // n = 0: each variant's default size is part of the key
      const std::string key =
          input_share_key(*p.variant, req) + "|" + std::to_string(rules.default_n) + "|" + std::to_string(rules.max_n);
      lend = &own_inputs[key];
    }
    std::string bad = own_input
                          ? prepare_run(req, mine, lend)
                          : resolve_launch(*p.variant, shared.input.n(), req.type, req.launch, DeviceShape{}, p.launch);
    if (bad.empty() && p.variant->rules.int_only && req.type != DType::Int32) bad = int_only_refusal(*p.variant);
    // Variants on the shared input: it must be of the variant's kind, and the pattern's own checks apply
    // to the shared n (variants with their own input were checked by prepare_run above).
    if (bad.empty() && !own_input && p.variant->rules.bytes_input != (shared.input.type == DType::UInt8))
      bad = id + (p.variant->rules.bytes_input ? " reads bytes: the report's input is not uint8"
                                               : " does not take the report's uint8 input");
    if (bad.empty() && !own_input && spec.validate) {
      RunRequest q = req;
      q.n = shared.input.n();
      bad = spec.validate(*p.variant, q);
    }
    if (!bad.empty()) {
      r.variant = id;
      r.lesson = p.variant->lesson;
      r.n = shared.input.n();
      r.type = req.type;
      r.backend = o.backend;
      r.status = RunStatus::Skipped;  // this variant cannot take the report's launch or type: not a failure
      r.message = bad;
    } else if (worker) {  // the worker makes the same input from the same options (kind, n, type, seed)
      if (!own_input && req.n == 0) req.n = shared.input.n();
      r = worker->run(req);
    } else if (own_input) {
      r = execute_prepared(req, mine, backend.get(), why);
    } else {
      p.launch.grid = req.launch.grid;
      p.input_ms = shared.input_ms;
      std::swap(p.input, shared.input);  // lend the input without copying it
      r = execute_prepared(req, p, backend.get(), why);
      std::swap(p.input, shared.input);
      shared.input_ms = 0;  // made once, for the first variant that read it
    }
    if (lend && mine.input.n() > 0) *lend = std::move(mine.input);  // kept for the next variant of that kind
    if (is_failure(r.status)) ++failures;
    if (table) {
      std::fputs(runs_table_row(r, id_w).c_str(), stdout);
      std::fflush(stdout);
    }
    progress.item(int(report.runs.size()) + 1, id + " " + to_string(r.status));
    report.runs.push_back(std::move(r));
  }
  progress.done();
  if (trace_n > 0) failures += record_traces(ids, trace_n, backend.get(), report);
  save_report(report, out_path, output_policy(o.force));
  if (json) std::printf("%s\n", dump_json_text(report_to_json(report), 2).c_str());
  if (csv) {
    std::vector<nlohmann::json> rows;
    for (const auto& r : report.runs) rows.push_back(run_to_json(r));
    std::fputs(csv_table(rows, {"variant", "lesson", "n", "type"}).c_str(), stdout);
  }
  const bool none_ran = std::all_of(report.runs.begin(), report.runs.end(),
                                    [](const RunResult& r) { return r.status == RunStatus::Skipped; });
  if (none_ran) {
    std::fprintf(stderr, "wrote %s, but every variant was skipped: nothing ran (the reasons are above)\n",
                 out_path.c_str());
    return kBadRequest;
  }
  std::fprintf(stderr, "wrote %s (%zu runs, %d failed)\n", out_path.c_str(), report.runs.size(), failures);
  if (exit_code(report.runs) == kFaulted && !worker)
    for (const auto& r : report.runs)
      if (r.status == RunStatus::Faulted) std::fprintf(stderr, "warpscope-cli: %s\n", fault_line(r, true).c_str());
  return failures ? std::max<int>(kFailed, exit_code(report.runs)) : kOk;
}

}  // namespace ws::cli
