// The scan view's model (no ImGui): per trace step, which thread adds which pair of the block's array
// (the Kogge-Stone and Brent-Kung graphs of "CS 677 Lecture 6", Mordohai), the active lanes per warp, and
// the work count: additions so far against the sequential scan's n - 1 ("Work Efficiency Analysis").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace ws::ui {

/// One addition of a step: `thread` adds the element at `from` into the one at `to` (shared indices).
struct ScanEdge {
  int thread = 0;
  std::int64_t from = -1, to = -1;
  double value = 0;  ///< the sum written to `to`
};

/// One step of the trace as the scan view draws it.
struct ScanStepView {
  int step = 0;  ///< trace step index
  TracePhase phase = TracePhase::Step;
  std::string label;
  std::vector<double> before, after;  ///< the block's shared array before / after the step (may be empty)
  std::vector<ScanEdge> edges;        ///< shared-to-shared additions (register-only adds are only counted)
  std::int64_t additions = 0;         ///< adds in the step: register Add ops, or working threads when ops are folded
  std::int64_t additions_so_far = 0;  ///< through this step
  std::vector<int> active_lanes;      ///< per warp: working threads in the step
};

/// The whole trace: one ScanStepView per step, plus the totals.
struct ScanGraph {
  std::vector<ScanStepView> steps;
  int slots = 0;                ///< length of the shared array (0 when the trace keeps none)
  std::int64_t elements = 0;    ///< elements the traced block scans: min(n - block start, slots or window)
  std::int64_t additions = 0;   ///< all steps
  std::int64_t sequential = 0;  ///< elements - 1: the sequential scan's additions for the same elements
  std::string note;             ///< non-empty when there is nothing to draw, says why
  /// True when the kernel keeps no shared array (the naive scan): each step's `before` is then the input
  /// x in global memory and `after` each thread's running sum (a register, by thread), an edge reading
  /// x[from] into thread `to`'s sum.
  bool registers = false;
  std::string top = "before", bottom = "after";  ///< the two rows' names
};

/// Builds the scan view's model from a trace. `elements` is what the traced block scans (the view passes
/// min(n, one block window)); additions are those of the traced block only.
ScanGraph scan_graph(const Trace& t, std::int64_t elements);

/// One rung of the stacked ladder: the array after a step that adds shared pairs (or, first, the
/// input as loaded), with the additions that produced it from the row above.
struct LadderRow {
  int step = -1;                        ///< trace step index; -1 for the input row
  TracePhase phase = TracePhase::Step;  ///< up-sweep, down-sweep, ... (the input row: not used)
  std::string label;                    ///< "stride 2"; the input row: "input"
  std::vector<double> values;           ///< the array after the step (the first `elements` slots)
  std::vector<ScanEdge> edges;          ///< x[from] of the row above added into x[to]
};

/// All steps of a block scan at once, as the Kogge-Stone and Brent-Kung slides draw them
/// ("CS 677 Lecture 6", Mordohai, "A Kogge-Stone Parallel Scan Algorithm", iterations 1-3 stacked): the
/// input row, then one row per step with shared additions, in step order. Values and edges are cut
/// to the first `max_slots` elements (and to g.elements). Empty when no step adds shared pairs.
std::vector<LadderRow> scan_ladder(const ScanGraph& g, int max_slots);

/// "17 additions (sequential: 7) = 2.43x the work" for the totals of `g`.
std::string work_summary(const ScanGraph& g);

}  // namespace ws::ui
