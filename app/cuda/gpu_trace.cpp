// CudaBackend::record_trace: the step trace of one block, recorded on the GPU by the trace build of the
// kernels. Only the pattern-independent part is here: the shared trace sink (the device's event buffer, armed
// before the traced launch and read back after it; TraceRecorder), turning the events into a Trace, and the
// error and fault handling. Which variants have a trace build, their traced launchers and the upload of their
// input are their pattern's: the runner's `record` (pattern_runner.hpp; run_reduction.cpp, run_scan.cpp), so a
// new pattern with a traced kernel adds no line here. A user's edited copy has one where its edit kept the
// variant's trace points (record_user_trace: NVRTC, user_kernel_run.hpp).
#include <string>
#include <vector>

#include "common/check_cuda.hpp"  // WS_CUDA
#include "cuda_backend.hpp"
#include "cuda_fault.hpp"
#include "pattern_runner.hpp"
#include "trace/trace_compare.hpp"
#include "user_kernel_run.hpp"

namespace ws::cuda {

namespace {

/// Events the device buffer holds: 4 Mi x 48 bytes = 192 MiB.
constexpr unsigned long long kTraceCapacity = 4ull << 20;

/// The shared sink of block `block_index`: the context's event buffer, its count cleared.
TraceSink open_sink(CudaContext& ctx, int block_index) {
  auto* events = static_cast<TraceEvent*>(ctx.buffer("trace_events", kTraceCapacity * sizeof(TraceEvent)));
  auto* count = static_cast<unsigned long long*>(ctx.buffer("trace_count", sizeof(unsigned long long)));
  auto* enabled = static_cast<int*>(ctx.buffer("trace_enabled", sizeof(int)));
  WS_CUDA(cudaMemset(count, 0, sizeof(unsigned long long)));
  TraceSink sink;
  sink.events = events;
  sink.count = count;
  sink.capacity = kTraceCapacity;
  sink.block = block_index;
  sink.enabled = enabled;
  return sink;
}

/// The events the traced launch wrote into the shared sink, or a one-line reason in `why` when they
/// overflowed it.
std::vector<TraceEvent> read_sink(CudaContext& ctx, int block_index, std::string& why) {
  auto* events = static_cast<TraceEvent*>(ctx.buffer("trace_events", kTraceCapacity * sizeof(TraceEvent)));
  auto* count = static_cast<unsigned long long*>(ctx.buffer("trace_count", sizeof(unsigned long long)));
  unsigned long long written = 0;
  WS_CUDA(cudaMemcpy(&written, count, sizeof written, cudaMemcpyDeviceToHost));
  if (written > kTraceCapacity) {
    why = "the trace of block " + std::to_string(block_index) + " needs " + std::to_string(written) +
          " events, more than the " + std::to_string(kTraceCapacity) + " the recorder holds: use a smaller n or block";
    return {};
  }
  std::vector<TraceEvent> host(written);
  if (written) WS_CUDA(cudaMemcpy(host.data(), events, written * sizeof(TraceEvent), cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace

void TraceRecorder::record(TraceArm arm, int traced_launch, const std::function<void()>& launch) {
  const TraceSink sink = open_sink(ctx_, block_index_);
  arm(sink, traced_launch, ctx_.stream);
  launch();
  WS_CUDA(cudaStreamSynchronize(ctx_.stream));
  WS_CUDA(cudaGetLastError());
  recorded_ = true;
}

TraceRecordResult CudaBackend::record_trace(const VariantInfo& v, const Input& in, const LaunchConfig& launch,
                                            int block_index, const Trace& model, Trace& out,
                                            const PatternParams& params) {
  using R = TraceRecordResult;
  if (!ctx_.device.available)
    return R::failed(ctx_.device.context_lost ? not_run_message(ctx_.device.error)
                                              : "CUDA device unavailable: " + ctx_.device.error);
  cudaGetLastError();  // an error left by a call outside any run is not this trace's
  if (R refusal = gpu_trace_refusal(v); !refusal.recorded()) return refusal;  // racy, no trace build
  if (block_index < 0 || block_index >= launch.grid)
    return R::failed("block index " + std::to_string(block_index) + " is outside the grid of " +
                     std::to_string(launch.grid) + " blocks");
  const PatternRunEntry* runner = find_pattern_runner(v.pattern);  // has_gpu_trace: it has a record
  try {
    TraceRecorder rec(ctx_, block_index);
    if (!runner->record(ctx_, v, in, launch, params, rec) || !rec.recorded())
      return R::no_trace_build(v.id + " has no trace build (its " + to_string(v.pattern) +
                               " runner's record found no traced launcher for it)");
    std::string why;
    const std::vector<TraceEvent> events = read_sink(ctx_, block_index, why);
    if (!why.empty()) return R::failed(why);
    out = trace_from_events(events, model, ctx_.device.name);
    return {};
  } catch (const std::exception& e) {
    const std::string lost = settle("the traced " + v.id);
    return R::failed(lost.empty() ? e.what() : lost);
  }
}

std::string CudaBackend::record_user_trace(const VariantInfo& v, const RunRequest& req, const Input& in,
                                           const LaunchConfig& launch, int block_index, const Trace& model,
                                           Trace& out) {
  if (!ctx_.device.available)
    return ctx_.device.context_lost ? not_run_message(ctx_.device.error)
                                    : "CUDA device unavailable: " + ctx_.device.error;
  cudaGetLastError();
  if (block_index < 0 || (launch.grid > 0 && block_index >= launch.grid))
    return "block index " + std::to_string(block_index) + " is outside the grid of " + std::to_string(launch.grid) +
           " blocks";
  try {
    const TraceSink sink = open_sink(ctx_, block_index);
    const RunResult r = run_user_kernel_traced(ctx_, v, req, in, launch, sink);
    if (r.status == RunStatus::Error) return r.message;
    std::string why;
    const std::vector<TraceEvent> events = read_sink(ctx_, block_index, why);
    if (!why.empty()) return why;
    out = trace_from_events(events, model, ctx_.device.name, /*pad_to_model=*/false);
    out.variant = v.id;
    out.source_file = req.kernel.file;  // the events' lines are the user's (the trace points of the text)
    return "";
  } catch (const std::exception& e) {
    const std::string lost = settle("the traced " + v.id);
    return lost.empty() ? e.what() : lost;
  }
}

}  // namespace ws::cuda
