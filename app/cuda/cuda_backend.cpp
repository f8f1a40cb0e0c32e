#include "cuda_backend.hpp"

#include <climits>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "cuda_fault.hpp"
#include "cupti_metrics.hpp"
#include "cupti_range_profiler.hpp"
#include "cupti_tracker.hpp"
#include "device_info.hpp"
#include "launch_rules.hpp"
#include "pattern_runner.hpp"

namespace ws::cuda {

namespace {

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

}  // namespace

CudaBackend::CudaBackend() {
  start_cupti_tracking();  // before the context exists, so every module load is seen (metrics per line)
  device_ = query_device(0);
  if (!device_.available) return;
  try {
    WS_CUDA(cudaSetDevice(0));
    ctx_.open();
    device_.copy_gbps = measure_copy_gbps(std::size_t(256) << 20, 10);
    for (auto table : {kernels::epita_launchers(), kernels::harris_launchers(), kernels::cs121_launchers(),
                       kernels::amp_launchers(), kernels::cub_launchers(), kernels::stevens_launchers()})
      for (const auto& e : table) launchers_[e.id] = e.launch;
  } catch (const std::exception& e) {
    device_.available = false;
    device_.error = e.what();
  }
}

CudaBackend::~CudaBackend() {
  release_range_profiler_session();  // while the context is still there
}

kernels::ReduceArgs CudaBackend::upload(const VariantInfo& v, const Input& in, const LaunchConfig& launch, void*& pristine) {
  const std::size_t elem = dtype_size(in.type);
  const std::int64_t n = in.n();
  // Padding covers the last block's whole window (block * items_per_thread), whatever the block size.
  const std::int64_t capacity = round_up(round_up(n, window_elems(v, launch.block ? launch.block : 1)), kernels::kPadGranule);
  const std::int64_t scratch_elems = 2 * ((n + 31) / 32 + kernels::kPadGranule);

  // Input, padded with the op's identity so the slides' unguarded loads read harmless values.
  pristine = buffer("input", std::size_t(capacity) * elem);
  ctx_.upload(pristine, in.data(), std::size_t(n) * elem);  // pinned staging, on the run's stream
  std::vector<std::int32_t> pad(std::size_t(capacity - n), v.op == ReduceOp::Max ? INT_MIN : 0);
  if (!pad.empty())  // float 0.0f and int 0 share the bit pattern; max variants are int32 only
    ctx_.upload(static_cast<char*>(pristine) + std::size_t(n) * elem, pad.data(), pad.size() * elem);
  void* data = v.writes_input ? buffer("work", std::size_t(capacity) * elem) : pristine;
  if (v.writes_input) {
    WS_CUDA(cudaMemcpyAsync(data, pristine, std::size_t(capacity) * elem, cudaMemcpyDeviceToDevice, stream_));
    WS_CUDA(cudaStreamSynchronize(stream_));
  }

  kernels::ReduceArgs a;
  a.data = data;
  a.n = n;
  a.capacity = capacity;
  a.scratch = buffer("scratch", std::size_t(scratch_elems) * elem);
  a.scratch_elems = scratch_elems;
  a.result = buffer("result", kernels::kResultElems * elem);
  a.block = launch.block;
  a.grid = launch.grid;
  a.type = in.type;
  a.stream = stream_;
  return a;
}

RunResult CudaBackend::run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) {
  if (device_.available) cudaGetLastError();  // an error left by a call outside any run is not this run's
  if (v.pattern == "reduction" || !device_.available) return run_reduction(v, req, in, launch);
  // Array patterns: the pattern's runner (pattern_runner.hpp), with the same fault handling.
  RunResult r;
  try {
    const PatternRun runner = find_pattern_run(v.pattern);
    if (!runner) throw std::runtime_error(v.id + ": no CUDA runner for the " + v.pattern + " pattern in this build");
    r = runner(ctx_, v, req, in, launch);
  } catch (const std::exception& e) {
    r = RunResult{};
    fail(r, v, e.what());
  }
  r.variant = v.id;
  r.backend = "cuda";
  r.device = device_.name;
  r.n = in.n();
  r.type = in.type;
  r.input = in.kind;
  r.seed = in.seed;
  // A runner whose kernels have their own launch shape (convolution: conv_geometry's 2D blocks and
  // grids) reports it; the others launch the resolved 1D `launch` and leave r.launch empty.
  if (r.launch.block == 0) r.launch = launch;
  return r;
}

RunResult CudaBackend::run_reduction(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) {
  RunResult r;
  r.variant = v.id;
  r.backend = "cuda";
  r.device = device_.name;
  r.n = in.n();
  r.type = in.type;
  r.input = in.kind;
  r.seed = in.seed;
  r.launch = launch;
  if (!device_.available) {
    r.status = "error";
    r.message = context_lost_ ? not_run_message(device_.error) : "CUDA device unavailable: " + device_.error;
    return r;
  }
  auto it = launchers_.find(v.id);
  if (it == launchers_.end()) {
    r.status = "error";
    r.message = v.id + " has no CUDA kernel in this build";
    return r;
  }
  try {
    const std::size_t elem = dtype_size(in.type);
    const std::int64_t n = in.n();
    void* pristine = nullptr;
    HostClock clock;
    kernels::ReduceArgs a = upload(v, in, launch, pristine);
    r.host_ms.upload = clock.lap();
    void* data = a.data;
    const std::int64_t capacity = a.capacity;

    auto restore = [&] {
      if (v.writes_input) WS_CUDA(cudaMemcpyAsync(data, pristine, std::size_t(capacity) * elem, cudaMemcpyDeviceToDevice, ctx_.stream));
    };
    kernels::ReduceOutcome out;
    for (int i = 0; i < req.warmup; ++i) {
      restore();
      out = it->second(a);
    }
    std::vector<double> samples;
    for (int i = 0; i < req.repeat; ++i) {
      restore();
      WS_CUDA(cudaEventRecord(ctx_.start, ctx_.stream));
      out = it->second(a);
      WS_CUDA(cudaEventRecord(ctx_.stop, ctx_.stream));
      WS_CUDA(cudaEventSynchronize(ctx_.stop));
      WS_CUDA(cudaGetLastError());
      float ms = 0;
      WS_CUDA(cudaEventElapsedTime(&ms, ctx_.start, ctx_.stop));
      samples.push_back(ms);
    }
    r.host_ms.launches = clock.lap();
    if (out.count < 1 || !out.partials) throw std::runtime_error(v.id + ": launcher returned no result");
    std::vector<unsigned char> raw(std::size_t(out.count) * elem);
    WS_CUDA(cudaMemcpy(raw.data(), out.partials, raw.size(), cudaMemcpyDeviceToHost));
    r.result = combine(raw, out.count, in.type, v.op);
    r.host_ms.download = clock.lap();
    r.launches = out.launches;
    r.timing = summarize(samples);
    r.timed = true;
    r.bytes = double(n) * double(elem);
    r.gbps = r.timing.median_ms > 0 ? r.bytes / (r.timing.median_ms * 1e6) : 0;
    r.pct_theoretical = device_.theoretical_gbps > 0 ? 100.0 * r.gbps / device_.theoretical_gbps : 0;
    r.pct_copy = device_.copy_gbps > 0 ? 100.0 * r.gbps / device_.copy_gbps : 0;
    r.status = "done";
    // Hardware metrics after the timed launches: replayed runs of the same launcher, inputs restored.
    if (!req.metrics.empty()) {
      clock.lap();
      r.metrics = collect_metrics(req.metrics, 0, stream_, [&] { restore(); it->second(a); });
      r.host_ms.metrics = clock.lap();
    }
  } catch (const std::exception& e) {
    fail(r, v, e.what());
  }
  return r;
}

std::string CudaBackend::settle(const std::string& what) {
  const std::string sticky = settle_after_failure();
  if (sticky.empty()) return "";
  context_lost_ = true;
  device_.available = false;
  device_.error = context_lost_message(what, sticky);
  return device_.error;
}

void CudaBackend::fail(RunResult& r, const VariantInfo& v, const std::string& what) {
  const std::string lost = settle(v.id);
  r.status = lost.empty() ? "error" : "faulted";
  r.message = lost.empty() ? what : lost;
}

}  // namespace ws::cuda
