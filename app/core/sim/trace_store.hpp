// Traces stored in reports (issue 3, part 3: "report" traces): a compact, lossless JSON form of a
// Trace, so a GPU recording made on the device replays on a laptop in every step-through view.
//   {"variant","source","n","type","block","grid","block_index","block_size","racy_model",
//    "interleaving","block_result","compared_with_model","model_difference",
//    "steps":[{"phase","label","working":[threads],"shared":[values] (when the step has one),
//              "ops":[[thread, kind, space, access, address, operand, value, buffer], ...]}]}
// kind and space are the names to_string() gives ("load", "shared", ...).
#pragma once
#include <nlohmann/json.hpp>

#include "sim/trace.hpp"

namespace ws {

nlohmann::json trace_to_store_json(const Trace& t);
/// Inverse of trace_to_store_json. Throws std::runtime_error naming the bad field.
Trace trace_from_store_json(const nlohmann::json& j);

}  // namespace ws
