#include <algorithm>
#include <cstdio>
#include <memory>

#include "backend_factory.hpp"
#include "commands.hpp"
#include "file_write.hpp"
#include "json_read.hpp"
#include "launch_rules.hpp"
#include "patterns.hpp"
#include "patterns/atomics/reference.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "request.hpp"
#include "table.hpp"

namespace ws::cli {

std::string to_request(const RunOptions& o, const std::string& variant, RunRequest& req) {
  req.variant = variant;
  if (!o.n.empty()) {
    std::int64_t n = 0;
    if (std::string e = parse_count_option("--n", o.n, n); !e.empty()) return e;
    req.n = n;
  }
  if (o.block < 0) return "--block must be positive (got " + std::to_string(o.block) + ")";
  if (o.grid < 0) return "--grid must be positive (got " + std::to_string(o.grid) + ")";
  req.launch = LaunchConfig{o.block, o.grid};
  req.repeat = o.repeat;
  req.warmup = o.warmup;
  if (!parse_dtype(o.type, req.type)) return "--type '" + o.type + "' is not int32, float32 or uint8";
  req.input = o.input;
  req.seed = o.seed;
  req.backend = o.backend;
  // Pattern options: ranges here, per-pattern meaning in prepare_run (PatternSpec::validate).
  const PatternParams& pp = o.params;
  if (pp.mask_width < 1) return "--mask-width must be positive (got " + std::to_string(pp.mask_width) + ")";
  if (pp.tile < 0) return "--tile must be positive (got " + std::to_string(pp.tile) + ")";
  if (pp.width < 0) return "--width must be positive (got " + std::to_string(pp.width) + ")";
  if (pp.height < 0) return "--height must be positive (got " + std::to_string(pp.height) + ")";
  if (!(pp.keep_fraction >= 0 && pp.keep_fraction <= 1))
    return "--keep must be a fraction in 0..1 (got " + std::to_string(pp.keep_fraction) + ")";
  if (pp.mask.empty()) return "--mask must be box, gauss or the path of a text file";
  req.params = pp;
  req.metrics = o.metrics;
  if (!o.gpu.empty()) {
    WorkerLaunch launch;
    if (std::string bad = parse_gpu_spec(o.gpu, "warpscope-cli", launch); !bad.empty()) return bad;
  }
  if (o.watchdog_s < 0) return "--watchdog must be positive seconds";
  if (o.connect_timeout_s < 0) return "--connect-timeout must be positive seconds";
  return "";
}

std::string pattern_option_refusal(const RunOptions& o, const std::vector<std::string>& variants) {
  // A mask file's values give its width: a --mask-width beside it would be ignored, yet recorded.
  const auto given = [&](const char* name) { return std::find(o.given.begin(), o.given.end(), name) != o.given.end(); };
  if (given("--mask") && given("--mask-width") && o.params.mask != "box" && o.params.mask != "gauss")
    return "--mask-width " + std::to_string(o.params.mask_width) + " conflicts with --mask '" + o.params.mask +
           "': a mask file's values give its width (leave --mask-width out)";
  for (const std::string& name : o.given) {
    const bool conv = name != "--keep";
    bool used = false;
    for (const std::string& id : variants)
      if (const VariantInfo* v = find_variant(id))
        used = used || (conv ? (pattern_of(*v).options & kOptionImage) != 0 : v->atomics == AtomicsKind::Filter);
    if (used || variants.empty() || !find_variant(variants.front())) continue;
    const VariantInfo& v = *find_variant(variants.front());
    return name + " applies to " + (conv ? "convolutions" : "filters") + " only (" +
           (variants.size() == 1 ? v.id + " is a " + to_string(v.pattern) : "none of the variants chosen is one") + ")";
  }
  return "";
}

std::string check_output(const RunOptions& o, const std::string& path, const std::string& what) {
  std::vector<std::string> inputs;
  if (o.input != "random" && o.input != "ones" && o.input != "sequence") inputs.push_back(o.input);
  if (o.params.mask != "box" && o.params.mask != "gauss") inputs.push_back(o.params.mask);
  return check_output_path(path, inputs, what, output_policy(o.force));
}

int cmd_run(const std::string& variant, const RunOptions& o, bool json, bool csv) {
  RunRequest req;
  std::string err = o.params.output_path.empty() ? "" : check_output(o, o.params.output_path, "--output");
  if (err.empty()) err = pattern_option_refusal(o, {variant});
  if (err.empty()) err = to_request(o, variant, req);
  if (err.empty() && !o.kernel_file.empty()) err = load_kernel_request(o, req);
  PreparedRun prepared;
  if (err.empty()) err = prepare_run(req, prepared);  // validated before any device is touched
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope-cli: %s\n", err.c_str());
    return kBadRequest;
  }
  std::unique_ptr<Backend> backend;
  std::string why;
  RunResult r;
  if (!o.gpu.empty()) {  // through a worker: it validates again and runs on its machine
    std::unique_ptr<WorkerClient> worker = start_gpu_worker(o, why);
    if (!worker) {
      std::fprintf(stderr, "warpscope-cli: %s\n", why.c_str());
      return kFailed;
    }
    if (req.backend == BackendKind::Cuda && !prepared.variant->cpu_only)
      if (std::string lack = worker_lacks(*worker, BackendKind::Cuda); !lack.empty()) {
        std::fprintf(stderr, "warpscope-cli: %s\n", no_device_hint(lack).c_str());
        return kNoDevice;
      }
    r = worker->run(req);
  } else {
    if (req.backend == BackendKind::Cuda && !prepared.variant->cpu_only) {
      backend = open_cuda_backend(why);
      if (!backend && !req.kernel.empty()) return kernel_without_gpu(req, why);
      if (!backend) {
        std::fprintf(stderr, "warpscope-cli: %s\n", no_device_hint(why).c_str());
        return kNoDevice;
      }
    }
    r = execute_prepared(req, prepared, backend.get(), why);
  }
  if (r.status == RunStatus::Error && !req.kernel.empty() && r.message.rfind(req.kernel.file + ":", 0) == 0) {
    std::fprintf(stderr, "%s\n", r.message.c_str());  // FILE:LINE: error: ... lines, as compilers write them
    return exit_code(r);
  }
  if (r.status == RunStatus::Error || r.status == RunStatus::Faulted) {
    std::fprintf(stderr, "warpscope-cli: %s\n",
                 r.status == RunStatus::Faulted ? fault_line(r, o.gpu.empty()).c_str() : r.message.c_str());
    return exit_code(r);
  }
  if (!req.params.output_path.empty()) {
    std::string werr = write_output_text(r, req.params.output_path);
    if (!werr.empty()) {
      std::fprintf(stderr, "warpscope-cli: %s\n", werr.c_str());
      return kFailed;
    }
  }
  if (json)
    std::printf("%s\n", dump_json_text(with_format(run_to_json(r), "run"), 2).c_str());
  else if (csv)
    std::fputs(csv_table({run_to_json(r)}, {"variant", "lesson", "n", "type"}).c_str(), stdout);
  else
    std::printf("%s%s", human_run(r).c_str(), req.metrics.empty() ? "" : human_metrics(r.metrics).c_str());
  return exit_code(r);
}

}  // namespace ws::cli
