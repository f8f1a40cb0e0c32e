// The CUDA runner of the scan pattern (docs/patterns.md): uploads the input, enqueues the variant's
// launcher (kernels/scan/scan_launch.hpp), times it with time_launches and downloads the whole output. Its
// record runs the same upload and the variant's instrumented launcher (the trace build of kernels/scan/*.cu,
// scan_traced.hpp) into the shared trace sink (TraceRecorder, gpu_trace.cpp).
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "cupti/cupti_metrics.hpp"
#include "launch_rules.hpp"
#include "pattern_runner.hpp"
#include "patterns/scan_traced.hpp"
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

/// Copies `in` to the scan's input buffer ("scan_in"), fills the output buffer ("scan_out", n elements) with
/// 0xff bytes so that a kernel that skips an element cannot pass by luck, sizes the scratch with `scratch`
/// (nullptr: none), and waits for all of it. Returns the launcher arguments for `launch` (block, grid of
/// the first launch) and `exclusive`. Throws std::runtime_error on CUDA errors. A timed scan and a recorded
/// trace (record_scan) upload through it, so a trace runs on exactly the buffers and input a timed scan runs on.
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

RunResult run_scan(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                   const LaunchConfig& launch) {
  const kernels::ScanLauncherEntry* e = find_launcher(v.id);
  if (!e) throw std::runtime_error(v.id + " has no CUDA kernel in this build");
  const std::int64_t n = in.n();
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

  // Download and widen to double straight from the staging buffer.
  ctx.download_as_double(a.out, n, in.type, r.output);
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

/// A traced scan launcher: the variant's entry in the trace build and its file's arm function.
struct TracedScan {
  kernels::ScanLauncherEntry entry{};
  TraceArm arm = nullptr;
};

/// Scan variants with a trace build (scan_traced.hpp). Every scan model traces the first launch (launch 0).
const std::map<std::string, TracedScan>& traced_scans() {
  static const std::map<std::string, TracedScan> table = [] {
    std::map<std::string, TracedScan> m;
    for (const scan_traced::File& f : scan_traced::traced_files())
      for (const auto& e : f.launchers()) m[e.id] = TracedScan{e, f.arm};
    return m;
  }();
  return table;
}

/// PatternTracedIds of scans: the ids record_scan records.
std::vector<std::string> traced_scan_ids() {
  std::vector<std::string> ids;
  for (const auto& [id, scan] : traced_scans()) ids.push_back(id);
  return ids;
}

/// PatternRecord of scans: the timed run's upload (with params.exclusive), then launch 0 of the variant's
/// instrumented launcher records.
bool record_scan(CudaContext& ctx, const VariantInfo& v, const Input& in, const LaunchConfig& launch,
                 const PatternParams& params, TraceRecorder& rec) {
  const auto it = traced_scans().find(v.id);
  if (it == traced_scans().end()) return false;
  const kernels::ScanArgs a = upload_scan(ctx, in, params.exclusive, launch, it->second.entry.scratch);
  rec.record(it->second.arm, 0, [a, f = it->second.entry.launch] { f(a); });
  return true;
}

}  // namespace

std::vector<PatternRunEntry> scan_pattern_runs() {
  return {{PatternKind::Scan, run_scan, record_scan, traced_scan_ids}};
}

}  // namespace ws::cuda
