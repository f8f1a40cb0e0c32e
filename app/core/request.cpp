#include "request.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <stdexcept>

#include "launch_rules.hpp"
#include "limits.hpp"
#include "metric_catalog.hpp"
#include "paths.hpp"
#include "patterns.hpp"
#include "pc_sampling_worker.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"
#include "user_kernel.hpp"

namespace ws {

std::string no_device_hint(const std::string& reason, bool describe_device) {
  const std::string head = "no CUDA device" + (reason.empty() ? std::string() : ": " + reason);
  const std::string report = "warpscope --report " + assets_dir() + "/reports/nvidia-h200.json";
  if (describe_device)
    return head + "; a report recorded on a GPU names that device instead (" + report +
           "), and `warpscope-cli run --variant ID --backend sim` runs any variant on its CPU model";
  return head + "; simulate it instead (--backend sim) or open a report recorded on a GPU (" + report + ")";
}

std::string prepare_run(const RunRequest& req, PreparedRun& out, Input* lend, const DeviceShape* shape) {
  const HostClock clock;
  const VariantInfo* v = nullptr;
  std::shared_ptr<VariantInfo> own;
  if (!req.kernel.empty()) {
    if (req.backend == BackendKind::Sim)
      return "the simulator runs the built-in variants' thread models only, not your code: run " + req.kernel.file +
             " on a GPU (here, --gpu ssh:HOST or --gpu 'slurm:ARGS')";
    own = std::make_shared<VariantInfo>();
    if (std::string e = user_kernel_variant(req.kernel, *own); !e.empty()) return e;
    v = own.get();
  } else {
    v = find_variant(req.variant);
  }
  if (!v) return "unknown variant '" + req.variant + "' (warpscope-cli list shows the ids)";
  if (req.backend == BackendKind::Cpu)
    return unknown_backend_message(to_string(req.backend));  // a result's backend, not a request's
  if (req.repeat < 1 || req.repeat > 100000)
    return "--repeat must be in 1..100000 (got " + std::to_string(req.repeat) + ")";
  if (req.warmup < 0 || req.warmup > 1000) return "warm-up must be in 0..1000";
  if (req.n < 0) return "n must be positive (got " + std::to_string(req.n) + ")";
  if (req.n > kMaxN) return "n = " + std::to_string(req.n) + " is too large (" + max_n_text() + ")";
  MetricSelection metrics;
  if (std::string e = parse_metric_selection(req.metrics, metrics); !e.empty()) return e;
  if (v->rules.int_only && req.type != DType::Int32) return int_only_refusal(*v);
  // Histograms read bytes: the default int32 request becomes uint8; float32 is refused.
  const DType type = v->rules.bytes_input && req.type == DType::Int32 ? DType::UInt8 : req.type;
  if (v->rules.bytes_input && type != DType::UInt8)
    return v->id + " reads bytes: use --type uint8 (or leave --type out)";
  if (!v->rules.bytes_input && type == DType::UInt8)
    return v->id + " takes int32 or float32; uint8 input is for the histograms";
  // The pattern (docs/patterns.md): options that belong to another pattern, then the pattern's own checks.
  const PatternSpec& spec = pattern_of(*v);
  if (std::string e = option_refusal(*v, req.params); !e.empty()) return e;
  if (spec.validate)
    if (std::string e = spec.validate(*v, req); !e.empty()) return e;
  // Launch rules first: they need only n, and a bad block must not wait for a 2^30 input to be generated.
  std::int64_t n = req.n;
  PreparedRun p;
  p.variant = v;
  p.own_variant = own;
  if (spec.build_input) {  // the pattern builds its own input (2D images)
    // A generated image's size is known before it is made: refuse what cannot fit before making it.
    if (is_generated_kind(req.input) && req.params.width > 0 && req.params.height > 0 && req.params.width <= kMaxN &&
        req.params.height <= kMaxN / req.params.width) {
      const std::int64_t pixels = req.params.width * req.params.height;
      if (std::string why =
              memory_refusal(estimate_run_host_bytes(*v, pixels, DType::Float32), host_memory_available());
          !why.empty())
        return v->id + " on a " + std::to_string(req.params.width) + " x " + std::to_string(req.params.height) +
               " image " + why;
    }
    std::string err = spec.build_input(*v, req, p.input);
    if (!err.empty()) return err;
    err = resolve_launch(*v, p.input.n(), req.type, req.launch, DeviceShape{}, p.launch);
    if (!err.empty()) return err;
    if (std::string why =
            memory_refusal(estimate_run_host_bytes(*v, p.input.n(), p.input.type), host_memory_available());
        !why.empty())
      return v->id + " on " + std::to_string(p.input.n()) + " elements " + why;
    p.launch.grid = req.launch.grid;
    p.input_ms = clock.total();
    out = std::move(p);
    return "";
  }
  if (!is_generated_kind(req.input)) {
    std::string err = read_input_file(req.input, req.n, type, p.input);
    if (!err.empty()) return err;
    n = p.input.n();
  } else if (n == 0) {
    n = v->rules.default_n ? v->rules.default_n : kDefaultN;
    if (v->rules.max_n) n = std::min(n, v->rules.max_n);  // e.g. single-block scans: one block's section
  }
  std::string err = resolve_launch(*v, n, type, req.launch, shape ? *shape : DeviceShape{}, p.launch);
  if (!err.empty()) return err;
  p.launch_final = shape != nullptr;
  if (shape) p.shape = *shape;
  // Before the input is generated: a request that cannot fit is one line, not std::bad_alloc later.
  if (std::string why = memory_refusal(estimate_run_host_bytes(*v, n, type), host_memory_available()); !why.empty())
    return v->id + " at n = " + std::to_string(n) + " " + why;
  if (!p.launch_final) p.launch.grid = req.launch.grid;  // the device default is filled in by the backend
  bool lent = false;
  if (is_generated_kind(req.input)) {
    if (lend && lend->n() == n && lend->type == type && lend->kind == req.input && lend->seed == req.seed) {
      p.input = std::move(*lend);
      lent = true;
    } else {
      err = spec.make_input ? spec.make_input(*v, req, n, type, p.input)
                            : make_input(req.input, n, type, req.seed, p.input);
      if (!err.empty()) return err;
    }
  }
  p.input_ms = lent ? 0.0 : clock.total();
  out = std::move(p);
  return "";
}

namespace {

/// Runs a cpu_only variant `repeat` times after `warmup`, host clock; a scalar pattern's value goes to
/// `result`, an array pattern's output to `output`. A slow CPU variant stops repeating once its timed
/// runs have taken kCpuTimingBudgetMs and it has kCpuMinRepeats samples (the median of fewer samples,
/// so that a large n does not keep the user waiting on the host); timing.samples_ms says how many ran.
void run_cpu_pattern(const PatternSpec& spec, const VariantInfo& v, const RunRequest& req, const Input& in,
                     RunResult& r) {
  if (!spec.run_cpu)
    throw std::runtime_error(v.id + ": the " + std::string(to_string(v.pattern)) + " pattern has no CPU variant");
  ArrayOutput out;
  for (int i = 0; i < req.warmup; ++i) spec.run_cpu(v, req.params, in, out);
  constexpr double kCpuTimingBudgetMs = 250;
  constexpr int kCpuMinRepeats = 3;
  std::vector<double> samples;
  double spent = 0;
  for (int i = 0; i < req.repeat; ++i) {
    if (i >= kCpuMinRepeats && spent >= kCpuTimingBudgetMs) break;
    const HostClock clock;
    spec.run_cpu(v, req.params, in, out);
    samples.push_back(clock.total());
    spent += samples.back();
  }
  if (spec.scalar_result) {
    r.result = out.values.empty() ? 0.0 : out.values[0];
  } else {
    r.output = std::move(out.values);
    r.output_rows = out.rows;
    r.output_cols = out.cols;
  }
  r.timing = summarize(samples);
  r.timed = true;
  r.launches = 0;
}

/// execute_prepared without the input and total times: fills r.host_ms's other phases with `clock`'s laps
/// (the backend reports its own upload, launches or model, download and metrics).
RunResult execute_timed(const RunRequest& req, const PreparedRun& p, Backend* backend,
                        const std::string& no_device_reason, HostClock& clock) {
  const VariantInfo& v = *p.variant;
  const std::int64_t need = estimate_run_host_bytes(v, p.input.n(), p.input.type);  // for an out-of-memory line
  // What the request asked for: the one place these fields of a run are filled (backends fill what they
  // measure: result or output, timing, launches, the launch as run, device, status, metrics).
  auto stamp = [&](RunResult& out) {
    out.variant = v.id;
    out.lesson = v.lesson;
    out.n = p.input.n();
    out.type = p.input.type;  // req.type, unless the pattern fixes it (convolution: float32; histograms: uint8)
    out.input = p.input.kind.empty() ? req.input : p.input.kind;
    out.seed = req.seed;
    out.racy = v.racy;
    out.cautionary = v.cautionary;
  };
  RunResult r;
  r.backend = req.backend;
  stamp(r);
  std::string err;
  HostTimes host;
  clock.lap();
  // The pattern's whole reference output, checked after the run (docs/patterns.md).
  const PatternSpec& spec = pattern_of(v);
  const ArrayOutput want = spec.reference(v, req.params, p.input);
  r.bytes = spec.bytes ? spec.bytes(v, req.params, p.input) : 2.0 * double(r.n) * double(dtype_size(r.type));
  host.reference = clock.lap();
  // Sim requests run the thread-level CPU model (sim/sim.hpp) whatever backend the caller holds.
  std::unique_ptr<Backend> sim_backend;
  if (req.backend == BackendKind::Sim && !v.cpu_only && (!backend || !dynamic_cast<sim::SimBackend*>(backend))) {
    sim_backend = std::make_unique<sim::SimBackend>();
    backend = sim_backend.get();
  }
  auto fail = [&](std::string message) {
    r.status = RunStatus::Error;
    r.message = std::move(message);
    r.host_ms = host;
    return r;
  };
  try {
    if (v.cpu_only) {
      r.backend = BackendKind::Cpu;
      r.device = "host CPU";
      run_cpu_pattern(spec, v, req, p.input, r);
      host.launches = clock.lap();
    } else {
      // A context lost to an earlier fault: the backend itself says this run did not run, and why.
      const bool lost = backend && backend->device().context_lost;
      if (!backend || (!backend->device().available && !lost))
        return fail(no_device_hint(backend ? backend->device().error : no_device_reason));
      LaunchConfig launch = p.launch;
      const DeviceShape shape = backend->device().shape();
      if (!p.launch_final || shape.sm_count != p.shape.sm_count ||
          shape.max_threads_per_sm != p.shape.max_threads_per_sm) {
        err = resolve_launch(v, r.n, r.type, req.launch, shape, launch);
        if (!err.empty()) return fail(err);
      }
      // The device's total memory bounds what a run may allocate there (the backend has no free-memory query).
      if (const double gib = backend->device().memory_gib; gib > 0) {
        const std::int64_t need = estimate_run_device_bytes(v, r.n, r.type);
        if (double(need) > gib * double(kGiB))
          return fail(v.id + " at n = " + std::to_string(r.n) + " needs " + format_bytes(std::uintmax_t(need)) +
                      " of device memory, the GPU has " + format_bytes(std::uintmax_t(gib * double(kGiB))));
      }
#ifndef WS_NO_WORKERS
      // A PC sampling worker still stopping holds the profiling hardware until it exits: wait for it.
      if (!req.metrics.empty()) wait_for_stopping_pc_sampling_workers();
#endif
      RunResult got = backend->run(v, req, p.input, launch);
      clock.lap();
      stamp(got);
      got.bytes = r.bytes;
      host.upload = got.host_ms.upload;
      host.launches = got.host_ms.launches;
      host.model = got.host_ms.model;
      host.download = got.host_ms.download;
      host.metrics = got.host_ms.metrics;
      r = std::move(got);
      if (r.status == RunStatus::Error || r.status == RunStatus::Faulted) {
        r.host_ms = host;
        return r;
      }
    }
  } catch (const std::exception& e) { return fail(describe_exception(e, need)); }
  if (!spec.scalar_result) {
    r.params = params_as_run(v, req.params);  // a mask file's width, not --mask-width's default
    r.params.output_path.clear();
  }
  try {
    check_run(spec, v, req.params, p.input, want, backend && !v.cpu_only ? &backend->device() : nullptr, r);
  } catch (const std::exception& e) { return fail(describe_exception(e, need)); }
  host.check = clock.lap();
#ifndef WS_NO_WORKERS  // the browser: no worker processes (and no CUDA, so no PC samples to take)
  if (r.metrics.pc_sampling_needs_fresh_process) {
    sample_pcs_in_fresh_worker(req, r);
    host.metrics += clock.lap();
  }
#endif
  if (!req.metrics.empty() && r.backend != BackendKind::Cuda && r.metrics.asked.empty()) {
    r.metrics.asked = req.metrics;  // counters exist on a GPU only: say where to find them
    r.metrics.error =
        v.cpu_only ? v.id + " runs on the host CPU: it has no GPU kernel to count"
                   : "hardware metrics need the cuda backend on an NVIDIA GPU; without one, open a report recorded "
                     "with --metrics (metrics come from replayed reports)";
  }
  r.host_ms = host;
  return r;
}

}  // namespace

std::int64_t estimate_request_host_bytes(const RunRequest& req) {
  const VariantInfo* v = find_variant(req.variant);
  if (!v || !is_generated_kind(req.input)) return -1;
  const std::int64_t w = req.params.width, h = req.params.height;
  if (pattern_of(*v).build_input && w > 0 && h > 0)  // a generated image: its size is the request's
    return w <= kMaxN && h <= kMaxN / w ? estimate_run_host_bytes(*v, w * h, DType::Float32) : -1;
  std::int64_t n = req.n;
  if (n <= 0) {
    n = v->rules.default_n ? v->rules.default_n : kDefaultN;
    if (v->rules.max_n) n = std::min(n, v->rules.max_n);
  }
  return n > 0 && n <= kMaxN ? estimate_run_host_bytes(*v, n, req.type) : -1;
}

RunResult execute(const RunRequest& req, Backend* backend, const std::string& no_device_reason) {
  PreparedRun p;
  std::string err;
  // The shape of the device that will run it (sim requests: the CPU model's), so the launch is resolved once.
  const DeviceShape shape = req.backend == BackendKind::Sim || !backend ? DeviceShape{} : backend->device().shape();
  try {
    err = prepare_run(req, p, nullptr, &shape);
  } catch (const std::exception& e) {  // generating the input can still run out of memory
    err = describe_exception(e, estimate_request_host_bytes(req));
  }
  if (!err.empty()) return unrun_result(req, RunStatus::Error, err);
  return execute_prepared(req, p, backend, no_device_reason);
}

RunResult execute_prepared(const RunRequest& req, const PreparedRun& p, Backend* backend,
                           const std::string& no_device_reason) {
  HostClock clock;
  RunResult r = execute_timed(req, p, backend, no_device_reason, clock);
  r.host_ms.input = p.input_ms;
  r.host_ms.total = p.input_ms + clock.total();
  return r;
}

}  // namespace ws
