#include "sweep.hpp"

#include <algorithm>
#include <ctime>
#include <stdexcept>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "request.hpp"

namespace ws {

using nlohmann::json;

std::vector<const RunResult*> Sweep::runs_of(const std::string& variant) const {
  std::vector<const RunResult*> out;
  for (const auto& r : runs)
    if (r.variant == variant) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(), [](const RunResult* a, const RunResult* b) { return a->n < b->n; });
  return out;
}

std::string validate_sweep(const SweepSpec& spec) {
  if (spec.variants.empty()) return "a sweep needs at least one variant";
  for (const auto& id : spec.variants) {
    const VariantInfo* v = find_variant(id);
    if (!v) return "unknown variant '" + id + "' (warpscope-cli list shows the ids)";
    // Sweeps time reductions (one generated input, n elements read); other patterns build their inputs
    // and count their bytes differently.
    if (v->pattern != "reduction") return "sweeps cover reductions: " + id + " is a " + v->pattern + " variant (try --variants reduction)";
  }
  if (spec.from_log2 < kSweepMinLog2 || spec.to_log2 > kSweepMaxLog2 || spec.from_log2 > spec.to_log2)
    return "sweep range must satisfy " + std::to_string(kSweepMinLog2) + " <= from <= to <= " +
           std::to_string(kSweepMaxLog2) + " (n = 2^from .. 2^to; got " + std::to_string(spec.from_log2) + ".." +
           std::to_string(spec.to_log2) + ")";
  if (!is_generated_kind(spec.input)) return "sweep input must be random, ones or sequence (got '" + spec.input + "')";
  if (spec.backend != "cuda" && spec.backend != "sim") return "unknown backend '" + spec.backend + "' (use cuda or sim)";
  if (spec.repeat < 1 || spec.repeat > 100000) return "repeat must be in 1..100000 (got " + std::to_string(spec.repeat) + ")";
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
  for (int k = spec.from_log2; k <= spec.to_log2 && !cancelled(); ++k) {
    const std::int64_t n = std::int64_t(1) << k;
    PreparedRun p;
    if (std::string err = make_input(spec.input, n, spec.type, spec.seed, p.input); !err.empty()) {
      if (error) *error = err;
      return s;
    }
    for (const auto& id : spec.variants) {
      if (cancelled()) break;
      RunRequest req;
      req.variant = id;
      req.n = n;
      req.type = spec.type;
      req.input = spec.input;
      req.seed = spec.seed;
      req.repeat = spec.repeat;
      req.backend = spec.backend;
      p.variant = find_variant(id);
      RunResult r;
      std::string why = resolve_launch(*p.variant, n, spec.type, req.launch, DeviceShape{}, p.launch);
      if (why.empty() && p.variant->rules.int_only && spec.type != DType::Int32) why = id + " takes int32 only";
      if (!why.empty()) {
        r.variant = id;
        r.lesson = p.variant->lesson;
        r.backend = spec.backend;
        r.n = n;
        r.type = spec.type;
        r.input = spec.input;
        r.seed = spec.seed;
        r.status = "skipped";  // this size breaks the variant's launch rules: not a failure
        r.message = why;
      } else {
        p.launch.grid = 0;  // the backend fills in the device default
        r = execute_prepared(req, p, backend, no_device_reason);
      }
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
  j["backend"] = s.spec.backend;
  j["cancelled"] = s.cancelled;
  j["runs"] = json::array();
  for (const auto& r : s.runs) j["runs"].push_back(run_to_json(r));
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
    s.spec.from_log2 = need("from_log2").get<int>();
    s.spec.to_log2 = need("to_log2").get<int>();
    if (!parse_dtype(j.value("type", std::string("int32")), s.spec.type)) throw std::runtime_error("sweep: unknown type");
    s.spec.input = j.value("input", std::string("random"));
    s.spec.seed = j.value("seed", std::uint64_t(1));
    s.spec.repeat = j.value("repeat", 10);
    s.spec.backend = j.value("backend", std::string("cuda"));
    s.cancelled = j.value("cancelled", false);
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("sweep: a field has the wrong type (") + e.what() + ")");
  }
  const json& runs = need("runs");
  if (!runs.is_array()) throw std::runtime_error("sweep: 'runs' must be an array");
  std::size_t i = 0;
  for (const auto& run : runs) {
    try {
      s.runs.push_back(run_from_json(run));
    } catch (const std::exception& e) {
      throw std::runtime_error("sweep: run " + std::to_string(i) + ": " + e.what());
    }
    ++i;
  }
  return s;
}

}  // namespace ws
