// The backend interface: a RunRequest goes in, a RunResult comes out (DESIGN.md, "Backends").
#pragma once
#include <memory>
#include <string>
#include <utility>

#include "device.hpp"
#include "inputs.hpp"
#include "launch_rules.hpp"
#include "pattern_params.hpp"
#include "run_types.hpp"
#include "trace/trace.hpp"
#include "variant.hpp"

namespace ws {

/// How Backend::record_trace ended, for the callers that tell its reasons apart (the trace request's
/// TraceStatus); its words are the answer's `message`.
enum class TraceRecordStatus {
  Recorded,      ///< `out` holds the recording; no message
  NoTraceBuild,  ///< its kernels have no trace build: "<id> has no trace build (<reason>)"
  Failed,        ///< any other reason: no device, a racy variant, a block outside the grid, a CUDA error, a fault
};

/// Backend::record_trace's answer: its status and, when it recorded nothing, one line why.
struct TraceRecordResult {
  TraceRecordStatus status = TraceRecordStatus::Recorded;
  std::string message;  ///< "" when Recorded
  bool recorded() const { return status == TraceRecordStatus::Recorded; }
  /// A refusal or failure that is not NoTraceBuild.
  static TraceRecordResult failed(std::string why) { return {TraceRecordStatus::Failed, std::move(why)}; }
  /// The variant has no trace build: `why` is "<id> has no trace build (<reason>)".
  static TraceRecordResult no_trace_build(std::string why) { return {TraceRecordStatus::NoTraceBuild, std::move(why)}; }
};

/// A place where variants run. run() never throws for bad input: it returns status "error".
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual const DeviceInfo& device() const = 0;
  /// Runs an already validated request on its input. `launch` is the resolved launch.
  virtual RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) = 0;
  /// Records on the device the trace of block `block_index` of the variant's traced launch, building
  /// it against `model` (the sim trace of the same run, for step labels). `params`: the array patterns'
  /// parameters the model ran with (a scan's exclusive flag). Returns Recorded, or NoTraceBuild or Failed with
  /// a one-line reason, so callers tell the reasons apart without reading their words. Backends that cannot
  /// record say so (Failed).
  virtual TraceRecordResult record_trace(const VariantInfo& v, const Input& in, const LaunchConfig& launch,
                                         int block_index, const Trace& model, Trace& out,
                                         const PatternParams& params = PatternParams{}) {
    (void)v, (void)in, (void)launch, (void)block_index, (void)model, (void)out, (void)params;
    return TraceRecordResult::failed("the " + name() + " backend does not record traces on a device");
  }
  /// Records on the device the trace of block `block_index` of a user's kernel (req.kernel.source: a traced
  /// edit, with its variant's instrumentation put back; trace/user_trace_build.hpp), run as `v`
  /// (user_kernel_variant's) with `launch`. `model`: the sim trace of the variant it is like on the same input
  /// (step labels where the step counts agree; n, type and launch). The trace's lines are the user's
  /// (Trace::source_file = req.kernel.file). Returns "" or a one-line reason (no device, no trace points, a
  /// compile error as `FILE:LINE: error: ...`, a CUDA error).
  virtual std::string record_user_trace(const VariantInfo& v, const RunRequest& req, const Input& in,
                                        const LaunchConfig& launch, int block_index, const Trace& model, Trace& out) {
    (void)v, (void)req, (void)in, (void)launch, (void)block_index, (void)model, (void)out;
    return "the " + name() + " backend does not record traces on a device";
  }
  /// Does now, once, the set-up a process's first hardware-metrics request would otherwise pay (the CUDA
  /// backend: CudaBackend::warm_up_metrics). Returns one line saying what ran or why nothing did ("": this
  /// backend has nothing to prepare); throws std::exception on failure, which the caller logs and ignores.
  virtual std::string warm_up_metrics() { return ""; }
  /// Between requests (a worker with nothing queued): does now what the next hardware-metrics request would
  /// otherwise begin with (the CUDA backend: the kept range-profiler session's Start,
  /// CudaBackend::prepare_next_metrics). Returns one line saying what it did, "" when there was nothing to do;
  /// throws std::exception on failure, which the caller logs and ignores (the next request pays it instead).
  virtual std::string prepare_next_metrics() { return ""; }
};

}  // namespace ws
