// A trace as JSON, with the per-step analyses (the format `warpscope-cli trace --json` prints):
// {"variant","source","n","type","block","grid","block_index","warps","racy_model","interleaving",
//  "block_result","source_file" (the kernel file the lines are in; "" = the trace has no lines),
//  "steps":[{"index","phase","label","lines":[the source lines the step ran, sorted],
//     "warp_masks":[one 32-bit mask per warp, bit lane set when that thread does the step's work],
//     "bank_conflict_ways":[one per warp: highest n-way conflict of its shared accesses, 1 = none,
//                           0 = no shared access],
//     "values":[the shared array after the step; only when the step has one],
//     "barrier_after" (a __syncthreads follows the step), "barrier_before_access" (one inside it, when any),
//     "active_warps","divergent_warps","active_lanes",
//     "global_loads":{"requests","sectors","min_sectors"}      (only when the step loads from global),
//     "atomics":{"ops","addresses","longest_chain"}            (only when the step has atomics),
//     "ops":[{"thread","kind","space","access","address","operand","value","buffer","line"}] (only with_ops;
//            "buffer" for global ops and a second shared array, "line" when known)}],
//  "hazards":[{"word","buffer","read_write","pairs","first","second":{"step","thread","kind","line"},"text"}]
//     (shared-memory hazards, sim/hazards.hpp)}
// Values are integers for int32 traces and numbers for float32 ones.
#pragma once
#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace ws {

/// The header both trace formats share (this one and the stored trace of trace_store.hpp): "variant",
/// "source", "n", "type", "block", "grid", "block_index", "racy_model", "interleaving".
nlohmann::json trace_header_json(const Trace& t);

/// The trace above as JSON. with_ops adds every thread operation of every step (large: about 4 ops per
/// thread per step).
nlohmann::json trace_to_json(const Trace& t, bool with_ops = false);

}  // namespace ws
