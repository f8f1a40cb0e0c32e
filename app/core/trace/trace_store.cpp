#include "trace/trace_store.hpp"

#include <algorithm>
#include <stdexcept>

#include "json_read.hpp"
#include "trace/trace_json.hpp"

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

}  // namespace

nlohmann::json trace_to_store_json(const Trace& t) {
  nlohmann::json j = trace_header_json(t);
  j["block_size"] = t.block_size;
  j["input"] = t.input;
  j["seed"] = t.seed;
  j["block_result"] = t.block_result;
  j["compared_with_model"] = t.compared_with_model;
  j["model_difference"] = t.model_difference;
  if (!t.source_file.empty()) j["source_file"] = t.source_file;
  nlohmann::json steps = nlohmann::json::array();
  for (const Step& s : t.steps) {
    nlohmann::json js;
    js["phase"] = to_string(s.phase);
    js["label"] = s.label;
    js["working"] = s.working_threads;
    if (s.has_shared) js["shared"] = s.shared_after;
    if (!t.source_file.empty()) js["lines"] = s.lines;
    if (!s.barrier_after) js["barrier_after"] = false;
    if (s.barrier_before_access >= 0) js["barrier_before_access"] = s.barrier_before_access;
    nlohmann::json ops = nlohmann::json::array();
    for (const ThreadOp& o : s.ops) {
      nlohmann::json jo = {o.thread, to_string(o.kind), to_string(o.space), o.access, o.address, o.operand,
                           o.value,  o.buffer};
      if (!t.source_file.empty()) jo.push_back(o.line);
      ops.push_back(std::move(jo));
    }
    js["ops"] = std::move(ops);
    steps.push_back(std::move(js));
  }
  j["steps"] = std::move(steps);
  return j;
}

Trace trace_from_store_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::runtime_error("stored trace: not an object");
  const auto need = [&](const nlohmann::json& o, const char* name, const std::string& where) -> const nlohmann::json& {
    if (!o.is_object() || !o.contains(name))
      throw std::runtime_error("stored trace: " + where + "missing field '" + name + "'");
    return o.at(name);
  };
  const auto at = [](const char* name) { return std::string("stored trace: field '") + name + "'"; };
  Trace t;
  t.variant = json_string(need(j, "variant", ""), at("variant"));
  t.source = json_string(need(j, "source", ""), at("source"));
  t.n = json_int(need(j, "n", ""), 0, kMaxStoredTraceN, at("n"));
  if (!parse_dtype(json_string(need(j, "type", ""), at("type")), t.type))
    throw std::runtime_error("stored trace: field 'type' names no element type (int32, float32, uint8)");
  t.launch.block = int(json_int(need(j, "block", ""), 0, kMaxStoredBlockSize, at("block")));
  t.launch.grid = json_int(need(j, "grid", ""), 0, kMaxStoredGrid, at("grid"));
  t.block_index =
      int(json_int(need(j, "block_index", ""), 0, std::max<std::int64_t>(0, t.launch.grid - 1), at("block_index")));
  // The views size their pictures by the block: 0 threads divide by zero warps, 2^30 allocate gigabytes.
  t.block_size = int(json_int(need(j, "block_size", ""), 1, kMaxStoredBlockSize, at("block_size")));
  // Traces stored before these fields existed were all made by `report --traces`, which traces random
  // input with seed 1 (cmd_report.cpp record_traces), so that is what their absence means.
  t.input = j.contains("input") ? json_string(j["input"], at("input")) : std::string("random");
  t.seed = j.contains("seed") ? std::uint64_t(json_number(j["seed"], 0, 1.8e19, at("seed"))) : std::uint64_t(1);
  t.racy_model = json_bool(need(j, "racy_model", ""), at("racy_model"));
  t.interleaving = json_string(need(j, "interleaving", ""), at("interleaving"));
  t.block_result = json_number(need(j, "block_result", ""), -1e308, 1e308, at("block_result"));
  if (j.contains("compared_with_model"))
    t.compared_with_model = json_bool(j["compared_with_model"], at("compared_with_model"));
  if (j.contains("model_difference")) t.model_difference = json_string(j["model_difference"], at("model_difference"));
  // Traces stored before they carried source lines have no source_file: they load without lines.
  if (j.contains("source_file")) {
    t.source_file = json_string(j["source_file"], at("source_file"));
    if (t.source_file.empty() || t.source_file.size() > 64 || t.source_file.find('/') != std::string::npos)
      throw std::runtime_error("stored trace: field 'source_file' must name a kernel file (\"epita.cu\")");
  }
  const bool lines = !t.source_file.empty();
  const auto& steps = need(j, "steps", "");
  if (!steps.is_array()) throw std::runtime_error("stored trace: field 'steps' must be an array");
  if (steps.empty())
    throw std::runtime_error("stored trace: field 'steps' is empty (a stored trace has at least one step)");
  if (steps.size() > kMaxStoredTraceSteps)
    throw std::runtime_error("stored trace: field 'steps' holds " + std::to_string(steps.size()) +
                             " steps, more than " + std::to_string(kMaxStoredTraceSteps));
  const std::int64_t threads = t.block_size;
  const std::size_t max_ops = std::size_t(threads) * kMaxStoredOpsPerThread;
  std::size_t total_ops = 0;
  for (const auto& js : steps) {
    const std::string where = "step " + std::to_string(t.steps.size()) + ": ";
    const auto sat = [&](const char* name) { return "stored trace: " + where + "field '" + name + "'"; };
    Step s;
    s.index = int(t.steps.size());
    const std::string phase = json_string(need(js, "phase", where), sat("phase"));
    if (!parse_trace_phase(phase, s.phase))
      throw std::runtime_error("stored trace: " + where + "unknown phase '" + phase + "' (one of " +
                               trace_phase_names() + ")");
    s.label = json_string(need(js, "label", where), sat("label"));
    const auto& working = need(js, "working", where);
    if (!working.is_array() || working.size() > std::size_t(threads))
      throw std::runtime_error(sat("working") + " must be an array of at most block_size (" + std::to_string(threads) +
                               ") threads");
    for (const auto& w : working)
      s.working_threads.push_back(int(json_int(w, 0, threads - 1, sat("working") + " entry")));
    if (js.contains("shared")) {
      const auto& sh = js["shared"];
      if (!sh.is_array() || sh.size() > kMaxStoredSharedWords)
        throw std::runtime_error(sat("shared") + " must be an array of at most " +
                                 std::to_string(kMaxStoredSharedWords) + " words (the shared memory of one block)");
      s.has_shared = true;
      s.shared_after.reserve(sh.size());
      for (const auto& v : sh) s.shared_after.push_back(json_number(v, -1e308, 1e308, sat("shared") + " entry"));
    }
    if (lines) {
      const auto& jl = need(js, "lines", where);
      if (!jl.is_array() || jl.size() > kMaxStoredLinesPerStep)
        throw std::runtime_error(sat("lines") + " must be an array of at most " +
                                 std::to_string(kMaxStoredLinesPerStep) + " source lines");
      for (const auto& l : jl) s.lines.push_back(int(json_int(l, 1, kMaxStoredLine, sat("lines") + " entry")));
    }
    // Optional: traces stored before barriers were recorded have one after every step.
    if (js.contains("barrier_after")) {
      if (!js["barrier_after"].is_boolean()) throw std::runtime_error(sat("barrier_after") + " must be true or false");
      s.barrier_after = js["barrier_after"].get<bool>();
    }
    if (js.contains("barrier_before_access"))
      s.barrier_before_access =
          int(json_int(js["barrier_before_access"], 0, kMaxStoredOpsPerThread, sat("barrier_before_access")));
    const auto& ops = need(js, "ops", where);
    if (!ops.is_array() || ops.size() > max_ops)
      throw std::runtime_error(sat("ops") + " must be an array of at most " + std::to_string(kMaxStoredOpsPerThread) +
                               " ops per thread of the block (" + std::to_string(max_ops) + ")");
    total_ops += ops.size();
    if (total_ops > kMaxStoredTraceOps)
      throw std::runtime_error("stored trace: more than " + std::to_string(kMaxStoredTraceOps) + " ops in all");
    s.ops.reserve(ops.size());
    for (const auto& jo : ops) {
      const std::string op_at = "stored trace: " + where + "op " + std::to_string(s.ops.size());
      if (!jo.is_array() || jo.size() != (lines ? 9u : 8u))
        throw std::runtime_error(
            op_at + (lines
                         ? " is not an array of 9 [thread, kind, space, access, address, operand, value, buffer, line]"
                         : " is not an array of 8 [thread, kind, space, access, address, operand, value, buffer]"));
      ThreadOp o;
      o.thread = int(json_int(jo[0], 0, threads - 1, op_at + ": thread"));
      o.kind = kind_from(json_string(jo[1], op_at + ": kind"));
      o.space = space_from(json_string(jo[2], op_at + ": space"));
      o.access = int(json_int(jo[3], -1, kMaxStoredAccess, op_at + ": access"));
      o.address = json_int(jo[4], -1, kMaxStoredAddress, op_at + ": address");
      o.operand = json_int(jo[5], -1, kMaxStoredAddress, op_at + ": operand");
      o.value = json_number(jo[6], -1e308, 1e308, op_at + ": value");
      o.buffer = int(json_int(jo[7], 0, kMaxStoredBuffer, op_at + ": buffer"));
      if (lines) o.line = int(json_int(jo[8], 0, kMaxStoredLine, op_at + ": line"));
      s.ops.push_back(o);
    }
    t.steps.push_back(std::move(s));
  }
  return t;
}

}  // namespace ws
