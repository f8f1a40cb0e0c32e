#include "cuda_backend.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "common/check_cuda.hpp"
#include "cuda_fault.hpp"
#include "cupti/cupti_metrics.hpp"
#include "cupti/cupti_pcsampling.hpp"
#include "cupti/cupti_range_profiler.hpp"
#include "cupti/cupti_tracker.hpp"
#include "device_info.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "occupancy.hpp"
#include "pattern_runner.hpp"
#include "request.hpp"
#include "user_kernel_run.hpp"

namespace ws::cuda {

CudaBackend::CudaBackend() {
  start_cupti_tracking();  // before the context exists, so every module load is seen (metrics per line)
  ctx_.device = query_device(0);
  if (!ctx_.device.available) return;
  try {
    WS_CUDA(cudaSetDevice(0));
    identity_ = query_gpu_identity(0);
    ctx_.open();
    ctx_.device.copy_gbps = measure_copy_gbps(std::size_t(256) << 20, 10);
  } catch (const std::exception& e) {
    ctx_.device.available = false;
    ctx_.device.error = e.what();
  }
}

CudaBackend::~CudaBackend() {
  release_range_profiler_session();  // while the context is still there
}

RunResult CudaBackend::run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) {
  if (ctx_.device.available) cudaGetLastError();  // an error left by a call outside any run is not this run's
  if (!ctx_.device.available && ctx_.device.context_lost) {
    RunResult r;
    r.status = RunStatus::Error;
    r.message = not_run_message(ctx_.device.error);
    r.backend = BackendKind::Cuda;
    r.device = ctx_.device.name;
    r.launch = launch;
    return r;
  }
  RunResult r;
  try {
    if (!ctx_.device.available) throw std::runtime_error("CUDA device unavailable: " + ctx_.device.error);
    const PatternRun runner = find_pattern_run(v.pattern);
    if (!runner)
      throw std::runtime_error(v.id + ": no CUDA runner for the " + std::string(to_string(v.pattern)) +
                               " pattern in this build");
    r = req.kernel.empty() ? runner(ctx_, v, req, in, launch) : run_user_kernel(ctx_, v, req, in, launch);
  } catch (const std::exception& e) {
    r = RunResult{};
    fail(r, v, describe_exception(e, estimate_run_host_bytes(v, in.n(), in.type)));  // std::bad_alloc in words
  }
  r.backend = BackendKind::Cuda;  // execute fills the request's fields (variant, n, type, input, seed)
  r.device = ctx_.device.name;
  // A runner whose kernels have their own launch shape (convolution: conv_geometry's 2D blocks and
  // grids) reports it; the others launch the resolved 1D `launch` and leave r.launch empty.
  if (r.launch.block == 0) r.launch = launch;
  return r;
}

namespace {
/// The warm-ups' run: kMetricsWarmUpVariant at kMetricsWarmUpN, one launch, with `metrics` ("": none).
RunRequest warm_up_request(const char* metrics) {
  RunRequest req;
  req.variant = kMetricsWarmUpVariant;
  req.n = kMetricsWarmUpN;
  req.repeat = 1;
  req.warmup = 0;
  req.backend = BackendKind::Cuda;
  req.metrics = metrics;
  return req;
}
}  // namespace

std::string CudaBackend::warm_up_metrics() {
  if (const char* off = std::getenv("WS_NO_METRICS_WARMUP"); off && std::strcmp(off, "1") == 0)
    return "skipped (WS_NO_METRICS_WARMUP=1)";
  if (!ctx_.device.available) return "skipped (no usable device: " + ctx_.device.error + ")";
  // pc_sampling_worker.cpp sets it in the worker it starts for one PC sampling collection: a profiling pass
  // before that collection would leave it without PC records, so this worker runs the warm-up plainly
  // (first launch, first upload) and sets PC sampling up for its one collection.
  if (const char* pc = std::getenv("WARPSCOPE_PC_SAMPLING_WORKER"); pc && *pc) return warm_up_pc_sampling();
  // An ordinary request, so it takes the path (and the kept session) a user's "default" request takes. It
  // counts as that session's request 1: the session turns the accumulated counters back into each
  // request's own (k A_k - (k-1) A_(k-1)), so the user's first request gets its own counts as a later
  // request always has; the two rebuilt ratios' scale (learned on request 1) is CUPTI's constant
  // (100 / peak warps per SM, and 1), not the kernel's. The SASS pass's counts are each collection's own
  // (flushed at its end), so the warm-up's stay in the warm-up. Same metric spec as the UI's ("default" and
  // "default,pcsampling" have the same range-profiler list): another list would close the session.
  run_metrics_warm_up();
  metrics_warmed_ = true;
  return std::string("default set and per-line pass on ") + kMetricsWarmUpVariant + ", n = 2^16, values discarded";
}

void CudaBackend::run_metrics_warm_up() {
  const RunRequest req = warm_up_request("default");
  const RunResult r = execute(req, this);
  if (r.status != RunStatus::Ok) throw std::runtime_error(req.variant + ": " + r.message);
  if (!r.metrics.error.empty()) throw std::runtime_error(r.metrics.error);
  if (!r.metrics.collected) throw std::runtime_error("no metric was collected");
}

std::string CudaBackend::warm_up_pc_sampling() {
  const RunRequest req = warm_up_request("");
  // The run first: the first launch after PC sampling's enable starts its hardware, which then keeps every
  // other process's range profiler out (CUPTI_ERROR_HARDWARE_BUSY) until this process ends.
  const auto t0 = std::chrono::steady_clock::now();
  const RunResult r = execute(req, this);
  if (r.status != RunStatus::Ok) throw std::runtime_error(req.variant + ": " + r.message);
  const double run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  prepare_pc_sampling(current_context());
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.0f ms", run_ms);
  return std::string("plain run of ") + kMetricsWarmUpVariant + ", n = 2^16 (" + ms +
         "); PC sampling enabled and configured";
}

std::string CudaBackend::prepare_next_metrics() {
  if (!ctx_.device.available) return "";
  char line[160];
  if (!range_profiler_session_state().open) {
    // Closed since the warm-up (released for a PC sampling worker, a failure, another metric list): the
    // warm-up's request again, once per call. After a close the first runs on a session of its own, the next
    // opens the kept session (cupti_range_profiler.cpp); a later call then makes its Start.
    if (!metrics_warmed_ || rewarm_failed_) return "";
    const auto t0 = std::chrono::steady_clock::now();
    try {
      run_metrics_warm_up();
    } catch (const std::exception& e) {
      rewarm_failed_ = true;  // not again in every idle moment: the next request sets up as before
      throw std::runtime_error(std::string("the warm-up request again: ") + e.what());
    }
    std::snprintf(line, sizeof line, "range profiler closed since the warm-up: its request again (%.0f ms, %s)",
                  std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(),
                  range_profiler_session_state().open ? "kept session open" : "on a session of its own");
    return line;
  }
  const double ms = prepare_range_profiler_session();
  if (ms < 0) return "";
  std::snprintf(line, sizeof line, "range profiler started for the next request (%.1f ms)", ms);
  return line;
}

std::string CudaBackend::settle(const std::string& what) {
  const std::string sticky = settle_after_failure();
  if (sticky.empty()) return "";
  ctx_.device.available = false;
  ctx_.device.context_lost = true;
  ctx_.device.error = context_lost_message(what, sticky);
  // A GL context beside CUDA work on this GPU is reset from now on (NVIDIA's driver 580): tell the GUI.
  if (const std::string e = mark_gpu_faulted(identity_, sticky); !e.empty())
    std::fprintf(stderr, "warpscope: %s\n", e.c_str());
  return ctx_.device.error;
}

void CudaBackend::fail(RunResult& r, const VariantInfo& v, const std::string& what) {
  const std::string lost = settle(v.id);
  r.status = lost.empty() ? RunStatus::Error : RunStatus::Faulted;
  r.message = lost.empty() ? what : lost;
}

}  // namespace ws::cuda
