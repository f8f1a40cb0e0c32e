// The CUDA runner of the atomics pattern (docs/patterns.md): uploads the input, enqueues the variant
// through kernels/atomics/atomics_launch.hpp, times it, and downloads the output of the last launch:
// the counter (race, atomic_counter) as a one-element output, the 256 bins, or the kept values.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "atomics/atomics_launch.hpp"
#include "cupti/cupti_metrics.hpp"
#include "parallel.hpp"
#include "pattern_runner.hpp"
#include "patterns/atomics/reference.hpp"
#include "timing.hpp"

namespace ws::cuda {

namespace {

const kernels::AtomicsLauncherEntry& find_launcher(const std::string& id) {
  static const std::map<std::string, kernels::AtomicsLauncherEntry> table = [] {
    std::map<std::string, kernels::AtomicsLauncherEntry> t;
    for (const auto& part : {kernels::cs121_atomics_launchers(), kernels::cub_atomics_launchers()})
      for (const auto& e : part) t.emplace(e.id, e);
    return t;
  }();
  auto it = table.find(id);
  if (it == table.end()) throw std::runtime_error(id + " has no CUDA kernel in this build");
  return it->second;
}

RunResult run_atomics(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                      const LaunchConfig& launch) {
  const kernels::AtomicsLauncherEntry& entry = find_launcher(v.id);
  const AtomicsKind kind = v.atomics;
  const std::int64_t n = in.n();
  const std::size_t in_bytes = std::size_t(n) * dtype_size(in.type);
  std::size_t out_bytes = sizeof(int);
  if (kind == AtomicsKind::Histogram) out_bytes = kHistogramBins * sizeof(int);
  if (kind == AtomicsKind::Filter) out_bytes = std::size_t(n) * sizeof(int);

  HostClock clock;
  RunResult r;
  kernels::AtomicsArgs a;
  void* input = ctx.buffer("atomics.input", std::max<std::size_t>(in_bytes, 16));
  ctx.upload(input, in.data(), in_bytes);  // pinned staging on the run's stream; returns when it landed
  a.in = input;
  a.n = n;
  a.out = ctx.buffer("atomics.output", std::max<std::size_t>(out_bytes, 16));
  a.counter = static_cast<int*>(ctx.buffer("atomics.counter", 256));
  a.scratch_bytes = entry.scratch_bytes ? entry.scratch_bytes(n) : 0;
  a.scratch = ctx.buffer("atomics.scratch", std::max<std::size_t>(a.scratch_bytes, 16));
  a.block = launch.block;
  a.grid = launch.grid;
  a.stream = ctx.stream;
  r.host_ms.upload = clock.lap();

  kernels::AtomicsOutcome outcome;
  r.timing = time_launches(
      ctx, [&] { outcome = entry.launch(a); }, req.warmup, req.repeat);
  r.timed = req.repeat > 0;
  r.launches = outcome.launches;
  r.host_ms.launches = clock.lap();

  // The output of the last launch (every launch zeroes its counter or bins first).
  int count = 0;
  if (kind != AtomicsKind::Histogram) WS_CUDA(cudaMemcpy(&count, a.counter, sizeof(int), cudaMemcpyDeviceToHost));
  if (kind == AtomicsKind::Counter) {
    r.output = {double(count)};
  } else if (kind == AtomicsKind::Histogram) {
    std::vector<int> bins(kHistogramBins);
    WS_CUDA(cudaMemcpy(bins.data(), a.out, bins.size() * sizeof(int), cudaMemcpyDeviceToHost));
    r.output.assign(bins.begin(), bins.end());
  } else {
    if (count < 0 || count > n)
      throw std::runtime_error(v.id + ": the kernel reported " + std::to_string(count) +
                               " kept values for n = " + std::to_string(n));
    r.output.resize(static_cast<std::size_t>(count));  // widened to double straight from the staging buffer
    ctx.download(a.out, std::size_t(count) * sizeof(int), [&](std::size_t off, const void* host, std::size_t len) {
      widen_to_double(static_cast<const std::int32_t*>(host), std::int64_t(len / sizeof(int)),
                      r.output.data() + off / sizeof(int));
    });
  }
  r.output_rows = 0;
  r.output_cols = std::int64_t(r.output.size());
  r.status = RunStatus::Ran;
  r.code_path = kernels::arch_path_taken(entry.paths, ctx.device.cc_major * 10 + ctx.device.cc_minor);
  r.host_ms.download = clock.lap();
  // Hardware metrics after the output is downloaded: replayed launches of the same
  // launcher, which resets whatever it accumulates into (nothing of the input is overwritten).
  if (!req.metrics.empty()) {
    r.metrics = collect_metrics(req.metrics, 0, ctx.stream, [&] { entry.launch(a); });
    r.host_ms.metrics = clock.lap();
  }
  return r;
}

}  // namespace

std::vector<PatternRunEntry> atomics_pattern_runs() { return {{PatternKind::Atomics, run_atomics}}; }

}  // namespace ws::cuda
