#include "request.hpp"

#include <exception>
#include <memory>

#include "cpu_variants.hpp"
#include "launch_rules.hpp"
#include "metric_catalog.hpp"
#include "reference.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"

namespace ws {

std::string no_device_hint(const std::string& reason) {
  return "no CUDA device" + (reason.empty() ? std::string() : " (" + reason + ")") +
         ": run on a machine with an NVIDIA GPU, open a recorded report (warpscope --report assets/reports/<gpu>.json), or simulate it (--backend sim)";
}

std::string prepare_run(const RunRequest& req, PreparedRun& out) {
  const VariantInfo* v = find_variant(req.variant);
  if (!v) return "unknown variant '" + req.variant + "' (warpscope-cli list shows the ids)";
  if (req.backend != "cuda" && req.backend != "sim") return "unknown backend '" + req.backend + "' (use cuda or sim)";
  if (req.repeat < 1 || req.repeat > 100000) return "--repeat must be in 1..100000 (got " + std::to_string(req.repeat) + ")";
  if (req.warmup < 0 || req.warmup > 1000) return "warm-up must be in 0..1000";
  if (req.n < 0) return "n must be positive (got " + std::to_string(req.n) + ")";
  if (req.n > kMaxN) return "n = " + std::to_string(req.n) + " is too large (the limit is 2^30 = " + std::to_string(kMaxN) + ")";
  MetricSelection metrics;
  if (std::string e = parse_metric_selection(req.metrics, metrics); !e.empty()) return e;
  if (v->rules.int_only && req.type != DType::Int32) return v->id + " takes int32 only (atomicMax has no float32 form)";
  // Launch rules first: they need only n, and a bad block must not wait for a 2^30 input to be generated.
  std::int64_t n = req.n;
  PreparedRun p;
  p.variant = v;
  if (!is_generated_kind(req.input)) {
    std::string err = read_input_file(req.input, req.n, req.type, p.input);
    if (!err.empty()) return err;
    n = p.input.n();
  } else if (n == 0) {
    n = kDefaultN;
  }
  std::string err = resolve_launch(*v, n, req.type, req.launch, DeviceShape{}, p.launch);
  if (!err.empty()) return err;
  p.launch.grid = req.launch.grid;  // the device default is filled in by the backend
  if (is_generated_kind(req.input)) {
    err = make_input(req.input, n, req.type, req.seed, p.input);
    if (!err.empty()) return err;
  }
  out = std::move(p);
  return "";
}

RunResult execute(const RunRequest& req, Backend* backend, const std::string& no_device_reason) {
  PreparedRun p;
  std::string err = prepare_run(req, p);
  if (!err.empty()) {
    RunResult r;
    r.variant = req.variant;
    r.backend = req.backend;
    r.n = req.n;
    r.type = req.type;
    r.input = req.input;
    r.seed = req.seed;
    r.status = "error";
    r.message = err;
    return r;
  }
  return execute_prepared(req, p, backend, no_device_reason);
}

RunResult execute_prepared(const RunRequest& req, const PreparedRun& p, Backend* backend, const std::string& no_device_reason) {
  RunResult r;
  r.variant = req.variant;
  r.backend = req.backend;
  r.type = req.type;
  r.input = req.input;
  r.seed = req.seed;
  std::string err;
  const VariantInfo& v = *p.variant;
  r.lesson = v.lesson;
  r.n = p.input.n();
  r.racy = v.racy;
  r.cautionary = v.cautionary;
  r.bytes = double(r.n) * double(dtype_size(r.type));
  r.expected = cpu_reference(v.op, p.input);
  // Sim requests run the thread-level CPU model (sim/sim.hpp) whatever backend the caller holds.
  std::unique_ptr<Backend> sim_backend;
  if (req.backend == "sim" && !v.cpu_only && (!backend || backend->name() != "sim")) {
    sim_backend = std::make_unique<sim::SimBackend>();
    backend = sim_backend.get();
  }
  try {
    if (v.cpu_only) {
      r.backend = "cpu";
      r.device = "host CPU";
      run_cpu_variant(v, p.input, req.warmup, req.repeat, r);
      if (r.timing.median_ms > 0) r.gbps = r.bytes / (r.timing.median_ms * 1e6);
    } else {
      if (!backend || !backend->device().available) {
        r.status = "error";
        r.message = no_device_hint(backend ? backend->device().error : no_device_reason);
        return r;
      }
      LaunchConfig launch;
      LaunchConfig asked = req.launch;
      err = resolve_launch(v, r.n, req.type, asked, backend->device().shape(), launch);
      if (!err.empty()) {
        r.status = "error";
        r.message = err;
        return r;
      }
      RunResult got = backend->run(v, req, p.input, launch);
      got.expected = r.expected;
      got.bytes = r.bytes;
      got.racy = r.racy;
      got.cautionary = r.cautionary;
      got.lesson = r.lesson;
      r = got;
      if (r.status == "error") return r;
    }
  } catch (const std::exception& e) {
    r.status = "error";
    r.message = e.what();
    return r;
  }
  const bool equal = results_match(r.type, r.result, r.expected, p.input);
  double model = 0;
  bool model_equal = false;
  if (v.slide_model) {
    model = v.slide_model(p.input, r.launch);
    model_equal = results_match(r.type, r.result, model, p.input);
  }
  classify(r, equal, model_equal, model);
  if (!req.metrics.empty() && r.backend != "cuda" && r.metrics.asked.empty()) {
    r.metrics.asked = req.metrics;  // counters exist on a GPU only: say where to find them
    r.metrics.error = "hardware metrics need the cuda backend on an NVIDIA GPU; without one, open a report recorded "
                      "with --metrics (metrics come from replayed reports)";
  }
  return r;
}

}  // namespace ws
