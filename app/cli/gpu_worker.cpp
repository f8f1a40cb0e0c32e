// --gpu local|ssh:HOST|slurm:ARGS: run/report/sweep through a worker process (worker_client.hpp).
#include <cstdio>

#include "backend_factory.hpp"
#include "commands.hpp"
#include "report.hpp"
#include "request.hpp"
#include "trace_request.hpp"
#include "worker_client.hpp"

namespace ws::cli {

std::unique_ptr<WorkerClient> start_gpu_worker(const RunOptions& o, std::string& error) {
  WorkerLaunch launch;
  error = parse_gpu_spec(o.gpu, find_local_cli(), launch);
  if (!error.empty()) return nullptr;
  WorkerClientOptions opts;
  if (o.watchdog_s > 0) opts.watchdog_s = o.watchdog_s;
  if (o.connect_timeout_s > 0) opts.connect_timeout_s = o.connect_timeout_s;
  auto client = std::make_unique<WorkerClient>(launch, opts);
  error = client->start();
  if (!error.empty()) return nullptr;
  const WorkerHello& h = client->hello();
  std::fprintf(stderr, "warpscope-cli: worker %ld on %s: %s\n", h.pid, h.host.c_str(),
               h.device.available ? h.device.name.c_str() : "no CUDA device (sim only)");
  return client;
}

std::string worker_lacks(const WorkerClient& client, BackendKind backend) {
  for (const auto& b : client.hello().backends)
    if (b == backend) return "";
  const WorkerHello& h = client.hello();
  return "the worker on " + h.host + " has no " + to_string(backend) + " backend" +
         (backend == BackendKind::Cuda && !h.device.error.empty() ? " (" + h.device.error + ")" : "");
}

int open_kernel_runner(const RunOptions& o, const RunRequest& probe, const std::string& what, KernelRunner& out) {
  std::string why;
  if (!o.gpu.empty()) {
    out.worker = start_gpu_worker(o, why);
    if (!out.worker) {
      std::fprintf(stderr, "warpscope-cli: %s\n", why.c_str());
      return kFailed;
    }
    if (std::string lack = worker_lacks(*out.worker, BackendKind::Cuda); !lack.empty()) {
      std::fprintf(stderr, "warpscope-cli: %s: %s\n", what.c_str(), lack.c_str());
      return kNoDevice;
    }
    out.run = [w = out.worker.get()](const RunRequest& r) { return w->run(r); };
    return -1;
  }
  out.backend = open_cuda_backend(why);
  if (!out.backend) return kernel_without_gpu(probe, why);  // the same line as run --kernel
  out.run = [b = out.backend.get()](const RunRequest& r) { return execute(r, b); };
  return -1;
}

WorkerTraceBackend::WorkerTraceBackend(WorkerClient& client) : client_(client) { device_ = client.hello().device; }

TraceRecordResult WorkerTraceBackend::record_trace(const VariantInfo& v, const Input& in, const LaunchConfig& launch,
                                                   int block_index, const Trace& model, Trace& out,
                                                   const PatternParams& params) {
  (void)model;  // the worker simulates the same run itself (same generated input: kind, n, type, seed)
  RunRequest req;
  req.variant = v.id;
  req.n = in.n();
  req.type = in.type;
  req.input = in.kind;
  req.seed = in.seed;
  req.launch = launch;
  req.backend = BackendKind::Cuda;
  req.params = params;
  WorkerReply reply =
      client_.call("trace", {{"request", request_to_json(req)}, {"block_index", block_index}}, expected_seconds(req));
  if (!reply.ok()) {
    // The worker's trace request says why in "trace_status" beside its message (a worker before that field: Failed).
    TraceStatus status = TraceStatus::Failed;
    if (reply.message.is_object() && reply.message.contains("trace_status") &&
        reply.message["trace_status"].is_string())
      (void)parse_trace_status(reply.message["trace_status"].get<std::string>(), status);
    return status == TraceStatus::NoTraceBuild ? TraceRecordResult::no_trace_build(reply.text)
                                               : TraceRecordResult::failed(reply.text);
  }
  try {
    out = trace_from_store_json(reply.message.at("trace"));
  } catch (const std::exception& e) {
    return TraceRecordResult::failed(std::string("the worker's answer is not a trace: ") + e.what());
  }
  return {};
}

RunResult WorkerTraceBackend::run(const VariantInfo& v, const RunRequest& req, const Input& in,
                                  const LaunchConfig& launch) {
  (void)v, (void)in;
  RunRequest r = req;
  r.launch = launch;
  return client_.run(r);
}

}  // namespace ws::cli
