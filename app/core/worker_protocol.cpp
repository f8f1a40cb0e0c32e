#include "worker_protocol.hpp"

#include <cmath>
#include <stdexcept>

#include "collective/allreduce_json.hpp"
#include "collective/link_model.hpp"
#include "collective/schedule.hpp"
#include "json_read.hpp"
#include "report.hpp"
#include "types.hpp"

namespace ws {
namespace {

std::vector<std::string> backend_names(const std::vector<BackendKind>& kinds) {
  std::vector<std::string> out;
  for (BackendKind b : kinds) out.push_back(to_string(b));
  return out;
}

}  // namespace

using nlohmann::json;

namespace {

template <typename T>
T field_or(const json& j, const char* key, T fallback, const char* what) {
  if (!j.contains(key) || j.at(key).is_null()) return fallback;
  return json_as<T>(j.at(key), std::string(what) + ": field '" + key + "'");
}

}  // namespace

json request_to_json(const RunRequest& r) {
  json j = {{"variant", r.variant},
            {"n", r.n},
            {"block", r.launch.block},
            {"grid", r.launch.grid},
            {"repeat", r.repeat},
            {"warmup", r.warmup},
            {"type", to_string(r.type)},
            {"input", r.input},
            {"seed", r.seed},
            {"backend", to_string(r.backend)},
            {"params", params_to_json(r.params)},
            {"metrics", r.metrics}};
  if (!r.kernel.empty())
    j["kernel"] = {{"source", r.kernel.source},
                   {"file", r.kernel.file},
                   {"entry", r.kernel.entry},
                   {"pattern", to_string(r.kernel.pattern)},
                   {"like", r.kernel.like}};
  if (!r.kernel.empty() && !r.kernel.label.empty()) j["kernel"]["label"] = r.kernel.label;
  // Paths are bytes: one that is not UTF-8 (a Latin-1 file name) travels as hex beside its escaped text.
  if (!is_valid_utf8(r.input)) j["input"] = escape_invalid_utf8(r.input), j["input_hex"] = bytes_to_hex(r.input);
  if (!is_valid_utf8(r.params.mask))
    j["params"]["mask"] = escape_invalid_utf8(r.params.mask), j["params"]["mask_hex"] = bytes_to_hex(r.params.mask);
  return j;
}

RunRequest request_from_json(const json& j) {
  const char* what = "request";
  if (!j.is_object()) throw std::runtime_error("request: not an object");
  RunRequest r;
  r.variant = field_or<std::string>(j, "variant", "", what);
  r.n = field_or<std::int64_t>(j, "n", 0, what);
  r.launch.block = field_or<int>(j, "block", 0, what);
  r.launch.grid = field_or<std::int64_t>(j, "grid", 0, what);
  r.repeat = field_or<int>(j, "repeat", r.repeat, what);
  r.warmup = field_or<int>(j, "warmup", r.warmup, what);
  const std::string type = field_or<std::string>(j, "type", "int32", what);
  if (!parse_dtype(type, r.type)) throw std::runtime_error("request: unknown type '" + type + "'");
  r.input = field_or<std::string>(j, "input", r.input, what);
  r.seed = field_or<std::uint64_t>(j, "seed", r.seed, what);
  const std::string backend = field_or<std::string>(j, "backend", to_string(r.backend), what);
  if (!parse_backend(backend, r.backend)) throw std::runtime_error("request: " + unknown_backend_message(backend));
  if (j.contains("params") && j["params"].is_object()) r.params = params_from_json(j["params"]);
  r.metrics = field_or<std::string>(j, "metrics", "", what);
  if (j.contains("kernel")) {
    const json& k = j["kernel"];
    if (!k.is_object()) throw std::runtime_error("request: kernel is not an object");
    r.kernel.source = field_or<std::string>(k, "source", "", "kernel");
    r.kernel.file = field_or<std::string>(k, "file", r.kernel.file, "kernel");
    r.kernel.entry = field_or<std::string>(k, "entry", "", "kernel");
    r.kernel.like = field_or<std::string>(k, "like", "", "kernel");
    r.kernel.label = field_or<std::string>(k, "label", "", "kernel");
    const std::string pattern = field_or<std::string>(k, "pattern", "reduction", "kernel");
    if (!parse_pattern(pattern, r.kernel.pattern))
      throw std::runtime_error("request: " + unknown_pattern_message(pattern));
  }
  const auto path_bytes = [&](const json& o, const char* key, std::string& out) {
    if (!o.contains(key)) return;
    if (!hex_to_bytes(field_or<std::string>(o, key, "", what), out))
      throw std::runtime_error(std::string("request: field '") + key + "' must be hex digits");
  };
  path_bytes(j, "input_hex", r.input);
  if (j.contains("params") && j["params"].is_object()) path_bytes(j["params"], "mask_hex", r.params.mask);
  return r;
}

json run_to_wire(const RunResult& r) {
  json j = run_to_json(r);
  if (!j.contains("params")) j["params"] = params_to_json(r.params);
  if (!j.contains("output") && !r.output.empty()) {
    json out = json::array();
    for (double v : r.output) out.push_back(std::isfinite(v) ? json(v) : json(nullptr));
    j["output"] = std::move(out);
  }
  return j;
}

RunResult run_from_wire(const json& j) { return run_from_json(j); }

json live_batch_to_json(const LiveBatch& b) {
  json results = json::array();
  for (const auto& r : b.requests) {
    json one = {{"runs", r.runs}, {"times_ms", r.times_ms}};
    if (r.last) one["last"] = run_to_json(*r.last);
    results.push_back(std::move(one));
  }
  return {{"rounds", b.rounds}, {"cancelled", b.cancelled}, {"failed", b.failed}, {"results", std::move(results)}};
}

LiveBatch live_batch_from_json(const json& j) {
  const char* what = "live_batch";
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array())
    throw std::runtime_error("live_batch: no 'results' array");
  LiveBatch b;
  b.rounds = field_or<int>(j, "rounds", 0, what);
  b.cancelled = field_or<bool>(j, "cancelled", false, what);
  b.failed = field_or<bool>(j, "failed", false, what);
  for (const auto& one : j["results"]) {
    if (!one.is_object()) throw std::runtime_error("live_batch: a result is not an object");
    LiveRequestRuns r;
    r.runs = field_or<int>(one, "runs", 0, what);
    r.times_ms = field_or<std::vector<double>>(one, "times_ms", {}, what);
    if (one.contains("last") && one["last"].is_object()) r.last = run_from_json(one["last"]);
    b.requests.push_back(std::move(r));
  }
  return b;
}

json allreduce_ask_to_json(const AllReduceAsk& a) {
  return {{"method", collective::to_string(a.run.method)},
          {"gpus", a.run.gpus},
          {"length", a.run.length},
          {"warmup", a.run.warmup},
          {"repeats", a.run.repeats},
          {"backend", to_string(a.backend)},
          {"link", a.link}};
}

AllReduceAsk allreduce_ask_from_json(const json& j) {
  if (!j.is_object()) throw std::runtime_error("allreduce request: not an object");
  AllReduceAsk a;
  const auto where = [](const char* key) { return std::string("allreduce request: field '") + key + "'"; };
  const auto has = [&](const char* key) { return j.contains(key) && !j.at(key).is_null(); };
  if (has("method")) {
    const std::string m = json_string(j["method"], where("method"));
    if (!collective::parse_method(m, a.run.method))
      throw std::runtime_error("allreduce request: unknown method '" + m +
                               "' (ring, tree, nccl_ring, nccl_tree, host_add or peer_to_gpu0)");
  }
  if (has("gpus")) a.run.gpus = int(json_int(j["gpus"], 0, collective::kMaxGpus, where("gpus")));
  if (has("length")) a.run.length = json_int(j["length"], 1, std::int64_t(1) << 30, where("length"));
  if (has("warmup")) a.run.warmup = int(json_int(j["warmup"], 0, 1000, where("warmup")));
  if (has("repeats")) a.run.repeats = int(json_int(j["repeats"], 1, 100000, where("repeats")));
  if (has("backend")) {
    const std::string b = json_string(j["backend"], where("backend"));
    if (!parse_backend(b, a.backend)) throw std::runtime_error("allreduce request: " + unknown_backend_message(b));
  }
  if (has("link")) {
    a.link = json_string(j["link"], where("link"));
    collective::LinkModel unused;
    if (!collective::link_model_by_name(a.link, unused))
      throw std::runtime_error("allreduce request: unknown link '" + a.link + "' (nvlink4 or pcie5)");
  }
  return a;
}

json allreduce_answer_to_json(const collective::AllReduceResult& r, int visible_gpus) {
  return {{"result", collective::allreduce_result_to_json(r)}, {"visible_gpus", visible_gpus}};
}

collective::AllReduceResult allreduce_answer_from_json(const json& j, int& visible_gpus) {
  if (!j.is_object() || !j.contains("result")) throw std::runtime_error("allreduce: no 'result' object");
  visible_gpus =
      j.contains("visible_gpus") ? int(json_int(j["visible_gpus"], 0, 1 << 20, "allreduce: field 'visible_gpus'")) : 0;
  try {
    return collective::allreduce_result_from_json(j["result"]);
  } catch (const std::exception& e) { throw std::runtime_error(std::string("allreduce: result: ") + e.what()); }
}

json hello_to_json(const WorkerHello& h) {
  return {{"type", "hello"},
          {"protocol", h.protocol},
          {"host", h.host},
          {"pid", h.pid},
          {"version", h.version},
          {"device", device_to_json(h.device)},
          {"backends", backend_names(h.backends)},
          {"capabilities", h.capabilities},
          {"visible_gpus", h.visible_gpus}};
}

WorkerHello hello_from_json(const json& j) {
  if (!j.is_object() || j.value("type", "") != "hello" || !j.contains("protocol") || !j["protocol"].is_number_integer())
    throw std::runtime_error("the first line is not a warpscope worker's hello");
  const char* what = "hello";
  WorkerHello h;
  h.protocol = j["protocol"].get<int>();
  h.host = field_or<std::string>(j, "host", "", what);
  h.pid = field_or<long>(j, "pid", 0, what);
  h.version = field_or<std::string>(j, "version", "", what);
  if (j.contains("device") && j["device"].is_object()) h.device = device_from_json(j["device"]);
  // Names this build does not know are left out: a newer worker may offer more backends.
  for (const std::string& name : field_or<std::vector<std::string>>(j, "backends", {}, what)) {
    BackendKind b;
    if (parse_backend(name, b)) h.backends.push_back(b);
  }
  h.capabilities = field_or<std::vector<std::string>>(j, "capabilities", {}, what);
  h.visible_gpus = field_or<int>(j, "visible_gpus", -1, what);
  return h;
}

json worker_response(std::int64_t id, const std::string& type, json body) {
  if (!body.is_object()) body = json::object();
  body["id"] = id >= 0 ? json(id) : json(nullptr);  // null: a line that was not a request
  body["type"] = type;
  return body;
}

json worker_error(std::int64_t id, const std::string& message) {
  return worker_response(id, "error", {{"message", one_line(message, 400)}});
}

json worker_faulted(std::int64_t id, const std::string& message) {
  return worker_response(id, "faulted", {{"message", one_line(message, 400)}});
}

std::string one_line(const std::string& text, std::size_t max) {
  std::string s = text.substr(0, text.find('\n'));
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::string clean;
  for (unsigned char c : s) clean += (c < 32 || c == 127) ? '?' : char(c);
  if (clean.size() > max) clean = clean.substr(0, max) + "...";
  return clean;
}

}  // namespace ws
