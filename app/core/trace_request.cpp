#include "trace_request.hpp"

#include <utility>

#include "launch_rules.hpp"
#include "name_table.hpp"
#include "trace/trace_compare.hpp"

namespace ws {

namespace {

constexpr std::pair<TraceStatus, const char*> kTraceStatusNames[] = {
    {TraceStatus::Ok, "ok"},
    {TraceStatus::BadRequest, "bad_request"},
    {TraceStatus::OutsideGrid, "outside_grid"},
    {TraceStatus::NoModel, "no_model"},
    {TraceStatus::NoTraceBuild, "no_trace_build"},
    {TraceStatus::Faulted, "faulted"},
    {TraceStatus::Failed, "failed"},
};

/// The status of a recording that failed with `answer` on `gpu`, which was available before it: Faulted
/// when the recording took the device down with it (CudaBackend marks a lost context unavailable),
/// NoTraceBuild for a variant whose kernels are not instrumented (the backend's typed answer, relayed by a
/// worker in its reply's "trace_status"), else Failed.
TraceStatus recording_status(const TraceRecordResult& answer, bool was_available, const Backend& gpu) {
  if (was_available && !gpu.device().available) return TraceStatus::Faulted;
  if (answer.status == TraceRecordStatus::NoTraceBuild) return TraceStatus::NoTraceBuild;
  return TraceStatus::Failed;
}

}  // namespace

const char* to_string(TraceStatus s) { return name_in(kTraceStatusNames, s); }

bool parse_trace_status(const std::string& name, TraceStatus& out) { return value_in(kTraceStatusNames, name, out); }

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
    if (TraceRecordResult answer = gpu->record_trace(v, in, p.launch, p.block_index + k, out.trace, recorded, params);
        !answer.recorded()) {
      o.status = recording_status(answer, was_available, *gpu);
      o.message = std::move(answer.message);
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
