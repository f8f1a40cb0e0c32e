// The cuda backend: real launches on device 0, timed with CUDA events.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "backend.hpp"
#include "cuda_context.hpp"
#include "gpu_fault_marks.hpp"
#include "trace/trace.hpp"

namespace ws::cuda {

/// What CudaBackend::warm_up_metrics runs: a one-kernel reduction (one range, one pass) at 2^16 int32.
inline constexpr const char* kMetricsWarmUpVariant = "epita.reduce1";
inline constexpr std::int64_t kMetricsWarmUpN = std::int64_t(1) << 16;

/// Runs every pattern's variants on the GPU through the pattern's runner (pattern_runner.hpp). Owns the device
/// buffers (grow-only, reused between runs).
/// A failed run leaves no error behind for the next (cuda_fault.hpp). After a kernel fault the CUDA
/// context is unusable: that run is "faulted" (context_lost_message), the device is marked unavailable
/// and every later run returns status "error" with not_run_message(), instead of crashing.
class CudaBackend final : public Backend {
 public:
  /// Opens device 0; check device().available. Measures copy bandwidth over 256 MiB.
  CudaBackend();
  ~CudaBackend() override;
  std::string name() const override { return "cuda"; }
  const DeviceInfo& device() const override { return ctx_.device; }
  RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) override;

  /// Records the trace of block `block_index` of the variant's traced launch on the GPU, with the trace
  /// build of its kernels (kernels/common/trace_record.cuh), and builds it with trace_from_events()
  /// against `model` (the sim trace of the same run: step labels, folding). Source = the GPU's name.
  /// The variant's pattern runner records it (PatternRunEntry::record: its traced launcher, uploaded as its
  /// timed run uploads, with `params`, e.g. a scan's exclusive flag) into the shared trace sink that this
  /// function arms and reads back. Returns Recorded, or a one-line reason: NoTraceBuild for a variant without
  /// a trace build (gpu_trace_refusal, or a record that found no traced launcher), Failed for the others (no
  /// device, a racy variant, a block outside the grid, buffer overflow, a CUDA error, a fault). Defined in
  /// gpu_trace.cpp.
  TraceRecordResult record_trace(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int block_index,
                                 const Trace& model, Trace& out,
                                 const PatternParams& params = PatternParams{}) override;
  /// A user's traced kernel (Backend::record_user_trace; record_user_kernel_trace() in user_kernel_run.hpp).
  /// Defined in gpu_trace.cpp.
  std::string record_user_trace(const VariantInfo& v, const RunRequest& req, const Input& in,
                                const LaunchConfig& launch, int block_index, const Trace& model, Trace& out) override;
  /// The worker's warm-up at start (issue 31): runs the default metric set (range profiler and the SASS
  /// per-line pass) once on a tiny launch of a real variant, kMetricsWarmUpVariant at n = kMetricsWarmUpN, and
  /// discards its values, so that CUPTI's once-per-process set-up (profiler init, chip info, config image,
  /// SASS config) and the first cuptiRangeProfilerStart of the kept session (150-160 ms on the H200) are paid
  /// here rather than by the user's first "default" request. The warm-up is an ordinary request through
  /// execute(): on the kept session it is request 1, and the user's requests are 2, 3, ... whose own values
  /// are rebuilt as k A_k - (k-1) A_(k-1) like any later request's (cupti_range_profiler.cpp), so no count of
  /// the warm-up's kernel reaches them. Not run (a line says why): WS_NO_METRICS_WARMUP=1, a worker started
  /// for one PC sampling collection (WARPSCOPE_PC_SAMPLING_WORKER: its one collection must come first in the
  /// process), no usable device. Throws std::runtime_error when the run or the metrics fail.
  /// Costs PC sampling: after any profiling pass CUPTI gives no PC record in this process (h100-2026-11-25),
  /// so a warmed worker's PC sampling runs in a fresh worker process, as every later PC sampling request did.
  std::string warm_up_metrics() override;
  /// warm_up_metrics in a worker started for one PC sampling collection (WARPSCOPE_PC_SAMPLING_WORKER): the
  /// warm-up variant run once without metrics (its first upload and launch), then prepare_pc_sampling() on
  /// this context. Returns what it did; throws what they throw.
  std::string warm_up_pc_sampling();
  /// One step of the next "default" request's set-up, made while the worker waits; the worker calls it
  /// until it returns "". With the kept range-profiler session open: its Start (prepare_range_profiler_session,
  /// H100: 17 of a request's 35 ms). With it closed since this process's warm-up (a PC sampling request
  /// releases it for the PC sampling worker; H100: the next default request then paid 387 ms): the warm-up's
  /// request again, one per call (a session of its own first, then the kept one). Nothing when the warm-up
  /// did not run (WS_NO_METRICS_WARMUP=1, a PC sampling worker), after a failed repeat, or with the device gone.
  /// Returns what it did or ""; throws std::runtime_error when a step fails.
  std::string prepare_next_metrics() override;

 private:
  /// The warm-up's request (default set on kMetricsWarmUpVariant at 2^16, values discarded); throws when
  /// the run or its metrics fail.
  void run_metrics_warm_up();
  bool metrics_warmed_ = false;  ///< warm_up_metrics ran the default set in this process
  bool rewarm_failed_ = false;   ///< prepare_next_metrics' repeat of it failed once: not tried again
  /// After a failure: clears the runtime's last error; when the context is lost, marks the device
  /// unavailable and returns its one-line reason (`what` faulted), else "".
  std::string settle(const std::string& what);
  /// Fills a failed run: "faulted" with the lost context's reason, else "error" with `what`.
  void fail(RunResult& r, const VariantInfo& v, const std::string& what);
  /// Stream, events, buffers and the device (shared with pattern runners). A run that faulted sets
  /// ctx_.device.context_lost; ctx_.device.error says which and why.
  CudaContext ctx_;
  GpuIdentity identity_;  ///< device 0's UUID and bus id, for its fault mark (gpu_fault_marks.hpp)
};

}  // namespace ws::cuda
