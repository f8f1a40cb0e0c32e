#include "perf_state.hpp"

#include <algorithm>
#include <filesystem>

#include "app_state.hpp"
#include "registry.hpp"

namespace ws::controller {

std::string export_path(const PerfState& p, const std::string& name) {
  const std::string path = (std::filesystem::path(p.export_dir) / name).string();
  return p.export_force ? path : unused_path(path);
}

OutputPolicy export_policy(const PerfState& p) { return output_policy(p.export_force); }

std::vector<std::string> chosen_variants(const AppState& s) { return chosen_variants(s.perf, s.lesson()); }

std::vector<std::string> chosen_variants(const PerfState& perf, const Lesson* lesson) {
  std::vector<std::string> out;
  if (!perf.picked.empty()) {
    for (const auto& v : all_variants())
      if (perf.picked.count(v.id)) out.push_back(v.id);
    return out;
  }
  if (lesson)
    for (const auto& step : lesson->steps) out.push_back(step.variant);
  return out;
}

std::string why_no_timing(const AppState& s) { return why_no_timing(s.device); }

std::string why_no_timing(const DeviceStatus& device) {
  if (!device.opened) return "opening the CUDA device...";
  if (device.device.available) return "";
  const std::string why = device.error.empty() ? device.device.error : device.error;
  return "Live and Sweep are off: they time launches on an NVIDIA GPU and there is none here" +
         (why.empty() ? std::string() : " (" + why + ")") + ". The plots show the report opened.";
}

SweepSpec make_sweep_spec(const AppState& s, const std::vector<std::string>& ids) {
  return make_sweep_spec(s.perf, s.params, ids);
}

SweepSpec make_sweep_spec(const PerfState& perf, const RunParams& params, const std::vector<std::string>& ids) {
  SweepSpec spec;
  for (const auto& id : ids) {
    const VariantInfo* v = find_variant(id);
    // Host loops at 2^28 would stall the sweep; counters and 2-D convolutions have no n (sweep_refusal).
    if (!v || v->cpu_only || !sweep_refusal(*v).empty() || (perf.sweep_by_keep && !is_filter_variant(*v))) continue;
    // Variants the chosen type does not fit (int-only atomics, byte histograms under float32) stay out.
    if ((v->rules.int_only && params.type != DType::Int32) || (v->rules.bytes_input && params.type == DType::Float32))
      continue;
    spec.variants.push_back(id);
  }
  if (perf.sweep_by_keep) {
    for (int i = 0; i <= 10; ++i) spec.keep_fractions.push_back(i / 10.0);
    spec.n = std::int64_t(1) << std::clamp(perf.keep_log2, kSweepMinLog2, kSweepMaxLog2);
  }
  spec.from_log2 = std::min(perf.sweep_from, perf.sweep_to);
  spec.to_log2 = std::max(perf.sweep_from, perf.sweep_to);
  spec.type = params.type;
  spec.input =
      perf.sweep_by_keep ? "random" : params.input_kind();  // a file is refused by validate_sweep, with its reason
  spec.seed = params.seed;
  spec.repeat = params.repeat;
  spec.backend = BackendKind::Cuda;
  spec.params = params.pattern;  // scan / 1-D convolution / filter options of the parameters panel
  spec.params.width = spec.params.height = 0;
  spec.params.output_path.clear();
  return spec;
}

void send_perf_intents(AppState& s, RunWorker& worker) {
  PerfState& p = s.perf;
  if (p.sweep_to_start) {
    if (worker.submit_sweep(*p.sweep_to_start)) {
      Sweep partial;
      partial.spec = *p.sweep_to_start;
      partial.title = "sweep in progress";
      p.sweep_partial = std::move(partial);
    } else {
      s.message(Message::Warning, "a sweep is already running: cancel it first");
    }
    p.sweep_to_start.reset();
  }
  if (p.sweep_cancel) {
    worker.cancel_sweep();
    p.sweep_cancel = false;
  }
  if (p.live_wanted != p.live_applied) {
    std::vector<RunRequest> reqs;
    if (p.live_wanted) {
      for (const auto& id : p.live_variants) {
        const VariantInfo* v = find_variant(id);
        if (!v || v->cpu_only || !sweep_refusal(*v).empty()) continue;  // Live times GPU kernels at a chosen n
        RunParams params = s.params;
        params.n_pow2 = true;
        params.n_log2 = p.live_log2;
        params.block = 0;
        params.grid = 0;
        RunRequest r = params.to_request(id);
        r.repeat = std::clamp(s.params.repeat, 1, 20);
        r.params.width = r.params.height = 0;  // 1-D convolutions: n is the signal length
        // One request that cannot run stops Live for all: leave out the variants the type does not fit.
        if ((v->rules.int_only && r.type != DType::Int32) || (v->rules.bytes_input && r.type == DType::Float32))
          continue;
        reqs.push_back(r);
      }
      p.live.clear();
      p.live_stopped.clear();
    }
    worker.set_live(reqs);
    p.live_applied = p.live_wanted;
  }
}

void take_perf_results(AppState& s, RunWorker::Snapshot& snap) {
  PerfState& p = s.perf;
  p.sweeping = snap.sweeping;
  p.sweep_done = snap.sweep_done;
  p.sweep_total = snap.sweep_total;
  if (p.sweep_partial)
    for (auto& r : snap.sweep_runs) p.sweep_partial->runs.push_back(std::move(r));
  for (auto& sw : snap.sweeps_finished) {
    if (sw.spec.by_keep())
      sw.title = std::string(sw.cancelled ? "cancelled " : "") +
                 "kept-fraction sweep at n = " + std::to_string(sw.spec.n) +
                 (s.device.device.name.empty() ? "" : " on " + s.device.device.name);
    else
      sw.title = (sw.cancelled ? "cancelled sweep 2^" : "sweep 2^") + std::to_string(sw.spec.from_log2) + "..2^" +
                 std::to_string(sw.spec.to_log2) + (s.device.device.name.empty() ? "" : " on " + s.device.device.name);
    s.message(Message::Info, sw.title + ": " + std::to_string(sw.runs.size()) + " runs (kept in the session report)");
    s.session.sweeps.push_back(std::move(sw));
    s.show_replay = false;
    p.sweep_partial.reset();
    p.sweep_shown = -1;
  }
  p.live.add(snap.live_points);
  for (const auto& r : snap.live_results) {
    p.live.add_result(r);
    if (r.status == RunStatus::Error) p.live_stopped = r.variant + ": " + r.message;
  }
  p.live_running = snap.live;
  if (p.live_applied && !snap.live) {
    if (p.live_stopped.empty()) p.live_stopped = "the live runs returned no timings";
    p.live_wanted = p.live_applied = false;  // the worker stopped Live: show the toggle off, with why
  }
}

}  // namespace ws::controller
