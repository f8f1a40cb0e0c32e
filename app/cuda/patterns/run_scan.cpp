// The CUDA runner of the scan pattern (docs/patterns.md): uploads the input, enqueues the variant's
// launcher (kernels/scan/scan_launch.hpp), times it with time_launches and downloads the whole output.
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "cupti/cupti_metrics.hpp"
#include "parallel.hpp"
#include "pattern_runner.hpp"
#include "patterns/scan_upload.hpp"
#include "scan/scan_launch.hpp"
#include "timing.hpp"

namespace ws::cuda {

namespace {

const kernels::ScanLauncherEntry* find_launcher(const std::string& id) {
  static const std::unordered_map<std::string, kernels::ScanLauncherEntry> table = [] {
    std::unordered_map<std::string, kernels::ScanLauncherEntry> t;
    for (const auto& part :
         {kernels::stevens_scan_launchers(), kernels::lookback_scan_launchers(), kernels::cub_scan_launchers()})
      for (const auto& e : part) t.emplace(e.id, e);
    return t;
  }();
  auto it = table.find(id);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace

kernels::ScanArgs upload_scan(CudaContext& ctx, const Input& in, bool exclusive, const LaunchConfig& launch,
                              kernels::ScanScratch scratch) {
  const std::int64_t n = in.n();
  const std::size_t bytes = std::size_t(n) * dtype_size(in.type);
  kernels::ScanArgs a;
  a.n = n;
  a.exclusive = exclusive;
  a.block = launch.block;
  a.grid = launch.grid;
  a.type = in.type;
  a.stream = ctx.stream;
  // Separate named buffers ("scan_*"), so a scan never invalidates the reductions' buffers.
  void* d_in = ctx.buffer("scan_in", bytes);
  a.in = d_in;
  a.out = ctx.buffer("scan_out", bytes);
  a.scratch_bytes = scratch ? scratch(n, launch.block, in.type) : 0;
  a.scratch = a.scratch_bytes ? ctx.buffer("scan_scratch", a.scratch_bytes) : nullptr;
  // On the run's (non-blocking) stream, so the launches that follow are ordered after both.
  WS_CUDA(cudaMemsetAsync(a.out, 0xff, bytes, ctx.stream));  // a kernel that skips an element cannot pass by luck
  ctx.upload(d_in, in.data(), bytes);                        // pinned staging; returns when both are done
  return a;
}

namespace {

RunResult run_scan(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                   const LaunchConfig& launch) {
  const kernels::ScanLauncherEntry* e = find_launcher(v.id);
  if (!e) throw std::runtime_error(v.id + " has no CUDA kernel in this build");
  const std::int64_t n = in.n();
  const std::size_t bytes = std::size_t(n) * dtype_size(in.type);
  HostClock clock;
  RunResult r;
  const kernels::ScanArgs a = upload_scan(ctx, in, req.params.exclusive, launch, e->scratch);
  r.host_ms.upload = clock.lap();

  int launches = 0;
  r.timing = time_launches(
      ctx, [&] { launches = e->launch(a); }, req.warmup, req.repeat);
  r.timed = req.repeat > 0;
  r.launches = launches;
  r.host_ms.launches = clock.lap();

  // Download and widen to double straight from the staging buffer (int32 values are exact in a double).
  r.output.resize(std::size_t(n));
  ctx.download(a.out, bytes, [&](std::size_t off, const void* host, std::size_t len) {
    const std::int64_t count = std::int64_t(len / 4), first = std::int64_t(off / 4);  // int32 and float32: 4 bytes
    if (in.type == DType::Int32)
      widen_to_double(static_cast<const std::int32_t*>(host), count, r.output.data() + first);
    else
      widen_to_double(static_cast<const float*>(host), count, r.output.data() + first);
  });
  r.output_rows = 0;
  r.output_cols = n;
  r.status = RunStatus::Ran;
  r.host_ms.download = clock.lap();
  // Hardware metrics after the output is downloaded: replayed launches of the same
  // launcher, which resets whatever it accumulates into (nothing of the input is overwritten).
  if (!req.metrics.empty()) {
    r.metrics = collect_metrics(req.metrics, 0, ctx.stream, [&] { e->launch(a); });
    r.host_ms.metrics = clock.lap();
  }
  return r;
}

}  // namespace

std::vector<PatternRunEntry> scan_pattern_runs() { return {{PatternKind::Scan, run_scan}}; }

}  // namespace ws::cuda
