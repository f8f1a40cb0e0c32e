// How the CUDA backend runs every pattern (reduction, scan, convolution, atomics): one runner per pattern,
// registered in app/cuda/patterns/run_<pattern>.cpp (docs/patterns.md), or by a test with
// register_pattern_run(). A runner may also record the step trace of one block on the GPU (`record`): it owns
// its pattern's traced launchers and upload; the trace sink they record into is shared (TraceRecorder,
// gpu_trace.cpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "common/trace_event.hpp"  // TraceSink
#include "cuda_context.hpp"
#include "inputs.hpp"
#include "pattern_params.hpp"
#include "run_types.hpp"
#include "variant.hpp"

namespace ws::cuda {

/// Runs one validated request on the GPU: uploads the input, launches the variant's kernels through
/// kernels/<pattern>/<pattern>_launch.hpp, times them (time_launches, restoring inputs a kernel
/// overwrites), and downloads the result (reductions) or the whole output (output, output_rows,
/// output_cols). Fills timing, timed, launches, host_ms and status = RunStatus::Ran; core fills the request's
/// fields, checks the answer against the CPU reference and computes GB/s from the pattern's bytes. May throw
/// std::runtime_error (CUDA errors,
/// a variant without a kernel); the backend turns that into status "error".
using PatternRun = RunResult (*)(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                                 const LaunchConfig& launch);

/// A traced kernel file's arm function (WS_TRACE_ARM_FUNCTION(<name>_arm), kernels/common/trace_record.cuh):
/// points the file's kernels at `sink` and makes launch number `traced_launch` (0-based, in the order the
/// launcher enqueues kernels) of the next launcher call record. The type of kernels::traced::ArmFunction.
using TraceArm = void (*)(const TraceSink& sink, int traced_launch, cudaStream_t stream);

/// The pattern-independent half of recording a trace on the GPU (CudaBackend::record_trace, gpu_trace.cpp):
/// the device's event buffer, which a pattern's `record` hands its traced launcher to. Made by gpu_trace.cpp
/// only; a record function calls record() once.
class TraceRecorder {
 public:
  /// A recorder of block `block_index` into the context's shared event buffer ("trace_events").
  TraceRecorder(CudaContext& ctx, int block_index) : ctx_(ctx), block_index_(block_index) {}
  /// Clears the event count, arms `arm`'s kernel file to record block `block_index` of launch number
  /// `traced_launch` into the buffer, calls `launch` (the instrumented launcher on the uploaded input), waits
  /// for the stream and checks for a CUDA error. Throws std::runtime_error on CUDA errors.
  void record(TraceArm arm, int traced_launch, const std::function<void()>& launch);
  /// Whether record() ran (the events in the buffer are this trace's).
  bool recorded() const { return recorded_; }

 private:
  CudaContext& ctx_;
  int block_index_ = 0;
  bool recorded_ = false;
};

/// Records the trace of one block of `v` on the GPU: finds the variant's traced launcher (false, having done
/// nothing, when the pattern has none for `v`), uploads `in` exactly as the pattern's runner does for a timed
/// run (with `params`, e.g. a scan's exclusive flag) and hands the launcher, its file's arm function and the
/// traced launch to `rec.record()`. Throws std::runtime_error on CUDA errors. gpu_trace.cpp has already
/// checked the device, a racy variant and the block index against `launch.grid`.
using PatternRecord = bool (*)(CudaContext& ctx, const VariantInfo& v, const Input& in, const LaunchConfig& launch,
                               const PatternParams& params, TraceRecorder& rec);

/// The ids of the variants a pattern's `record` can record (those with a traced launcher), any order.
using PatternTracedIds = std::vector<std::string> (*)();

/// One pattern's runner, as patterns/run_<pattern>.cpp lists it (or register_pattern_run() adds it).
struct PatternRunEntry {
  PatternKind pattern;                ///< the VariantInfo::pattern it runs
  PatternRun run;                     ///< the timed run
  PatternRecord record = nullptr;     ///< the GPU trace of one block; nullptr when the pattern has none
  PatternTracedIds traced = nullptr;  ///< with `record`: the variants it records (nullptr: none)
};

/// Adds a pattern's runner beside the built-in ones (a test's pattern family: tests/fixture, with
/// register_pattern() for its core half), as patterns/run_<pattern>.cpp's table would. Must run before the
/// first lookup (find_pattern_run, find_pattern_runner, gpu_traced_variant_ids): the table is built once.
/// Throws std::logic_error when it is built already, when the entry has no `run`, or when the pattern has a
/// runner already.
void register_pattern_run(const PatternRunEntry& entry);

/// The runner entry of a pattern (built-in or registered), or nullptr when this build has none.
const PatternRunEntry* find_pattern_runner(PatternKind pattern);

/// The runner of a pattern, or nullptr when this build has none.
PatternRun find_pattern_run(PatternKind pattern);

/// Whether `v` has a GPU trace in this build: its pattern's runner has a `record` and lists `v`'s id among
/// its traced variants.
bool has_gpu_trace(const VariantInfo& v);

/// CudaBackend::record_trace's refusals that need no device, in its order: a racy variant (Failed, "<id> is
/// racy: ..."), then one without a GPU trace (NoTraceBuild, "<id> has no trace build (<reason>)": host code, a
/// library call, the variant's no_gpu_trace, or its kernels are not instrumented). Recorded, with no message,
/// when the GPU can record `v` (nothing is refused).
TraceRecordResult gpu_trace_refusal(const VariantInfo& v);

/// The ids of the variants the GPU can record a trace of (every runner's `traced` list), sorted.
std::vector<std::string> gpu_traced_variant_ids();

}  // namespace ws::cuda
