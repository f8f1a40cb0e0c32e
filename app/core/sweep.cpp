#include "sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <sstream>
#include <stdexcept>

#include "inputs.hpp"
#include "json_read.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "patterns.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "request.hpp"

namespace ws {

using nlohmann::json;

std::vector<const RunResult*> Sweep::runs_of(const std::string& variant) const {
  std::vector<const RunResult*> out;
  for (const auto& r : runs)
    if (r.variant == variant) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(),
                   [this](const RunResult* a, const RunResult* b) { return x_of(*a) < x_of(*b); });
  return out;
}

std::string sweep_refusal(const VariantInfo& v) {
  const PatternSpec& spec = pattern_of(v);
  return spec.sweep_refusal ? spec.sweep_refusal(v) : "";
}

bool is_filter_variant(const VariantInfo& v) { return v.atomics == AtomicsKind::Filter; }

/// The filters' ids in registry order, comma-separated: read from the registry, so a new filter is named
/// without an edit here.
std::string filter_variant_ids() {
  std::string ids;
  for (const VariantInfo& v : all_variants())
    if (is_filter_variant(v)) ids += (ids.empty() ? "" : ", ") + v.id;
  return ids;
}

std::string input_share_key(const VariantInfo& v, const RunRequest& req) {
  std::string kind = std::string("numbers|") + to_string(req.type);
  const PatternSpec& spec = pattern_of(v);
  if (v.rules.bytes_input)
    kind = "bytes";
  else if (std::string own = spec.input_key ? spec.input_key(v, req) : ""; !own.empty())
    kind = own;
  return kind + "|" + std::to_string(req.n) + "|" + req.input + "|" + std::to_string(req.seed);
}

double kept_fraction(const RunResult& r) {
  const VariantInfo* v = find_variant(r.variant);
  if (!v || !is_filter_variant(*v) || r.n <= 0) return -1;
  if (r.status == RunStatus::Error || r.status == RunStatus::Skipped || r.status == RunStatus::Unchecked)
    return -1;  // never checked: no reference count
  return r.expected / double(r.n);
}

std::string parse_keep_fractions(const std::string& text, std::vector<double>& out) {
  auto number = [](const std::string& part, double& x) {
    char* end = nullptr;
    x = std::strtod(part.c_str(), &end);
    return !part.empty() && end && *end == '\0' && std::isfinite(x);
  };
  auto bad = [&](const std::string& part) {
    return "kept fractions: '" + part +
           "' is not a number (give A:B:STEP such as 0:1:0.1, or a list such as 0.1,0.5,0.9)";
  };
  std::vector<double> xs;
  if (text.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream ss(text);
    for (std::string part; std::getline(ss, part, ':');) parts.push_back(part);
    if (parts.size() != 3) return "kept fractions '" + text + "': give A:B:STEP, e.g. 0:1:0.1";
    double a = 0, b = 0, step = 0;
    if (!number(parts[0], a)) return bad(parts[0]);
    if (!number(parts[1], b)) return bad(parts[1]);
    if (!number(parts[2], step)) return bad(parts[2]);
    if (!(step > 0)) return "kept fractions '" + text + "': the step must be > 0";
    if (b < a) return "kept fractions '" + text + "': A:B:STEP needs A <= B";
    const double count = std::floor((b - a) / step + 1e-9) + 1;
    if (count > kMaxKeepPoints)
      return "kept fractions '" + text + "': more than " + std::to_string(kMaxKeepPoints) + " points";
    for (int i = 0; i < int(count); ++i)
      xs.push_back(std::min(b, std::round((a + step * i) * 1e9) / 1e9));  // 0.3, not 0.30000000000000004
  } else {
    std::stringstream ss(text);
    for (std::string part; std::getline(ss, part, ',');) {
      double x = 0;
      if (!number(part, x)) return bad(part);
      xs.push_back(x);
    }
  }
  if (xs.empty()) return "kept fractions: none given (e.g. 0:1:0.1)";
  if (int(xs.size()) > kMaxKeepPoints) return "kept fractions: more than " + std::to_string(kMaxKeepPoints) + " points";
  for (double x : xs)
    if (!(x >= 0 && x <= 1)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%g", x);
      return std::string("kept fractions must lie in 0..1 (got ") + buf + ")";
    }
  out = std::move(xs);
  return "";
}

namespace {

/// The request of one sweep point: the spec's shared fields, n and (kept-fraction sweeps) the fraction.
RunRequest point_request(const SweepSpec& spec, const std::string& id, std::int64_t n, double keep) {
  RunRequest req;
  req.variant = id;
  req.n = n;
  req.type = spec.type;
  req.input = spec.input;
  req.seed = spec.seed;
  req.repeat = spec.repeat;
  req.backend = spec.backend;
  req.params = spec.params;
  req.params.output_path.clear();
  if (spec.by_keep()) req.params.keep_fraction = keep;
  return req;
}

}  // namespace

std::string validate_sweep(const SweepSpec& spec) {
  if (spec.variants.empty()) return "a sweep needs at least one variant";
  for (const auto& id : spec.variants) {
    const VariantInfo* v = find_variant(id);
    if (!v) return "unknown variant '" + id + "' (warpscope-cli list shows the ids)";
    if (std::string why = sweep_refusal(*v); !why.empty()) return why;
    if (spec.by_keep() && !is_filter_variant(*v))
      return "a kept-fraction sweep times filters: " + id + " is a " + std::string(to_string(v->pattern)) +
             " variant (the filters: " + filter_variant_ids() + ")";
  }
  if (spec.by_keep()) {
    if (spec.n < 1 || spec.n > kMaxN)
      return "a kept-fraction sweep needs 1 <= n <= 2^30 (got " + std::to_string(spec.n) + ")";
    if (int(spec.keep_fractions.size()) > kMaxKeepPoints)
      return "a kept-fraction sweep takes at most " + std::to_string(kMaxKeepPoints) + " fractions";
    for (double f : spec.keep_fractions)
      if (!(f >= 0 && f <= 1)) return "kept fractions must lie in 0..1 (got " + std::to_string(f) + ")";
    if (spec.input != "random")
      return "a kept-fraction sweep needs --input random (the fraction shapes the random values)";
  } else if (spec.from_log2 < kSweepMinLog2 || spec.to_log2 > kSweepMaxLog2 || spec.from_log2 > spec.to_log2) {
    return "sweep range must satisfy " + std::to_string(kSweepMinLog2) +
           " <= from <= to <= " + std::to_string(kSweepMaxLog2) + " (n = 2^from .. 2^to; got " +
           std::to_string(spec.from_log2) + ".." + std::to_string(spec.to_log2) + ")";
  }
  if (!is_generated_kind(spec.input)) return "sweep input must be random, ones or sequence (got '" + spec.input + "')";
  if (spec.backend == BackendKind::Cpu) return unknown_backend_message(to_string(spec.backend));
  if (spec.repeat < 1 || spec.repeat > 100000)
    return "repeat must be in 1..100000 (got " + std::to_string(spec.repeat) + ")";
  if (spec.params.width != 0 || spec.params.height != 0)
    return "a sweep sets n itself: leave --width and --height out (1-D convolutions: n is the signal length)";
  if (!(spec.params.keep_fraction >= 0 && spec.params.keep_fraction <= 1))
    return "--keep must be a fraction in 0..1 (got " + std::to_string(spec.params.keep_fraction) + ")";
  // The pattern options, checked once per variant at the first point (they do not depend on n).
  const std::int64_t n0 = spec.by_keep() ? spec.n : std::int64_t(1) << spec.from_log2;
  for (const auto& id : spec.variants) {
    const VariantInfo& v = *find_variant(id);
    if (std::string e = option_refusal(v, spec.params); !e.empty()) return e;
    if (v.rules.int_only && spec.type != DType::Int32) return int_only_refusal(v);
    if (v.rules.bytes_input && spec.type == DType::Float32)
      return id + " reads bytes: leave --type out (or int32) in a sweep with it";
    if (!v.rules.bytes_input && spec.type == DType::UInt8)
      return id + " takes int32 or float32; uint8 input is for the histograms";
    const PatternSpec& pattern = pattern_of(v);
    if (pattern.validate)
      if (std::string e = pattern.validate(v, point_request(spec, id, n0, spec.by_keep() ? spec.keep_fractions[0] : 0));
          !e.empty())
        return e;
  }
  return "";
}

Sweep run_sweep(const SweepSpec& spec, Backend* backend, const std::string& no_device_reason,
                const std::atomic<bool>* cancel, const std::function<void(const SweepProgress&)>& progress,
                std::string* error) {
  Sweep s;
  s.spec = spec;
  {
    std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    s.created = buf;
  }
  const std::string bad = validate_sweep(spec);
  if (error) *error = bad;
  if (!bad.empty()) return s;
  const int total = spec.total_runs();
  int done = 0;
  auto cancelled = [&] { return cancel && cancel->load(); };
  bool out_of_memory = false;  // larger points would need more: the sweep stops there, its points kept
  for (int point = 0; point < spec.points() && !cancelled() && !out_of_memory; ++point) {
    const std::int64_t n = spec.by_keep() ? spec.n : std::int64_t(1) << (spec.from_log2 + point);
    const double keep = spec.by_keep() ? spec.keep_fractions[std::size_t(point)] : spec.params.keep_fraction;
    // One input per kind of input at this point, shared by the variants that read it (input_share_key).
    std::map<std::string, PreparedRun> inputs;
    for (const auto& id : spec.variants) {
      if (cancelled() || out_of_memory) break;
      const RunRequest req = point_request(spec, id, n, keep);
      const VariantInfo& v = *find_variant(id);
      const PatternSpec& pattern = pattern_of(v);
      const DType type = v.rules.bytes_input  ? DType::UInt8
                         : pattern.input_type ? pattern.input_type(v, spec.type)
                                              : spec.type;
      LaunchConfig launch;
      std::string why = resolve_launch(v, n, type, req.launch, DeviceShape{}, launch);
      RunResult r;
      if (why.empty()) {
        const std::string key = input_share_key(v, req);
        auto it = inputs.find(key);
        // A point that throws (std::bad_alloc at a large n) becomes an error run; the points before it stay.
        try {
          if (it == inputs.end()) {
            PreparedRun p;
            if (std::string err = prepare_run(req, p); !err.empty()) {
              r = execute(req, backend, no_device_reason);  // the same error, as a run (status "error")
            } else {
              it = inputs.emplace(key, std::move(p)).first;
            }
          }
          if (it != inputs.end()) {
            PreparedRun& p = it->second;  // lent to this variant: its input stays for the next one
            p.variant = &v;
            p.launch = launch;
            p.launch.grid = 0;  // the backend fills in the device default
            r = execute_prepared(req, p, backend, no_device_reason);
            p.input_ms = 0;  // the next variant on this input did not wait for it
          }
        } catch (const std::exception& e) {
          inputs.clear();  // give back what this point holds
          r = RunResult{};
          r.variant = id;
          r.lesson = v.lesson;
          r.backend = spec.backend;
          r.n = n;
          r.type = type;
          r.input = spec.input;
          r.seed = spec.seed;
          r.status = RunStatus::Error;
          r.message = describe_exception(e, estimate_run_host_bytes(v, n, type));
          out_of_memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
        }
      } else {
        r.variant = id;
        r.lesson = v.lesson;
        r.backend = spec.backend;
        r.n = n;
        r.type = type;
        r.input = spec.input;
        r.seed = spec.seed;
        r.params = req.params;
        r.status = RunStatus::Skipped;  // this size breaks the variant's launch rules: not a failure
        r.message = why;
      }
      r.params = params_as_run(v, req.params);  // x of kept-fraction sweeps, and the options the point ran with
      r.output.clear();
      r.output.shrink_to_fit();
      r.output_rows = r.output_cols = 0;
      s.runs.push_back(std::move(r));
      ++done;
      if (progress) progress(SweepProgress{done, total, &s.runs.back()});
    }
  }
  s.cancelled = done < total;
  return s;
}

json sweep_to_json(const Sweep& s) {
  json j;
  j["title"] = s.title;
  j["created"] = s.created;
  j["variants"] = s.spec.variants;
  j["from_log2"] = s.spec.from_log2;
  j["to_log2"] = s.spec.to_log2;
  j["type"] = to_string(s.spec.type);
  j["input"] = s.spec.input;
  j["seed"] = s.spec.seed;
  j["repeat"] = s.spec.repeat;
  j["backend"] = to_string(s.spec.backend);
  j["cancelled"] = s.cancelled;
  // The options some variant of the sweep reads (a sweep of reductions reads none).
  json params = json::object();
  for (const auto& id : s.spec.variants) params.update(params_to_json(id, s.spec.params));
  if (!params.empty()) j["params"] = std::move(params);
  if (s.spec.by_keep()) {
    j["n"] = s.spec.n;
    j["keep_fractions"] = s.spec.keep_fractions;
  }
  j["runs"] = json::array();
  for (const auto& r : s.runs) {
    json run = run_to_json(r);
    // Sweep runs hold no output array, so run_to_json leaves their params out: the ones the variant reads
    // (the kept fraction is the x of a kept-fraction sweep; a filter that kept nothing has no output even in
    // `run`).
    if (!run.contains("params"))
      if (json own = params_to_json(r.variant, r.params); !own.empty()) run["params"] = std::move(own);
    j["runs"].push_back(std::move(run));
  }
  return j;
}

Sweep sweep_from_json(const json& j) {
  if (!j.is_object()) throw std::runtime_error("sweep: not an object");
  auto need = [&](const char* key) -> const json& {
    if (!j.contains(key)) throw std::runtime_error(std::string("sweep: missing field '") + key + "'");
    return j.at(key);
  };
  Sweep s;
  try {
    s.title = j.value("title", std::string());
    s.created = j.value("created", std::string());
    s.spec.variants = need("variants").get<std::vector<std::string>>();
    s.spec.from_log2 = int(json_int(need("from_log2"), 0, 30, "sweep: field 'from_log2'"));
    s.spec.to_log2 = int(json_int(need("to_log2"), 0, 30, "sweep: field 'to_log2'"));
    if (!parse_dtype(j.value("type", std::string("int32")), s.spec.type))
      throw std::runtime_error("sweep: unknown type");
    s.spec.input = j.value("input", std::string("random"));
    s.spec.seed = j.value("seed", std::uint64_t(1));
    s.spec.repeat = j.value("repeat", 10);
    const std::string backend = j.value("backend", std::string("cuda"));
    if (!parse_backend(backend, s.spec.backend)) throw std::runtime_error("sweep: " + unknown_backend_message(backend));
    s.cancelled = j.value("cancelled", false);
    if (j.contains("params")) {  // sweeps written before the array patterns have none: the defaults
      const json& p = j.at("params");
      if (!p.is_object()) throw std::runtime_error("sweep: 'params' must be an object");
      s.spec.params.exclusive = p.value("exclusive", false);
      s.spec.params.mask_width = p.value("mask_width", 5);
      s.spec.params.tile = p.value("tile", 0);
      s.spec.params.mask = p.value("mask", std::string("box"));
      s.spec.params.keep_fraction = p.value("keep_fraction", 0.5);
    }
    if (j.contains("keep_fractions")) {
      const json& kf = j.at("keep_fractions");
      if (!kf.is_array() || kf.empty() || kf.size() > 10000)
        throw std::runtime_error("sweep: field 'keep_fractions' must be an array of 1..10000 fractions");
      for (const json& f : kf)
        s.spec.keep_fractions.push_back(json_number(f, 0, 1, "sweep: an entry of 'keep_fractions'"));
      s.spec.n = json_int(need("n"), 1, kMaxN, "sweep: field 'n'");
      // Only filters have a fraction kept: any other variant drawn against it would be a made-up plot.
      for (const std::string& id : s.spec.variants)
        if (const VariantInfo* v = find_variant(id); v && !is_filter_variant(*v))
          throw std::runtime_error("sweep: 'keep_fractions' sweeps filters, but it lists " + id + " (a " +
                                   std::string(to_string(v->pattern)) + ")");
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("sweep: a field has the wrong type (") + e.what() + ")");
  }
  const json& runs = need("runs");
  if (!runs.is_array()) throw std::runtime_error("sweep: 'runs' must be an array");
  std::size_t i = 0;
  for (const auto& run : runs) {
    try {
      s.runs.push_back(run_from_json(run));
    } catch (const std::exception& e) { throw std::runtime_error("sweep: run " + std::to_string(i) + ": " + e.what()); }
    ++i;
  }
  return s;
}

}  // namespace ws
