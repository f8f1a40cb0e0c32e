#include "metric_predict.hpp"

#include <bitset>
#include <map>
#include <tuple>

#include "trace/analyses.hpp"

namespace ws {

PredictionInputs prediction_inputs(const Trace& t) {
  PredictionInputs p;
  double lanes = 0, warps = 0;
  for (const Step& s : t.steps) {
    // Warp-wide shared instructions: (kind, warp, access) -> the words their lanes touch.
    std::map<std::tuple<int, int, int>, std::vector<std::int64_t>> shared;
    for (const ThreadOp& op : s.ops) {
      if (op.kind == OpKind::Atomic && op.space == Space::Global) p.global_atomics += 1;
      if (op.space != Space::Shared) continue;
      if (op.kind == OpKind::Load || op.kind == OpKind::Store || op.kind == OpKind::Atomic)
        shared[{int(op.kind), op.thread / kWarpSize, op.access}].push_back(op.address);
    }
    for (const auto& [k, words] : shared) {
      const int ways = bank_conflict_ways(words);
      const double extra = ways > 1 ? ways - 1 : 0;
      const OpKind kind = OpKind(std::get<0>(k));
      if (kind == OpKind::Load) {
        p.shared_loads += 1;
        p.shared_load_conflicts += extra;
      } else if (kind == OpKind::Store) {
        p.shared_store_conflicts += extra;
      } else {
        p.shared_atomics += 1;
      }
    }
    if (s.phase == TracePhase::Tree) {
      for (std::uint32_t m : active_masks(t, s))
        if (m) {
          lanes += double(std::bitset<32>(m).count());
          warps += 1;
        }
    }
  }
  p.tree_lanes_per_warp = warps > 0 ? lanes / warps : 0;
  return p;
}

}  // namespace ws
