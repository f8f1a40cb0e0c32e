// The CUDA runner of the reduction pattern (docs/patterns.md): uploads the padded input, enqueues the
// variant's launcher (kernels/reduction/reduce_launch.hpp), times it with time_launches (restoring the
// input of variants that overwrite it) and combines the partial values the launcher leaves. Its record
// runs the same upload and the variant's instrumented launcher (the trace build of kernels/reduction/*.cu,
// reduction_traced.hpp) into the shared trace sink (TraceRecorder, gpu_trace.cpp).
#include <climits>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "cupti/cupti_metrics.hpp"
#include "launch_rules.hpp"
#include "pattern_runner.hpp"
#include "patterns/reduction_traced.hpp"
#include "reduction/reduce_launch.hpp"
#include "timing.hpp"

namespace ws::cuda {

namespace {

kernels::ReduceLauncher find_launcher(const std::string& id) {
  static const std::unordered_map<std::string, kernels::ReduceLauncher> table = [] {
    std::unordered_map<std::string, kernels::ReduceLauncher> t;
    for (const kernels::LauncherEntry& e : kernels::reduction_launchers()) t[e.id] = e.launch;
    return t;
  }();
  auto it = table.find(id);
  return it == table.end() ? nullptr : it->second;
}

/// Combines the partial values a launcher left (count >= 1) with the variant's op, on the host.
double combine(const std::vector<unsigned char>& raw, std::int64_t count, DType type, ReduceOp op) {
  if (type == DType::Int32) {
    const auto* p = reinterpret_cast<const std::int32_t*>(raw.data());
    if (op == ReduceOp::Max) {
      std::int32_t m = INT_MIN;
      for (std::int64_t i = 0; i < count; ++i) m = p[i] > m ? p[i] : m;
      return m;
    }
    std::uint32_t s = 0;
    for (std::int64_t i = 0; i < count; ++i) s += std::uint32_t(p[i]);
    return double(std::int32_t(s));
  }
  const auto* p = reinterpret_cast<const float*>(raw.data());
  double s = 0;
  for (std::int64_t i = 0; i < count; ++i) s += p[i];
  return s;
}

/// Copies the input to the device ("input"), padded with the op's identity up to the last block's window
/// (block * items_per_thread) rounded to kPadGranule, so the slides' unguarded loads read harmless values;
/// for variants that write their input, `a.data` is a working copy ("work") of `pristine`. Sizes the
/// scratch and result buffers. Throws std::runtime_error on CUDA errors. A timed run and a recorded trace
/// (record_reduction) upload through it, so a traced run reads exactly what a timed run reads.
kernels::ReduceArgs upload_reduction(CudaContext& ctx, const VariantInfo& v, const Input& in,
                                     const LaunchConfig& launch, void*& pristine) {
  const std::size_t elem = dtype_size(in.type);
  const std::int64_t n = in.n();
  // Padding covers the last block's whole window (block * items_per_thread), whatever the block size.
  const std::int64_t capacity =
      round_up(round_up(n, window_elems(v, launch.block ? launch.block : 1)), kernels::kPadGranule);
  const std::int64_t scratch_elems = 2 * ((n + 31) / 32 + kernels::kPadGranule);

  pristine = ctx.buffer("input", std::size_t(capacity) * elem);
  ctx.upload(pristine, in.data(), std::size_t(n) * elem);  // pinned staging, on the run's stream
  std::vector<std::int32_t> pad(std::size_t(capacity - n), v.op == ReduceOp::Max ? INT_MIN : 0);
  if (!pad.empty())  // float 0.0f and int 0 share the bit pattern; max variants are int32 only
    ctx.upload(static_cast<char*>(pristine) + std::size_t(n) * elem, pad.data(), pad.size() * elem);
  void* data = v.writes_input ? ctx.buffer("work", std::size_t(capacity) * elem) : pristine;
  if (v.writes_input) {
    WS_CUDA(cudaMemcpyAsync(data, pristine, std::size_t(capacity) * elem, cudaMemcpyDeviceToDevice, ctx.stream));
    WS_CUDA(cudaStreamSynchronize(ctx.stream));
  }

  kernels::ReduceArgs a;
  a.data = data;
  a.n = n;
  a.capacity = capacity;
  a.scratch = ctx.buffer("scratch", std::size_t(scratch_elems) * elem);
  a.scratch_elems = scratch_elems;
  a.result = ctx.buffer("result", kernels::kResultElems * elem);
  a.block = launch.block;
  a.grid = launch.grid;
  a.type = in.type;
  a.stream = ctx.stream;
  return a;
}

RunResult run_reduction(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                        const LaunchConfig& launch) {
  const kernels::ReduceLauncher launcher = find_launcher(v.id);
  if (!launcher) throw std::runtime_error(v.id + " has no CUDA kernel in this build");
  const std::size_t elem = dtype_size(in.type);
  HostClock clock;
  RunResult r;
  void* pristine = nullptr;
  const kernels::ReduceArgs a = upload_reduction(ctx, v, in, launch, pristine);
  r.host_ms.upload = clock.lap();

  auto restore = [&] {
    if (v.writes_input)
      WS_CUDA(cudaMemcpyAsync(a.data, pristine, std::size_t(a.capacity) * elem, cudaMemcpyDeviceToDevice, ctx.stream));
  };
  kernels::ReduceOutcome out;
  r.timing = time_launches(
      ctx, [&] { out = launcher(a); }, req.warmup, req.repeat, restore);
  r.timed = req.repeat > 0;
  r.host_ms.launches = clock.lap();

  if (out.count < 1 || !out.partials) throw std::runtime_error(v.id + ": launcher returned no result");
  std::vector<unsigned char> raw(std::size_t(out.count) * elem);
  WS_CUDA(cudaMemcpy(raw.data(), out.partials, raw.size(), cudaMemcpyDeviceToHost));
  r.result = combine(raw, out.count, in.type, v.op);
  r.host_ms.download = clock.lap();
  r.launches = out.launches;
  r.status = RunStatus::Ran;
  // Hardware metrics after the timed launches: replayed runs of the same launcher, inputs restored.
  if (!req.metrics.empty()) {
    clock.lap();
    r.metrics = collect_metrics(req.metrics, 0, ctx.stream, [&] {
      restore();
      launcher(a);
    });
    r.host_ms.metrics = clock.lap();
  }
  return r;
}

/// A traced reduction launcher: the variant's launcher in the trace build and its file's arm function.
struct TracedLauncher {
  kernels::ReduceLauncher launch = nullptr;
  TraceArm arm = nullptr;
};

/// Reduction variants with a trace build: the launchers of every traced reduction file (reduction_traced.hpp).
const std::map<std::string, TracedLauncher>& traced_launchers() {
  static const std::map<std::string, TracedLauncher> table = [] {
    std::map<std::string, TracedLauncher> m;
    for (const reduction_traced::File& f : reduction_traced::traced_files())
      for (const auto& e : f.launchers()) m[e.id] = TracedLauncher{e.launch, f.arm};
    return m;
  }();
  return table;
}

/// PatternTracedIds of reductions: the ids record_reduction records.
std::vector<std::string> traced_reduction_ids() {
  std::vector<std::string> ids;
  for (const auto& [id, launcher] : traced_launchers()) ids.push_back(id);
  return ids;
}

/// PatternRecord of reductions: the timed run's upload, then launch v.traced_launch of the variant's
/// instrumented launcher records.
bool record_reduction(CudaContext& ctx, const VariantInfo& v, const Input& in, const LaunchConfig& launch,
                      const PatternParams&, TraceRecorder& rec) {
  const auto it = traced_launchers().find(v.id);
  if (it == traced_launchers().end()) return false;
  void* pristine = nullptr;
  const kernels::ReduceArgs a = upload_reduction(ctx, v, in, launch, pristine);
  rec.record(it->second.arm, v.traced_launch, [a, f = it->second.launch] { f(a); });
  return true;
}

}  // namespace

std::vector<PatternRunEntry> reduction_pattern_runs() {
  return {{PatternKind::Reduction, run_reduction, record_reduction, traced_reduction_ids}};
}

}  // namespace ws::cuda
