#include "report.hpp"

#include "file_write.hpp"
#include "json_read.hpp"
#include "limits.hpp"
#include "patterns.hpp"
#include "registry.hpp"
#include "report_text.hpp"
#include "sweep.hpp"
#include "trace/trace_store.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "types.hpp"

#include "version.hpp"

namespace ws {

using nlohmann::json;

namespace {

template <typename T>
T get(const json& j, const char* key, const char* what) {
  if (!j.is_object() || !j.contains(key)) throw std::runtime_error(std::string(what) + ": missing field '" + key + "'");
  return json_as<T>(j.at(key), std::string(what) + ": field '" + key + "'");
}

/// An optional field: `fallback` when absent or null, else it must have type T (the message names it).
template <typename T>
T get_or(const json& j, const char* key, T fallback, const char* what = "report") {
  if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return fallback;
  return json_as<T>(j.at(key), std::string(what) + ": field '" + key + "'");
}

/// An integer field in [lo, hi] (json_int: 1.5 and 1e30 refused); `fallback` when absent or null.
std::int64_t int_field(const json& j, const char* key, std::int64_t lo, std::int64_t hi, std::int64_t fallback,
                       const char* what, bool required = false) {
  if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) {
    if (required) throw std::runtime_error(std::string(what) + ": missing field '" + key + "'");
    return fallback;
  }
  return json_int(j.at(key), lo, hi, std::string(what) + ": field '" + key + "'");
}

/// A finite number field in [lo, hi]; `fallback` when absent or null.
double number_field(const json& j, const char* key, double lo, double hi, double fallback, const char* what) {
  if (!j.is_object() || !j.contains(key) || j.at(key).is_null()) return fallback;
  return json_number(j.at(key), lo, hi, std::string(what) + ": field '" + key + "'");
}

// Bounds of a run's stored numbers: no run moves more than a petabyte or lasts more than a day.
constexpr double kMaxRunBytes = 1e15;
constexpr double kMaxRunMs = 86400e3;
// And none is shorter than a clock can tell: CUDA events resolve about 0.5 us (the least a recorded
// report holds is 150 ns; synthetic test reports go down to 88 ns), so 10 ns is a safe floor; a host
// clock a nanosecond. 1e-300 ms would draw as 10^309 GB/s.
constexpr double kMinGpuRunMs = 1e-5;
constexpr double kMinHostRunMs = 1e-6;

json number_or_null(bool has, double v) { return has && std::isfinite(v) ? json(v) : json(nullptr); }

json element(DType t, double v) {
  return t == DType::Int32 && std::isfinite(v) ? json(std::int64_t(v)) : number_or_null(true, v);
}

/// Array patterns (docs/patterns.md): output_rows/cols always, `output` (2D as rows) when it has at most
/// kMaxJsonOutput elements.
void output_to_json(const RunResult& r, json& j) {
  if (r.output.empty() && r.output_rows == 0 && r.output_cols == 0) return;
  if (json params = params_to_json(r.variant, r.params); !params.empty()) j["params"] = std::move(params);
  j["output_rows"] = r.output_rows;
  j["output_cols"] = r.output_cols;
  if (r.output.size() > kMaxJsonOutput) return;
  json out = json::array();
  if (r.output_rows > 0 && r.output_cols > 0) {
    for (std::int64_t y = 0; y < r.output_rows; ++y) {
      json row = json::array();
      for (std::int64_t x = 0; x < r.output_cols && std::size_t(y * r.output_cols + x) < r.output.size(); ++x)
        row.push_back(element(r.type, r.output[std::size_t(y * r.output_cols + x)]));
      out.push_back(std::move(row));
    }
  } else {
    for (double v : r.output) out.push_back(element(r.type, v));
  }
  j["output"] = std::move(out);
}

void output_from_json(const json& j, RunResult& r) {
  if (j.contains("params") && j["params"].is_object()) r.params = params_from_json(j["params"]);
  r.output_rows = get_or<std::int64_t>(j, "output_rows", 0);
  r.output_cols = get_or<std::int64_t>(j, "output_cols", 0);
  if (!j.contains("output") || !j["output"].is_array()) return;
  for (const auto& e : j["output"]) {
    if (e.is_array()) {
      for (const auto& x : e) r.output.push_back(x.is_null() ? std::nan("") : x.get<double>());
    } else {
      r.output.push_back(e.is_null() ? std::nan("") : e.get<double>());
    }
  }
}

}  // namespace

json params_to_json(const PatternParams& p) {
  return {{"exclusive", p.exclusive},
          {"mask_width", p.mask_width},
          {"tile", p.tile},
          {"width", p.width},
          {"height", p.height},
          {"mask", p.mask},
          {"keep_fraction", p.keep_fraction}};
}

json params_to_json(const std::string& variant, const PatternParams& p) {
  const VariantInfo* v = find_variant(variant);
  if (!v) return params_to_json(p);
  const unsigned options = pattern_of(*v).options;
  json j = json::object();
  if (options & kOptionExclusive) j["exclusive"] = p.exclusive;
  if (options & kOptionImage) {
    j["mask_width"] = p.mask_width;
    j["tile"] = p.tile;
    j["mask"] = p.mask;
    if (conv_kind_is_2d(v->conv)) j["width"] = p.width, j["height"] = p.height;
  }
  if ((options & kOptionKeep) && is_filter_variant(*v)) j["keep_fraction"] = p.keep_fraction;
  return j;
}

PatternParams params_from_json(const json& p) {
  PatternParams out;
  out.exclusive = get_or<bool>(p, "exclusive", false);
  out.mask_width = get_or<int>(p, "mask_width", 5);
  out.tile = get_or<int>(p, "tile", 0);
  out.width = get_or<std::int64_t>(p, "width", 0);
  out.height = get_or<std::int64_t>(p, "height", 0);
  out.mask = get_or<std::string>(p, "mask", "box");
  out.keep_fraction = get_or<double>(p, "keep_fraction", 0.5);
  return out;
}

json metrics_to_json(const KernelMetrics& m) {
  json j;
  j["asked"] = m.asked;
  j["collected"] = m.collected;
  j["error"] = m.error;
  j["passes"] = m.passes;
  j["profile_ms"] = m.profile_ms;
  json values = json::object();
  for (const auto& [k, v] : m.values)
    if (std::isfinite(v)) values[k] = v;
  j["values"] = values;
  j["warnings"] = m.warnings;
  j["kernel"] = m.kernel;
  j["occupancy_limiter"] = m.occupancy_limiter;
  json lines = json::array();
  for (const auto& l : m.lines)
    lines.push_back({{"file", l.file},
                     {"line", l.line},
                     {"warp_instructions", l.warp_instructions},
                     {"thread_instructions", l.thread_instructions},
                     {"lanes_per_instruction", l.lanes_per_instruction()},
                     {"shared_loads", l.shared_loads},
                     {"shared_stores", l.shared_stores},
                     {"shared_atomics", l.shared_atomics},
                     {"shared_wavefronts", l.shared_wavefronts},
                     {"wavefronts_per_shared_instruction", l.wavefronts_per_shared_instruction()},
                     {"bank_conflicts", l.bank_conflicts()},
                     {"global_loads", l.global_loads},
                     {"global_stores", l.global_stores},
                     {"global_atomics", l.global_atomics},
                     {"global_sectors", l.global_sectors},
                     {"sectors_per_request", l.sectors_per_request()}});
  j["lines"] = lines;
  if (m.pc_sampling.collected) j["pc_sampling"] = pc_sampling_to_json(m.pc_sampling);
  return j;
}

KernelMetrics metrics_from_json(const json& j) {
  const char* what = "run metrics";
  if (!j.is_object()) throw std::runtime_error("run metrics: not an object");
  KernelMetrics m;
  m.asked = get_or<std::string>(j, "asked", "");
  m.collected = get_or<bool>(j, "collected", false);
  m.error = get_or<std::string>(j, "error", "");
  m.passes = get_or<int>(j, "passes", 0);
  m.profile_ms = get_or<double>(j, "profile_ms", 0);
  m.values = get_or<std::map<std::string, double>>(j, "values", {});
  m.warnings = get_or<std::vector<std::string>>(j, "warnings", {});
  m.kernel = get_or<std::string>(j, "kernel", "");
  m.occupancy_limiter = get_or<std::string>(j, "occupancy_limiter", "");
  if (j.contains("lines") && j["lines"].is_array())
    for (const auto& l : j["lines"]) {
      LineMetrics x;
      x.file = get<std::string>(l, "file", what);
      x.line = get<int>(l, "line", what);
      x.warp_instructions = get<double>(l, "warp_instructions", what);
      x.thread_instructions = get<double>(l, "thread_instructions", what);
      // The memory counters came later: reports without them read as 0 (not counted).
      x.shared_loads = get_or<double>(l, "shared_loads", 0);
      x.shared_stores = get_or<double>(l, "shared_stores", 0);
      x.shared_atomics = get_or<double>(l, "shared_atomics", 0);
      x.shared_wavefronts = get_or<double>(l, "shared_wavefronts", 0);
      x.global_loads = get_or<double>(l, "global_loads", 0);
      x.global_stores = get_or<double>(l, "global_stores", 0);
      x.global_atomics = get_or<double>(l, "global_atomics", 0);
      x.global_sectors = get_or<double>(l, "global_sectors", 0);
      m.lines.push_back(x);
    }
  if (j.contains("pc_sampling")) m.pc_sampling = pc_sampling_from_json(j["pc_sampling"]);
  return m;
}

json run_to_json(const RunResult& r) {
  json j;
  j["variant"] = r.variant;
  j["lesson"] = r.lesson;
  j["backend"] = to_string(r.backend);
  j["device"] = r.device;
  j["n"] = r.n;
  j["type"] = to_string(r.type);
  j["input"] = r.input;
  j["seed"] = r.seed;
  // Values that do not exist are null, never 0: a skipped run has no launch and no result; a CPU
  // variant has no launch.
  j["block"] = r.launch.block > 0 ? json(r.launch.block) : json(nullptr);
  j["grid"] = r.launch.grid > 0 ? json(r.launch.grid) : json(nullptr);
  const bool no_result = r.status == RunStatus::Error || r.status == RunStatus::Skipped;
  j["result"] = no_result ? json(nullptr) : json(r.result);
  j["expected"] = no_result ? json(nullptr) : json(r.expected);
  j["correct"] = r.correct;
  j["status"] = to_string(r.status);
  j["message"] = r.message;
  if (!r.code_path.empty()) j["code_path"] = r.code_path;
  j["racy"] = r.racy;
  j["cautionary"] = r.cautionary;
  j["launches"] = r.launches;
  j["bytes"] = r.bytes;
  j["time_ms"] = number_or_null(r.timed, r.timing.median_ms);
  j["time_min_ms"] = number_or_null(r.timed, r.timing.min_ms);
  j["time_max_ms"] = number_or_null(r.timed, r.timing.max_ms);
  j["times_ms"] = r.timed ? json(r.timing.samples_ms) : json::array();
  j["gbps"] = number_or_null(r.timed, r.gbps);
  j["pct_theoretical"] = number_or_null(r.timed && r.pct_theoretical > 0, r.pct_theoretical);
  j["pct_copy"] = number_or_null(r.timed && r.pct_copy > 0, r.pct_copy);
  output_to_json(r, j);
  if (!r.metrics.asked.empty() || r.metrics.collected || !r.metrics.error.empty())
    j["metrics"] = metrics_to_json(r.metrics);
  if (r.host_ms.recorded()) {
    json h = json::object();
    for (const auto& [name, ms] : r.host_ms.phases()) h[name] = ms;
    j["host_ms"] = h;
  }
  if (r.sanitizer.present) j["sanitizer"] = sanitizer_to_json(r.sanitizer);
  return j;
}

RunResult run_from_json(const json& j) {
  const char* what = "run";
  RunResult r;
  r.variant = get<std::string>(j, "variant", what);
  r.lesson = get_or<std::string>(j, "lesson", "");
  const std::string backend = get<std::string>(j, "backend", what);
  if (!parse_backend(backend, r.backend))
    throw std::runtime_error("run: unknown backend '" + backend + "' (cuda, sim or cpu)");
  r.device = get_or<std::string>(j, "device", "");
  if (!j.is_object()) throw std::runtime_error("run: not an object");
  r.n = int_field(j, "n", 0, kMaxN, 0, what, true);
  if (!parse_dtype(get<std::string>(j, "type", what), r.type)) throw std::runtime_error("run: unknown type");
  r.input = get_or<std::string>(j, "input", "", what);
  r.seed = get_or<std::uint64_t>(j, "seed", 1, what);
  r.launch.block = int(int_field(j, "block", 0, 1024, 0, what));
  r.launch.grid = int_field(j, "grid", 0, INT64_MAX, 0, what);
  r.result = get_or<double>(j, "result", 0, what);
  r.expected = get_or<double>(j, "expected", 0, what);
  r.correct = get<bool>(j, "correct", what);
  const std::string status = get<std::string>(j, "status", what);
  if (!parse_run_status(status, r.status))
    throw std::runtime_error("run: unknown status '" + status +
                             "' (ok, wrong, race, slide-bug, error, faulted, skipped, done)");
  r.message = get_or<std::string>(j, "message", "", what);
  r.code_path = get_or<std::string>(j, "code_path", "", what);
  r.racy = get_or<bool>(j, "racy", false, what);
  r.cautionary = get_or<bool>(j, "cautionary", false, what);
  r.launches = int(int_field(j, "launches", 0, 1 << 30, 0, what));
  r.bytes = number_field(j, "bytes", 0, kMaxRunBytes, 0, what);
  r.timed = j.contains("time_ms") && !j["time_ms"].is_null();
  if (r.timed) {
    // A stored time is a measurement: finite, no shorter than its clock resolves, min <= median <= max.
    const double least = r.backend == BackendKind::Cuda ? kMinGpuRunMs : kMinHostRunMs;
    r.timing.median_ms = json_number(j["time_ms"], least, kMaxRunMs, "run: field 'time_ms'");
    r.timing.min_ms = number_field(j, "time_min_ms", least, kMaxRunMs, r.timing.median_ms, what);
    r.timing.max_ms = number_field(j, "time_max_ms", least, kMaxRunMs, r.timing.median_ms, what);
    if (r.timing.min_ms > r.timing.median_ms || r.timing.max_ms < r.timing.median_ms)
      throw std::runtime_error("run: time_min_ms <= time_ms <= time_max_ms does not hold");
    if (j.contains("times_ms") && !j["times_ms"].is_null()) {
      if (!j["times_ms"].is_array() || j["times_ms"].size() > 100000)
        throw std::runtime_error("run: field 'times_ms' must be an array of at most 100000 times");
      for (const auto& t : j["times_ms"])
        r.timing.samples_ms.push_back(json_number(t, least, kMaxRunMs, "run: an entry of 'times_ms'"));
    }
  }
  // Derived numbers are recomputed from what they derive from (report_from_json: % of peak from the
  // device); a stored GB/s beside its bytes and time would be a second, possibly contradicting, truth.
  (void)number_field(j, "gbps", 0, 1e300, 0, what);
  r.gbps = r.timed && r.bytes > 0 ? r.bytes / (r.timing.median_ms * 1e6) : 0;
  r.pct_theoretical = number_field(j, "pct_theoretical", 0, 1e300, 0, what);  // > 0: recomputed with the device
  r.pct_copy = number_field(j, "pct_copy", 0, 1e300, 0, what);
  // Correctness derives from result and expected: a run marked correct whose numbers disagree (within the
  // float tolerance of the check) is shown as wrong, with the reason.
  if (r.correct && r.status == RunStatus::Ok) {
    ArrayOutput got, want;
    got.values = {r.result};
    want.values = {r.expected};
    if (const std::string mismatch = compare_outputs(r.type, got, want); !mismatch.empty()) {
      r.correct = false;
      r.status = RunStatus::Wrong;
      char buf[160];
      std::snprintf(buf, sizeof buf, "the report marks this run correct, but its result %.9g differs from %.9g",
                    r.result, r.expected);
      r.message = buf;
    }
  }
  output_from_json(j, r);
  if (j.contains("metrics") && !j["metrics"].is_null()) r.metrics = metrics_from_json(j["metrics"]);
  if (j.contains("sanitizer") && !j["sanitizer"].is_null()) r.sanitizer = sanitizer_from_json(j["sanitizer"]);
  if (j.contains("host_ms") && j["host_ms"].is_object()) {  // optional: reports written before it load without
    const json& h = j["host_ms"];
    auto phase = [&](const char* name) {
      if (!h.contains(name) || h[name].is_null()) return 0.0;
      if (!h[name].is_number())
        throw std::runtime_error(std::string("run host_ms: field '") + name + "' is not a number");
      return h[name].get<double>();
    };
    HostTimes& t = r.host_ms;
    t.input = phase("input");
    t.upload = phase("upload");
    t.launches = phase("launches");
    t.model = phase("model");
    t.download = phase("download");
    t.reference = phase("reference");
    t.check = phase("check");
    t.metrics = phase("metrics");
    t.total = phase("total");
  }
  return r;
}

json device_to_json(const DeviceInfo& d) {
  json j;
  j["available"] = d.available;
  j["name"] = d.name;
  j["cc"] = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
  j["sm_count"] = d.sm_count;
  j["max_threads_per_sm"] = d.max_threads_per_sm;
  j["memory_gib"] = d.memory_gib;
  j["mem_clock_mhz"] = d.mem_clock_mhz;
  if (d.sm_clock_mhz > 0) j["sm_clock_mhz"] = d.sm_clock_mhz;
  j["bus_width_bits"] = d.bus_width_bits;
  // A device without DRAM (the sim model) has no bandwidth: null, not 0.
  j["theoretical_gbps"] = number_or_null(d.theoretical_gbps > 0, d.theoretical_gbps);
  j["copy_gbps"] = number_or_null(d.copy_gbps > 0, d.copy_gbps);
  j["driver"] = d.driver;
  j["runtime"] = d.runtime;
  if (!d.error.empty()) j["error"] = d.error;
  if (d.context_lost) j["context_lost"] = true;  // only then: a working device's JSON is as before
  return j;
}

DeviceInfo device_from_json(const json& j) {
  DeviceInfo d;
  d.available = get_or<bool>(j, "available", false);
  d.name = get_or<std::string>(j, "name", "");
  std::string cc = get_or<std::string>(j, "cc", "0.0");
  if (auto dot = cc.find('.'); dot != std::string::npos) {
    d.cc_major = std::atoi(cc.substr(0, dot).c_str());
    d.cc_minor = std::atoi(cc.substr(dot + 1).c_str());
  }
  d.sm_count = int(int_field(j, "sm_count", 0, 100000, 0, "device"));
  d.max_threads_per_sm = int(int_field(j, "max_threads_per_sm", 0, 1 << 20, 0, "device"));
  d.memory_gib = number_field(j, "memory_gib", 0, 1e6, 0, "device");
  d.mem_clock_mhz = get_or<double>(j, "mem_clock_mhz", 0);
  d.sm_clock_mhz = number_field(j, "sm_clock_mhz", 0, 1e5, 0, "device");
  d.bus_width_bits = int(int_field(j, "bus_width_bits", 0, 1 << 20, 0, "device"));
  d.theoretical_gbps = number_field(j, "theoretical_gbps", 0, 1e7, 0, "device");
  d.copy_gbps = number_field(j, "copy_gbps", 0, 1e7, 0, "device");
  d.driver = get_or<std::string>(j, "driver", "");
  d.runtime = get_or<std::string>(j, "runtime", "");
  d.error = get_or<std::string>(j, "error", "");
  d.context_lost = get_or<bool>(j, "context_lost", false);
  return d;
}

json report_to_json(const Report& r) {
  json j;
  j["format"] = "warpscope-report";
  j["version"] = kReportVersion;
  j["created"] = r.created;
  j["title"] = r.title;
  j["build"] = {{"version", r.build_version},
                {"git", r.build_git},
                {"cuda_runtime", r.build_cuda_runtime},
                {"compiler", r.build_compiler}};
  j["device"] = device_to_json(r.device);
  j["runs"] = json::array();
  for (const auto& run : r.runs) j["runs"].push_back(run_to_json(run));
  if (!r.sweeps.empty()) {
    j["sweeps"] = json::array();
    for (const auto& s : r.sweeps) j["sweeps"].push_back(sweep_to_json(s));
  }
  if (!r.traces.empty()) {
    j["traces"] = json::array();
    for (const auto& t : r.traces) j["traces"].push_back(trace_to_store_json(t));
  }
  return j;
}

const JsonBounds& report_json_bounds() {
  // The fields report_from_json, run_from_json, sweep_from_json and trace_from_store_json read; any
  // other key of those objects is skipped while parsing. (Objects deeper down keep their keys: metric
  // values and host_ms phases are maps.)
  static const JsonBounds b = [] {
    JsonBounds x;
    const std::set<std::string> run = {"variant",     "lesson",
                                       "backend",     "device",
                                       "n",           "type",
                                       "input",       "seed",
                                       "block",       "grid",
                                       "result",      "expected",
                                       "correct",     "status",
                                       "message",     "code_path",
                                       "racy",        "cautionary",
                                       "launches",    "bytes",
                                       "time_ms",     "time_min_ms",
                                       "time_max_ms", "times_ms",
                                       "gbps",        "pct_theoretical",
                                       "pct_copy",    "params",
                                       "output_rows", "output_cols",
                                       "output",      "metrics",
                                       "sanitizer",   "host_ms"};
    x.known_keys[""] = {"format", "version", "created", "title", "build", "device", "runs", "sweeps", "traces"};
    x.known_keys[".runs[]"] = run;
    x.known_keys[".sweeps[].runs[]"] = run;
    x.known_keys[".sweeps[]"] = {"title",   "created", "backend",        "variants",  "from_log2",
                                 "to_log2", "n",       "type",           "input",     "seed",
                                 "repeat",  "params",  "keep_fractions", "cancelled", "runs"};
    x.known_keys[".traces[]"] = {
        "variant",          "source",      "n",    "type",       "block",        "grid",         "block_index",
        "block_size",       "input",       "seed", "racy_model", "interleaving", "block_result", "compared_with_model",
        "model_difference", "source_file", "steps"};
    return x;
  }();
  return b;
}

json parse_report_text(const std::string& text, const std::string& what) {
  return parse_json_bounded(text, what, report_json_bounds());
}

Report report_from_json(const json& j) {
  if (!j.is_object() || get_or<std::string>(j, "format", "") != "warpscope-report")
    throw std::runtime_error("not a warpscope report (missing \"format\": \"warpscope-report\")");
  if (!j.contains("version")) throw std::runtime_error("report: missing field 'version'");
  if (!j["version"].is_number_integer() || j["version"].get<std::int64_t>() < 1)
    throw std::runtime_error("report: field 'version' must be a positive integer (got " + j["version"].dump() + ")");
  if (j["version"].get<std::int64_t>() > kReportVersion)
    throw std::runtime_error("report version " + j["version"].dump() + " is newer than this build reads (" +
                             std::to_string(kReportVersion) + ")");
  Report r;
  r.created = get_or<std::string>(j, "created", "");
  r.title = get_or<std::string>(j, "title", "");
  if (j.contains("build") && j["build"].is_object()) {
    const json& b = j["build"];
    r.build_version = get_or<std::string>(b, "version", "");
    r.build_git = get_or<std::string>(b, "git", "");
    r.build_cuda_runtime = get_or<std::string>(b, "cuda_runtime", "");
    r.build_compiler = get_or<std::string>(b, "compiler", "");
  }
  if (j.contains("device") && j["device"].is_object()) r.device = device_from_json(j["device"]);
  if (!j.contains("runs") || !j["runs"].is_array()) throw std::runtime_error("report: 'runs' must be an array");
  const auto cap = [](const json& a, std::size_t most, const std::string& what) {
    if (a.is_array() && a.size() > most)
      throw std::runtime_error("report: " + what + " holds " + std::to_string(a.size()) + " entries, more than the " +
                               std::to_string(most) + " a report may hold");
  };
  cap(j["runs"], kMaxReportRuns, "'runs'");
  if (j.contains("sweeps")) {
    cap(j["sweeps"], kMaxReportSweeps, "'sweeps'");
    if (j["sweeps"].is_array())
      for (std::size_t k = 0; k < j["sweeps"].size(); ++k)
        if (j["sweeps"][k].is_object() && j["sweeps"][k].contains("runs"))
          cap(j["sweeps"][k]["runs"], kMaxSweepRuns, "sweep " + std::to_string(k) + "'s 'runs'");
  }
  if (j.contains("traces")) cap(j["traces"], kMaxReportTraces, "'traces'");
  std::size_t i = 0;
  for (const auto& run : j["runs"]) {
    try {
      r.runs.push_back(run_from_json(run));
    } catch (const std::exception& e) {
      throw std::runtime_error("report: run " + std::to_string(i) + ": " + e.what());
    }
    ++i;
  }
  if (j.contains("sweeps") && !j["sweeps"].is_null()) {
    if (!j["sweeps"].is_array()) throw std::runtime_error("report: 'sweeps' must be an array");
    std::size_t k = 0;
    for (const auto& s : j["sweeps"]) {
      try {
        r.sweeps.push_back(sweep_from_json(s));
      } catch (const std::exception& e) {
        throw std::runtime_error("report: sweep " + std::to_string(k) + ": " + e.what());
      }
      ++k;
    }
  }
  // % of peak derives from GB/s and the device's bandwidths: recomputed, present where it was stored.
  const auto derive = [&](RunResult& run) {
    const double theo = r.device.theoretical_gbps, copy = r.device.copy_gbps;
    run.pct_theoretical = run.pct_theoretical > 0 && theo > 0 && run.gbps > 0 ? 100.0 * run.gbps / theo : 0;
    run.pct_copy = run.pct_copy > 0 && copy > 0 && run.gbps > 0 ? 100.0 * run.gbps / copy : 0;
  };
  for (RunResult& run : r.runs) derive(run);
  for (Sweep& sw : r.sweeps)
    for (RunResult& run : sw.runs) derive(run);
  if (j.contains("traces")) {
    if (!j["traces"].is_array()) throw std::runtime_error("report: 'traces' must be an array");
    std::size_t k = 0;
    for (const auto& t : j["traces"]) {
      try {
        r.traces.push_back(trace_from_store_json(t));
      } catch (const std::exception& e) {
        throw std::runtime_error("report: trace " + std::to_string(k) + ": " + e.what());
      }
      ++k;
    }
  }
  return r;
}

Report new_report(const std::string& title, const DeviceInfo& device) {
  Report r;
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  r.created = buf;
  r.title = title;
  r.build_version = WS_VERSION;
  r.build_git = WS_GIT_REV;
  r.build_cuda_runtime = device.runtime;
#if defined(__VERSION__)
  r.build_compiler = std::string("g++ ") + __VERSION__;
#endif
  r.device = device;
  return r;
}

void save_report(const Report& r, const std::string& path, const OutputPolicy& policy) {
  // Indented for reading, except reports holding traces (thousands of ops): compact, 4x smaller.
  const std::string text = dump_json_text(report_to_json(r), r.traces.empty() ? 2 : -1) + "\n";
  if (std::string err = write_file_atomic(path, text, policy); !err.empty()) throw std::runtime_error("report: " + err);
}

Report load_report(const std::string& path) {
  // Size and kind first: `--report /dev/zero` or a directory must not be read until memory runs out.
  std::string text;
  if (std::string err = read_file_bounded(path, kMaxReportFileBytes, "report", text); !err.empty())
    throw std::runtime_error(err);
  const json j = parse_report_text(text, "report '" + path + "'");
  try {
    return report_from_json(j);
  } catch (const std::exception& e) { throw std::runtime_error("report '" + path + "': " + e.what()); }
}

}  // namespace ws
