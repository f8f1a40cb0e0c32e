// Atomics view (seed 003 "Atomics performance", "Warp-aggregated atomics"): for the current
// step of the trace, the atomic operations per address with the longest serialized chain marked
// (contention), and per warp which lanes issue an atomic: warp-aggregated code shows one leader per
// warp adding the warp's count, the plain atomic filter one atomic per kept lane.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/analyses.hpp"
#include "view_context.hpp"

namespace ws::ui {

/// One bar of the per-address chart.
struct AtomicBar {
  std::string label;  ///< e.g. "hist[17]", "local_hist[3]", "counter"
  AtomicAddress address;
  bool longest = false;  ///< on the step's longest serialized chain, when that is more than one atomic (contention)
};

/// One warp's atomics in the step.
struct WarpAtomics {
  int warp = 0;
  std::uint32_t working = 0;       ///< lanes doing the step's work (the active mask)
  std::uint32_t atomic_lanes = 0;  ///< lanes that issue an atomic
  int ops = 0;                     ///< atomics the warp issues
  double added = 0;                ///< sum of the operands (a leader adds its warp's count)
};

/// What the view draws for one step, computed from the trace alone (no ImGui): testable.
struct AtomicsPicture {
  AtomicStats step;                ///< this step's atomics (ops, addresses, longest chain)
  AtomicStats trace;               ///< the same over every step of the traced block
  std::vector<AtomicBar> bars;     ///< at most `max_bars`, by address; the busiest kept when cut
  int hidden_addresses = 0;        ///< addresses left out of `bars`
  std::vector<WarpAtomics> warps;  ///< one per warp of the block
};

/// The picture of step `step` of `t`; bars are named after the variant (histograms: hist / local_hist).
AtomicsPicture atomics_picture(const Trace& t, const Step& step, int max_bars = 64);

class AtomicsView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);
};

}  // namespace ws::ui
