// CudaBackend::record_trace: the step trace of one block, recorded on the GPU by the trace build of the
// kernels. The input is uploaded exactly as for a timed run; the instrumented launcher runs once; the events
// of the traced block come back and become a Trace. Which kernel files have a trace build is not listed
// here: traced_kernels.hpp's tables are generated from the files CMake finds by their marker (reductions
// and scans). A user's edited copy has one where its edit kept the variant's trace points
// (record_user_trace: NVRTC, user_kernel_run.hpp).
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cuda_backend.hpp"
#include "cuda_fault.hpp"
#include "patterns/reduction_upload.hpp"
#include "patterns/scan_upload.hpp"
#include "trace/trace_compare.hpp"
#include "traced_kernels.hpp"
#include "user_kernel_run.hpp"

namespace ws::cuda {

namespace {

struct TracedLauncher {
  kernels::ReduceLauncher launch = nullptr;
  kernels::traced::ArmFunction arm = nullptr;
};

/// Reduction variants with a trace build: the launchers of every traced reduction file (traced_kernels.hpp).
const std::map<std::string, TracedLauncher>& traced_launchers() {
  static const std::map<std::string, TracedLauncher> table = [] {
    std::map<std::string, TracedLauncher> m;
    for (const TracedReductionFile& f : traced_reduction_files())
      for (const auto& e : f.launchers()) m[e.id] = TracedLauncher{e.launch, f.arm};
    return m;
  }();
  return table;
}

struct TracedScan {
  kernels::ScanLauncherEntry entry{};
  kernels::traced::ArmFunction arm = nullptr;
};

/// Scan variants with a trace build. Every scan model traces the first launch (launch 0).
const std::map<std::string, TracedScan>& traced_scans() {
  static const std::map<std::string, TracedScan> table = [] {
    std::map<std::string, TracedScan> m;
    for (const TracedScanFile& f : traced_scan_files())
      for (const auto& e : f.launchers()) m[e.id] = TracedScan{e, f.arm};
    return m;
  }();
  return table;
}

/// Why a variant has no trace build (the reason follows "has no trace build").
std::string no_trace_reason(const VariantInfo& v) {
  if (v.cpu_only) return "host code";
  if (v.baseline) return "library call";
  if (!v.no_gpu_trace.empty()) return v.no_gpu_trace;
  return "its kernels are not instrumented";
}

/// Events the device buffer holds: 4 Mi x 48 bytes = 192 MiB.
constexpr unsigned long long kTraceCapacity = 4ull << 20;

}  // namespace

std::vector<std::string> gpu_traced_variant_ids() {
  std::vector<std::string> ids;
  for (const auto& [id, launcher] : traced_launchers()) ids.push_back(id);
  for (const auto& [id, scan] : traced_scans()) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::string CudaBackend::record_trace(const VariantInfo& v, const Input& in, const LaunchConfig& launch,
                                      int block_index, const Trace& model, Trace& out, const PatternParams& params) {
  if (!ctx_.device.available)
    return context_lost_ ? not_run_message(ctx_.device.error) : "CUDA device unavailable: " + ctx_.device.error;
  cudaGetLastError();  // an error left by a call outside any run is not this trace's
  if (v.racy)
    return v.id +
           " is racy: its interleaving changes from run to run, so it is not recorded on the GPU (the sim trace "
           "states the interleaving it models)";
  const auto& table = traced_launchers();
  auto it = table.find(v.id);
  const auto& scans = traced_scans();
  auto scan = scans.find(v.id);
  if (it == table.end() && scan == scans.end()) return v.id + " has no trace build (" + no_trace_reason(v) + ")";
  if (block_index < 0 || block_index >= launch.grid)
    return "block index " + std::to_string(block_index) + " is outside the grid of " + std::to_string(launch.grid) +
           " blocks";
  try {
    std::function<void()> run;  // the instrumented launcher on the uploaded input
    kernels::traced::ArmFunction arm = nullptr;
    int traced_launch = 0;
    if (scan != scans.end()) {
      const kernels::ScanArgs a = upload_scan(ctx_, in, params.exclusive, launch, scan->second.entry.scratch);
      run = [a, f = scan->second.entry.launch] { f(a); };
      arm = scan->second.arm;
    } else {
      void* pristine = nullptr;
      const kernels::ReduceArgs a = upload_reduction(ctx_, v, in, launch, pristine);
      run = [a, f = it->second.launch] { f(a); };
      arm = it->second.arm;
      traced_launch = v.traced_launch;
    }
    auto* events = static_cast<TraceEvent*>(ctx_.buffer("trace_events", kTraceCapacity * sizeof(TraceEvent)));
    auto* count = static_cast<unsigned long long*>(ctx_.buffer("trace_count", sizeof(unsigned long long)));
    auto* enabled = static_cast<int*>(ctx_.buffer("trace_enabled", sizeof(int)));
    WS_CUDA(cudaMemset(count, 0, sizeof(unsigned long long)));
    TraceSink sink;
    sink.events = events;
    sink.count = count;
    sink.capacity = kTraceCapacity;
    sink.block = block_index;
    sink.enabled = enabled;
    arm(sink, traced_launch, ctx_.stream);
    run();
    WS_CUDA(cudaStreamSynchronize(ctx_.stream));
    WS_CUDA(cudaGetLastError());
    unsigned long long written = 0;
    WS_CUDA(cudaMemcpy(&written, count, sizeof written, cudaMemcpyDeviceToHost));
    if (written > kTraceCapacity)
      return "the trace of block " + std::to_string(block_index) + " needs " + std::to_string(written) +
             " events, more than the " + std::to_string(kTraceCapacity) +
             " the recorder holds: use a smaller n or block";
    std::vector<TraceEvent> host(written);
    if (written) WS_CUDA(cudaMemcpy(host.data(), events, written * sizeof(TraceEvent), cudaMemcpyDeviceToHost));
    out = trace_from_events(host, model, ctx_.device.name);
    return "";
  } catch (const std::exception& e) {
    const std::string lost = settle("the traced " + v.id);
    return lost.empty() ? e.what() : lost;
  }
}

std::string CudaBackend::record_user_trace(const VariantInfo& v, const RunRequest& req, const Input& in,
                                           const LaunchConfig& launch, int block_index, const Trace& model,
                                           Trace& out) {
  if (!ctx_.device.available)
    return context_lost_ ? not_run_message(ctx_.device.error) : "CUDA device unavailable: " + ctx_.device.error;
  cudaGetLastError();
  if (block_index < 0 || (launch.grid > 0 && block_index >= launch.grid))
    return "block index " + std::to_string(block_index) + " is outside the grid of " + std::to_string(launch.grid) +
           " blocks";
  try {
    auto* events = static_cast<TraceEvent*>(ctx_.buffer("trace_events", kTraceCapacity * sizeof(TraceEvent)));
    auto* count = static_cast<unsigned long long*>(ctx_.buffer("trace_count", sizeof(unsigned long long)));
    auto* enabled = static_cast<int*>(ctx_.buffer("trace_enabled", sizeof(int)));
    WS_CUDA(cudaMemset(count, 0, sizeof(unsigned long long)));
    TraceSink sink;
    sink.events = events;
    sink.count = count;
    sink.capacity = kTraceCapacity;
    sink.block = block_index;
    sink.enabled = enabled;
    const RunResult r = run_user_kernel_traced(ctx_, v, req, in, launch, sink);
    if (r.status == RunStatus::Error) return r.message;
    unsigned long long written = 0;
    WS_CUDA(cudaMemcpy(&written, count, sizeof written, cudaMemcpyDeviceToHost));
    if (written > kTraceCapacity)
      return "the trace of block " + std::to_string(block_index) + " needs " + std::to_string(written) +
             " events, more than the " + std::to_string(kTraceCapacity) +
             " the recorder holds: use a smaller n or block";
    std::vector<TraceEvent> host(written);
    if (written) WS_CUDA(cudaMemcpy(host.data(), events, written * sizeof(TraceEvent), cudaMemcpyDeviceToHost));
    out = trace_from_events(host, model, ctx_.device.name, /*pad_to_model=*/false);
    out.variant = v.id;
    out.source_file = req.kernel.file;  // the events' lines are the user's (the trace points of the text)
    return "";
  } catch (const std::exception& e) {
    const std::string lost = settle("the traced " + v.id);
    return lost.empty() ? e.what() : lost;
  }
}

}  // namespace ws::cuda
