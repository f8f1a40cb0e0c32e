// CUPTI Range Profiler (CUDA 13: cupti_range_profiler.h, cupti_profiler_host.h, cupti_target.h),
// in-process: one user range around everything a launcher enqueues, user replay (the caller
// restores inputs between passes), decode, evaluate. The call sequence follows the toolkit's
// range_profiling sample. Every metric is first checked against the chip's metric list; a missing
// one is skipped with a warning instead of failing the whole set.
#pragma once
#include <cuda.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ws::cuda {

struct RangeProfile {
  std::map<std::string, double> values;  ///< metric -> value (CUPTI's units: ns, %, counts, bytes)
  int passes = 0;                        ///< replay passes the configuration needed
  std::vector<std::string> warnings;     ///< skipped metrics, with the reason
  double setup_ms = 0, passes_ms = 0, disable_ms = 0, evaluate_ms = 0;  ///< where the time went (host clock)
  bool reused_session = false;  ///< ran on the kept session (no enable, no first-Start cost)
  bool prepared_start = false;  ///< its Start was made while idle (prepare_range_profiler_session)
};

/// Profiles `metrics` over one range. One-pass lists of summed counters (and the ratios rebuilt from
/// them) run on a range-profiler session kept enabled between calls (see the .cpp); others enable,
/// configure and disable a session of their own (WS_CUPTI_FRESH_SESSION=1 forces that for every list). `pass(i)`
/// must restore inputs and enqueue the launcher's work,
/// then synchronize; it is called once per replay pass. Throws CuptiError (privileges, unsupported
/// device) or std::runtime_error; leaves the range profiler disabled in every case.
RangeProfile profile_range(CUcontext ctx, int device, const std::vector<std::string>& metrics,
                           const std::function<void()>& pass);

/// Enables and at once disables the range profiler on `ctx` (no pass, about 5 ms). On the H200 a
/// SASS-only collection after an earlier one found no patched instruction unless the range profiler
/// had been enabled in between; profile_lines' callers do this first (docs/device/h200-metrics.md).
void toggle_range_profiler(CUcontext ctx);

/// Ends the kept session (disables the range profiler). Call before the CUDA context goes away.
void release_range_profiler_session();

/// Calls cuptiRangeProfilerStart on the kept session now, so that the next request on it skips it: that Start
/// is most of a later request's cost (H100, 2026-12-06: 17.3-17.6 ms of 35-36). For a worker between requests
/// (Backend::prepare_next_metrics). Kernels launched before the next request pushes its range are outside
/// every range and not counted (GPU test GpuMetrics.AStartMadeWhileIdleCountsOnlyTheNextRequest). A request
/// that does not use the kept session stops it first (toggle_range_profiler, close). Returns the call's
/// milliseconds, or -1 when there is nothing to prepare (no kept session open, already started, or the
/// session's last request used). Throws std::runtime_error when CUPTI refuses; the session is then closed.
double prepare_range_profiler_session();

/// The kept session as it stands (for tests and logs): open, started while idle, requests made on it.
struct RangeProfilerSessionState {
  bool open = false;
  bool started = false;
  int requests = 0;
};
RangeProfilerSessionState range_profiler_session_state();

}  // namespace ws::cuda
