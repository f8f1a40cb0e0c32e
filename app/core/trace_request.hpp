// A step trace asked like a run (issue 29): the variant's launch resolved for its input, the block or
// blocks checked against the grid, the sim model run once per traced block and, on a device, the same
// blocks recorded by the kernels' trace build and compared with the model. The CLI's trace and report
// --traces, the worker's trace request and the GUI's Trace source call it; each words its refusals from
// the status, none reads the message to tell them apart.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "backend.hpp"
#include "sim/sim.hpp"

namespace ws {

/// What became of a trace: Ok, or the kind of reason `message` gives.
enum class TraceStatus {
  Ok,
  BadRequest,    ///< host code (no GPU threads) or a launch the variant's rules refuse
  OutsideGrid,   ///< the blocks asked lie outside the resolved grid (PreparedTrace::launch has its size)
  NoModel,       ///< the sim backend has no model of the variant in this build
  NoTraceBuild,  ///< the device cannot record the variant: its kernels have no trace build
  Faulted,       ///< recording lost the CUDA context (nothing after it runs on that GPU in this process)
  Failed,        ///< recording failed otherwise (a CUDA error, a racy variant, a worker's error)
};

/// The status's name in the worker protocol's trace answers ("trace_status" beside an error's message,
/// docs/worker-protocol.md): "ok", "bad_request", "outside_grid", "no_model", "no_trace_build", "faulted",
/// "failed".
const char* to_string(TraceStatus s);
/// Parses a name written by to_string; false (out untouched) on anything else.
bool parse_trace_status(const std::string& name, TraceStatus& out);

/// The blocks a trace asks for, and the launch it asks for (0 = the variant's default block or grid).
struct TraceAsk {
  LaunchConfig launch;
  long long block_index = 0;
  int blocks = 1;  ///< consecutive blocks from block_index
};

/// A trace ready to execute: the variant, its resolved launch and the blocks, all inside the grid.
struct PreparedTrace {
  const VariantInfo* variant = nullptr;
  LaunchConfig launch;
  int block_index = 0;
  int blocks = 1;
};

/// A trace's outcome: per traced block the model's run (its trace replaced by the device's recording when
/// one was made) and how the recording differs from the model ("" = the same steps, or none recorded).
struct TraceOutcome {
  TraceStatus status = TraceStatus::Ok;
  std::string message;  ///< one line when status is not Ok
  bool recorded = false;
  std::vector<sim::SimOutput> outs;
  std::vector<std::string> differences;
};

/// Which blocks execute_trace records on a device.
enum class TraceRecording {
  Always,     ///< every traced block (a result-only model's refusal is the device's to give)
  StepsOnly,  ///< only blocks whose model trace has steps: a result-only model's run is kept unrecorded
};

/// Ok when `v` runs GPU threads to trace; BadRequest for host code, with the line
/// "<id> runs on the host CPU: it has no GPU threads to trace" in `message`.
TraceStatus check_traceable(const VariantInfo& v, std::string& message);

/// The launch of `v` on `n` elements of `type` resolved by the variant's rules for a device of `shape`
/// (BadRequest and the rules' line when they refuse it), and `ask`'s blocks inside its grid (OutsideGrid:
/// "block index B is outside the grid of G blocks", `out.launch` set). Fills `out`; Ok. No model needed:
/// a user's kernel is traced with it too (user_trace.hpp).
TraceStatus resolve_trace_launch(const VariantInfo& v, std::int64_t n, DType type, const TraceAsk& ask,
                                 const DeviceShape& shape, PreparedTrace& out, std::string& message);

/// Prepares the trace of `ask`'s blocks of `v` on `n` elements of `type`: check_traceable, the launch
/// and blocks (resolve_trace_launch; DeviceShape{} for the model alone), a sim model in this build, in that
/// order. Returns the first refusal with one line in `message`, or Ok.
TraceStatus prepare_trace(const VariantInfo& v, std::int64_t n, DType type, const TraceAsk& ask,
                          const DeviceShape& shape, PreparedTrace& out, std::string& message);

/// Runs the sim model of `p`'s variant on `in` with `params` once per traced block and, with a `gpu`,
/// records each block there (Backend::record_trace; `recording` says which) and compares it with the
/// model (compare_traces; the recording's compared_with_model and model_difference say it too). Stops at
/// the first recording that fails: NoTraceBuild, Faulted (the device went unavailable while recording)
/// or Failed, with its line. Throws what the model throws (std::bad_alloc): callers word it with what
/// the run needs.
TraceOutcome execute_trace(const PreparedTrace& p, const Input& in, const PatternParams& params, Backend* gpu,
                           TraceRecording recording = TraceRecording::Always);

}  // namespace ws
