// The trace model: what each thread of one block did at each step of a variant's main loop.
// Produced by the sim backend (CPU model) and, later, by an instrumented GPU build of the same kernels.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/trace_event.hpp"  // OpKind, Space: the record layout the kernels share
#include "trace/trace_phase.hpp"
#include "types.hpp"

namespace ws {

const char* to_string(OpKind k);
const char* to_string(Space s);

/// One operation of one thread. `access` numbers the warp-wide memory instructions within a step
/// (0, 1, 2, ... in program order), so that the lanes of a warp executing the same instruction can be
/// grouped for bank-conflict and coalescing analysis. Addresses are element indices (4-byte words) in
/// their space: shared word index, or global element index (the input array; `buffer` says which).
struct ThreadOp {
  int thread = 0;  ///< threadIdx.x within the traced block
  OpKind kind = OpKind::Add;
  Space space = Space::Register;
  int access = 0;             ///< warp-wide instruction index within the step (memory ops)
  std::int64_t address = -1;  ///< word index in `space` (-1 for registers)
  std::int64_t operand = -1;  ///< for Add/Max/Shuffle: the other operand's address or source lane
  double value = 0;           ///< the value loaded, stored, or produced; Atomic: the operand the thread adds
                              ///< (or maxes in), which does not depend on the order of the atomics
  int buffer = 0;             ///< Global: 0 = input, 1 = output/partials, 2 = accumulator; Shared: which
                              ///< __shared__ array (0 but in double-buffered kernels: the buffer used)
  int line = 0;               ///< 1-based line of Trace::source_file whose statement did it; 0 = not known
};

/// One step: one iteration of the variant's main loop (or one phase: load, combine).
struct Step {
  int index = 0;
  TracePhase phase = TracePhase::Step;  ///< load, tree, warp, combine, ... (its name in JSON: to_string)
  std::string label;                    ///< e.g. "stride 128"
  std::vector<ThreadOp> ops;            ///< in program order per thread; threads in increasing order
  /// Threads that do the step's work (e.g. the add of a tree step, not just the loop test).
  std::vector<int> working_threads;
  bool has_shared = false;
  std::vector<double> shared_after;  ///< the block's shared array after the step (when has_shared)
  /// The source lines (of Trace::source_file) whose statements ran in the step: the lines of its ops
  /// and working marks, sorted, unique. Empty when the trace carries no lines.
  std::vector<int> lines;
  /// Whether a __syncthreads separates this step's ops from the next step's. Steps are iterations of
  /// loops that end in a barrier, so true unless the model says the kernel has none there (warp-
  /// synchronous code, the missing-barrier lesson). Read by the hazard detector (sim/hazards.hpp).
  bool barrier_after = true;
  /// A __syncthreads inside the step: ops with access >= this index come after it (Kogge-Stone reads,
  /// barrier, writes); -1 = none.
  int barrier_before_access = -1;
};

/// The trace of one block of one run.
struct Trace {
  std::string variant;
  std::string source = "sim";  ///< "sim", a GPU name, or "report"
  std::int64_t n = 0;
  DType type = DType::Int32;
  LaunchConfig launch;
  int block_index = 0;
  int block_size = 0;            ///< threads in the traced block
  std::string input = "random";  ///< the run's input kind ("random", "ones", "sequence") or file path
  std::uint64_t seed = 1;        ///< the random input's seed
  bool racy_model = false;       ///< the variant is racy: the trace follows `interleaving`
  std::string interleaving;      ///< the stated interleaving used for racy models
  std::vector<Step> steps;
  /// The kernel file the ops' lines are in ("epita.cu", a kernels/*/ file name); "" = the trace
  /// carries no lines (its model names no trace points, or it was stored before traces had lines).
  std::string source_file;
  double block_result = 0;  ///< what the traced block contributed (recorded traces: from its ops)
  /// Recorded traces: whether they were compared with the sim model's trace of the same run, and how
  /// they differ ("" = equal). Sim traces: compared = false.
  bool compared_with_model = false;
  std::string model_difference;
  int warps() const { return (block_size + 31) / 32; }
  /// Whether any step names the source lines it ran.
  bool has_lines() const {
    for (const Step& s : steps)
      if (!s.lines.empty()) return true;
    return false;
  }
};

}  // namespace ws
