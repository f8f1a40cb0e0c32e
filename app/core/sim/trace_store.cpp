#include "sim/trace_store.hpp"

#include <stdexcept>

namespace ws {

namespace {

OpKind kind_from(const std::string& s) {
  for (OpKind k : {OpKind::Load, OpKind::Store, OpKind::Add, OpKind::Max, OpKind::Shuffle, OpKind::Atomic})
    if (s == to_string(k)) return k;
  throw std::runtime_error("stored trace: unknown op kind '" + s + "'");
}

Space space_from(const std::string& s) {
  for (Space k : {Space::Register, Space::Shared, Space::Global})
    if (s == to_string(k)) return k;
  throw std::runtime_error("stored trace: unknown space '" + s + "'");
}

template <class T>
T field(const nlohmann::json& j, const char* name) {
  if (!j.contains(name)) throw std::runtime_error(std::string("stored trace: missing field '") + name + "'");
  try {
    return j.at(name).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(std::string("stored trace: field '") + name + "' has the wrong type");
  }
}

}  // namespace

nlohmann::json trace_to_store_json(const Trace& t) {
  nlohmann::json j;
  j["variant"] = t.variant;
  j["source"] = t.source;
  j["n"] = t.n;
  j["type"] = to_string(t.type);
  j["block"] = t.launch.block;
  j["grid"] = t.launch.grid;
  j["block_index"] = t.block_index;
  j["block_size"] = t.block_size;
  j["input"] = t.input;
  j["seed"] = t.seed;
  j["racy_model"] = t.racy_model;
  j["interleaving"] = t.interleaving;
  j["block_result"] = t.block_result;
  j["compared_with_model"] = t.compared_with_model;
  j["model_difference"] = t.model_difference;
  nlohmann::json steps = nlohmann::json::array();
  for (const Step& s : t.steps) {
    nlohmann::json js;
    js["phase"] = s.phase;
    js["label"] = s.label;
    js["working"] = s.working_threads;
    if (s.has_shared) js["shared"] = s.shared_after;
    nlohmann::json ops = nlohmann::json::array();
    for (const ThreadOp& o : s.ops)
      ops.push_back({o.thread, to_string(o.kind), to_string(o.space), o.access, o.address, o.operand, o.value, o.buffer});
    js["ops"] = std::move(ops);
    steps.push_back(std::move(js));
  }
  j["steps"] = std::move(steps);
  return j;
}

Trace trace_from_store_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::runtime_error("stored trace: not an object");
  Trace t;
  t.variant = field<std::string>(j, "variant");
  t.source = field<std::string>(j, "source");
  t.n = field<std::int64_t>(j, "n");
  if (!parse_dtype(field<std::string>(j, "type"), t.type)) throw std::runtime_error("stored trace: unknown type");
  t.launch.block = field<int>(j, "block");
  t.launch.grid = field<std::int64_t>(j, "grid");
  t.block_index = field<int>(j, "block_index");
  t.block_size = field<int>(j, "block_size");
  // Traces stored before these fields existed were all made by `report --traces`, which traces random
  // input with seed 1 (cmd_report.cpp record_traces), so that is what their absence means.
  t.input = j.value("input", std::string("random"));
  t.seed = j.value("seed", std::uint64_t(1));
  t.racy_model = field<bool>(j, "racy_model");
  t.interleaving = field<std::string>(j, "interleaving");
  t.block_result = field<double>(j, "block_result");
  t.compared_with_model = j.value("compared_with_model", false);
  t.model_difference = j.value("model_difference", std::string());
  const auto& steps = j.at("steps");
  if (!steps.is_array()) throw std::runtime_error("stored trace: 'steps' is not an array");
  for (const auto& js : steps) {
    Step s;
    s.index = int(t.steps.size());
    s.phase = field<std::string>(js, "phase");
    s.label = field<std::string>(js, "label");
    s.working_threads = field<std::vector<int>>(js, "working");
    if (js.contains("shared")) {
      s.has_shared = true;
      s.shared_after = field<std::vector<double>>(js, "shared");
    }
    for (const auto& jo : js.at("ops")) {
      if (!jo.is_array() || jo.size() != 8) throw std::runtime_error("stored trace: an op is not an array of 8");
      ThreadOp o;
      o.thread = jo[0].get<int>();
      o.kind = kind_from(jo[1].get<std::string>());
      o.space = space_from(jo[2].get<std::string>());
      o.access = jo[3].get<int>();
      o.address = jo[4].get<std::int64_t>();
      o.operand = jo[5].get<std::int64_t>();
      o.value = jo[6].get<double>();
      o.buffer = jo[7].get<int>();
      s.ops.push_back(o);
    }
    t.steps.push_back(std::move(s));
  }
  return t;
}

}  // namespace ws
