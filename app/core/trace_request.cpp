#include "trace_request.hpp"

#include <utility>

#include "launch_rules.hpp"
#include "trace/trace_compare.hpp"

namespace ws {

namespace {

/// The status of a recording that failed with `err` on `gpu`, which was available before it: Faulted
/// when the recording took the device down with it (CudaBackend marks a lost context unavailable),
/// NoTraceBuild for a variant whose kernels are not instrumented (Backend::record_trace's reason, which a
/// worker relays as text only: the one place a reason's words are read), else Failed.
TraceStatus recording_status(const std::string& err, bool was_available, const Backend& gpu) {
  if (was_available && !gpu.device().available) return TraceStatus::Faulted;
  if (err.find("has no trace build") != std::string::npos) return TraceStatus::NoTraceBuild;
  return TraceStatus::Failed;
}

}  // namespace

TraceStatus check_traceable(const VariantInfo& v, std::string& message) {
  if (!v.cpu_only) return TraceStatus::Ok;
  message = v.id + " runs on the host CPU: it has no GPU threads to trace";
  return TraceStatus::BadRequest;
}

TraceStatus resolve_trace_launch(const VariantInfo& v, std::int64_t n, DType type, const TraceAsk& ask,
                                 const DeviceShape& shape, PreparedTrace& out, std::string& message) {
  out.variant = &v;
  if (std::string err = resolve_launch(v, n, type, ask.launch, shape, out.launch); !err.empty()) {
    message = std::move(err);
    return TraceStatus::BadRequest;
  }
  if (ask.block_index < 0 || ask.block_index >= out.launch.grid || ask.blocks < 1 ||
      ask.block_index + ask.blocks > out.launch.grid) {
    message = "block index " + std::to_string(ask.block_index) + " is outside the grid of " +
              std::to_string(out.launch.grid) + " blocks";
    return TraceStatus::OutsideGrid;
  }
  out.block_index = int(ask.block_index);
  out.blocks = ask.blocks;
  return TraceStatus::Ok;
}

TraceStatus prepare_trace(const VariantInfo& v, std::int64_t n, DType type, const TraceAsk& ask,
                          const DeviceShape& shape, PreparedTrace& out, std::string& message) {
  if (TraceStatus s = check_traceable(v, message); s != TraceStatus::Ok) return s;
  if (TraceStatus s = resolve_trace_launch(v, n, type, ask, shape, out, message); s != TraceStatus::Ok) return s;
  if (!sim::has_model(v.id)) {
    message = v.id + " has no sim model in this build";
    return TraceStatus::NoModel;
  }
  return TraceStatus::Ok;
}

TraceOutcome execute_trace(const PreparedTrace& p, const Input& in, const PatternParams& params, Backend* gpu,
                           TraceRecording recording) {
  const VariantInfo& v = *p.variant;
  TraceOutcome o;
  o.outs.resize(std::size_t(p.blocks));
  o.differences.resize(std::size_t(p.blocks));
  for (int k = 0; k < p.blocks; ++k) {
    sim::SimOutput& out = o.outs[std::size_t(k)];
    out = sim::simulate(v, in, p.launch, params, p.block_index + k);  // the same result, only the recorder moves
    if (!gpu || (recording == TraceRecording::StepsOnly && out.trace.steps.empty())) continue;
    Trace recorded;
    const bool was_available = gpu->device().available;
    if (std::string err = gpu->record_trace(v, in, p.launch, p.block_index + k, out.trace, recorded, params);
        !err.empty()) {
      o.status = recording_status(err, was_available, *gpu);
      o.message = std::move(err);
      return o;
    }
    std::string& difference = o.differences[std::size_t(k)];
    difference = compare_traces(out.trace, recorded);
    recorded.compared_with_model = true;
    recorded.model_difference = difference;
    out.trace = std::move(recorded);
    o.recorded = true;
  }
  return o;
}

}  // namespace ws
