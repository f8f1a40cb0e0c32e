#include "trace/trace_json.hpp"

#include "trace/analyses.hpp"
#include "trace/hazards.hpp"

namespace ws {

namespace {
nlohmann::json value_json(DType type, double v) {
  if (dtype_is_integer(type)) return std::int64_t(v);
  return v;
}
}  // namespace

nlohmann::json trace_header_json(const Trace& t) {
  nlohmann::json j;
  j["variant"] = t.variant;
  j["source"] = t.source;
  j["n"] = t.n;
  j["type"] = to_string(t.type);
  j["block"] = t.launch.block;
  j["grid"] = t.launch.grid;
  j["block_index"] = t.block_index;
  j["racy_model"] = t.racy_model;
  j["interleaving"] = t.interleaving;
  return j;
}

nlohmann::json trace_to_json(const Trace& t, bool with_ops) {
  nlohmann::json j = trace_header_json(t);
  j["warps"] = t.warps();
  j["block_result"] = value_json(t.type, t.block_result);
  j["source_file"] = t.source_file;
  nlohmann::json steps = nlohmann::json::array();
  for (const Step& s : t.steps) {
    const StepSummary sum = summarize_step(t, s);
    nlohmann::json js;
    js["index"] = s.index;
    js["phase"] = to_string(s.phase);
    js["label"] = s.label;
    js["lines"] = s.lines;
    js["barrier_after"] = s.barrier_after;
    if (s.barrier_before_access >= 0) js["barrier_before_access"] = s.barrier_before_access;
    js["warp_masks"] = sum.masks;
    js["bank_conflict_ways"] = sum.conflict_ways;
    if (s.has_shared) {
      nlohmann::json values = nlohmann::json::array();
      for (double v : s.shared_after) values.push_back(value_json(t.type, v));
      js["values"] = std::move(values);
    }
    js["active_warps"] = sum.activity.active_warps;
    js["divergent_warps"] = sum.activity.divergent_warps;
    js["active_lanes"] = sum.activity.active_lanes;
    if (sum.load_requests > 0)
      js["global_loads"] = {
          {"requests", sum.load_requests}, {"sectors", sum.sectors}, {"min_sectors", sum.min_sectors}};
    if (sum.atomics.ops > 0)
      js["atomics"] = {{"ops", sum.atomics.ops},
                       {"addresses", sum.atomics.addresses.size()},
                       {"longest_chain", sum.atomics.longest_chain}};
    if (with_ops) {
      nlohmann::json ops = nlohmann::json::array();
      for (const ThreadOp& o : s.ops) {
        nlohmann::json jo = {{"thread", o.thread},
                             {"kind", to_string(o.kind)},
                             {"space", to_string(o.space)},
                             {"access", o.access},
                             {"address", o.address},
                             {"operand", o.operand},
                             {"value", value_json(t.type, o.value)}};
        if (o.space == Space::Global || o.buffer != 0) jo["buffer"] = o.buffer;
        if (o.line > 0) jo["line"] = o.line;
        ops.push_back(std::move(jo));
      }
      js["ops"] = std::move(ops);
    }
    steps.push_back(std::move(js));
  }
  j["steps"] = std::move(steps);
  nlohmann::json hazards = nlohmann::json::array();
  for (const Hazard& h : shared_hazards(t)) {
    auto side = [](const HazardAccess& a) {
      nlohmann::json js = {{"step", a.step}, {"thread", a.thread}, {"kind", to_string(a.kind)}};
      if (a.line > 0) js["line"] = a.line;
      return js;
    };
    hazards.push_back({{"word", h.word},
                       {"buffer", h.buffer},
                       {"read_write", h.read_write},
                       {"pairs", h.pairs},
                       {"first", side(h.first)},
                       {"second", side(h.second)},
                       {"text", describe_hazard(h)}});
  }
  j["hazards"] = std::move(hazards);
  return j;
}

}  // namespace ws
