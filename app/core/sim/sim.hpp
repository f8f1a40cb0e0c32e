// The sim backend: a CPU model of each variant at thread granularity.
//
// Contract notes (refinements, all compatible with the first version of this header):
// - The traced launch is the variant's main kernel: the first launch that reads the input (cs121's
//   init_max launches are counted in `launches` but not traced).
// - Atomic ops record as `value` the operand the thread contributes (deterministic), not the old value.
// - Register ops (Add, Max, Shuffle) use access = -1; analyses group only Shared/Global ops by access.
// - Racy models set trace.racy_model and describe their schedule in trace.interleaving; models of
//   lock-step-dependent code (volatile last warp) state "lock-step warps" there too, racy_model false.
// - A model must throw std::runtime_error when trace_block >= launch.grid.
// - sim/model_kit.hpp (optional) has the helpers the epita/cs121 models use: element policies
//   (int32 wrapping sum, float32 sum, int32 max), a padded global view, and a step Recorder.
#pragma once
#include <string>
#include <vector>

#include "backend.hpp"
#include "inputs.hpp"
#include "pattern_params.hpp"
#include "trace/trace.hpp"
#include "variant.hpp"

namespace ws::sim {

/// Output of one simulated run: the result over the whole input and the trace of one block.
struct SimOutput {
  double result = 0;  ///< what the variant's code computes (racy: under the stated interleaving)
  int launches = 0;   ///< kernel launches the real variant makes
  Trace trace;        ///< the traced block (empty steps when trace_block < 0)
  /// Array patterns: the whole output, row-major (rows = 0: 1D); `result` is then unused (0).
  HostVector<double> output;
  std::int64_t output_rows = 0, output_cols = 0;
  /// Scan models: additions the whole run performs (all blocks, all launches), to compare with the
  /// sequential scan's n - 1 ("CS 677 Lecture 6", Mordohai, "Work Efficiency Analysis"); -1 when not counted.
  std::int64_t additions = -1;
};

/// A variant's model: runs every block of every launch on the CPU; records ops for block
/// `trace_block` of the first launch only (-1: none). `launch` is resolved (block, grid > 0); `params`
/// are the request's pattern parameters (exclusive, mask width, tile, ...; reductions read none).
/// Must handle n = 2^22 in well under 2 s; blocks other than the traced one may take a fast path
/// (fast_paths()) that gives the same result. Array patterns fill SimOutput::output. Throws
/// std::runtime_error on a launch the model cannot take.
using SimModel = SimOutput (*)(const VariantInfo& v, const Input& in, const LaunchConfig& launch,
                               const PatternParams& params, int trace_block);

/// One entry of a model table: a variant id and its model.
struct ModelEntry {
  const char* id;
  SimModel model;
};
/// Per-seed reduction tables (models_<seed>.cpp) and the reduction pattern's whole table (sim.cpp:
/// these and cub.reduce).
std::vector<ModelEntry> epita_models();
std::vector<ModelEntry> harris_models();
std::vector<ModelEntry> cs121_models();
std::vector<ModelEntry> amp_models();
std::vector<ModelEntry> stevens_reduction_models();  // "CS 677 Lecture 6", Mordohai, reduction trees
std::vector<ModelEntry> reduction_models();
/// Per-pattern model tables (patterns/<pattern>/models_<lesson>.cpp).
std::vector<ModelEntry> scan_models();
std::vector<ModelEntry> conv_models();
std::vector<ModelEntry> atomics_models();

/// The model of a variant id (every pattern's PatternSpec::sim_models), or nullptr.
SimModel find_model(const std::string& id);
/// True when the variant has a model.
bool has_model(const std::string& id);
/// Runs the variant's model and stamps the trace with the input's kind and seed. Throws
/// std::runtime_error when there is none or the model refuses the launch.
SimOutput simulate(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& params,
                   int trace_block);

/// Whether models compute the blocks they do not trace with their fast per-block paths (default on):
/// code that gives the same bits as the thread-level model for that block, without modelling each
/// thread (models_*.cpp say where they have one). Off: every block runs the thread-level model. Tests
/// compare the two on awkward sizes for every variant.
bool fast_paths();
/// Turns the fast per-block paths on or off (process-wide; for tests and benchmarks).
void set_fast_paths(bool on);

/// Sim "device": sm_count 0, so grid-stride kernels default to min(windows, 1024) blocks.
/// The Backend for `--backend sim`: runs the model, no timing (timed = false).
class SimBackend final : public Backend {
 public:
  SimBackend();
  std::string name() const override { return "sim"; }
  const DeviceInfo& device() const override { return device_; }
  RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) override;

 private:
  DeviceInfo device_;
};

}  // namespace ws::sim
