// What one step of a trace does (Step::phase): an enum inside warpscope, its name in trace JSON
// (stored traces, reports, `warpscope-cli trace --json`) and on screen.
#pragma once
#include <iosfwd>
#include <string>

namespace ws {

/// The part of a kernel a trace step belongs to. The sim models name it when they begin a step; a GPU
/// recording takes its model's (or Step when the step counts differ).
enum class TracePhase {
  Step,        ///< "step": a loop step with no more specific part (a naive scan's stride, an unlabelled GPU step)
  Load,        ///< "load": global memory into registers or shared memory (each pass of a grid-stride load loop)
  Halo,        ///< "halo": a tiled convolution loads its tile's halo cells
  Compute,     ///< "compute": a convolution's multiply-adds
  Tree,        ///< "tree": one stride of a shared-memory tree
  Warp,        ///< "warp": a warp-synchronous step (shuffles or the unrolled last warp)
  Combine,     ///< "combine": the block's partials meet (thread 0, an atomic, the final write)
  Atomic,      ///< "atomic": a step whose work is atomic operations
  Pass,        ///< "pass": one launch of a reduction that launches once per stride
  Store,       ///< "store": results written back to global memory
  Sequential,  ///< "sequential": the host's std::accumulate (a model with no threads)
  UpSweep,     ///< "up-sweep": a work-efficient scan's reduce phase
  DownSweep,   ///< "down-sweep": a work-efficient scan's distribute phase
  Thread,      ///< "thread": each thread adds up its own values
  Block,       ///< "block": the warps' totals are scanned across the block
  Scan,        ///< "scan": warp 0 scans the warps' counts (stream compaction)
  Count,       ///< "count": each warp counts the values it keeps
  LookBack,    ///< "look-back": a block waits for its predecessors' prefix (decoupled look-back)
  Stage,       ///< "stage": kept values gathered in a shared staging tile before the store; the last value
};

/// The name trace JSON and the views use: "load", "up-sweep", "look-back", ...
const char* to_string(TracePhase p);
/// Parses a name written by to_string; false (out untouched) on anything else.
bool parse_trace_phase(const std::string& s, TracePhase& out);
/// Every name in enum order, comma-separated ("step, load, halo, ..."): what an error about a phase lists.
std::string trace_phase_names();
/// Writes to_string(p) (test messages).
std::ostream& operator<<(std::ostream& o, TracePhase p);

}  // namespace ws
