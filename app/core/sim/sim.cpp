// The sim backend: model lookup over every pattern's tables, the result-only model of the CUB baseline,
// and the Backend that runs a model for `--backend sim`.
#include "sim/sim.hpp"

#include <atomic>
#include <exception>
#include <stdexcept>
#include <unordered_map>

#include "limits.hpp"
#include "patterns.hpp"
#include "sim/model_kit.hpp"

namespace ws::sim {

namespace {

using namespace kit;

/// cub.reduce, result only: CUB's tiles, items per thread and grid are chosen by the library per GPU
/// and are not modelled at thread level, so the trace has no steps. int32: the wrapping sum (exact in
/// any order); float32: a pairwise tree in float (close to CUB's tile trees, not bit-identical).
/// Launches: 1 when n fits one tile, else 2 (partials, then one folding block); the tile is taken as
/// 256 threads x 16 items = 4096 elements (CUB's 4-byte reduce policy on sm_80/sm_90; an assumption).
template <class P>
SimOutput cub_reduce(const VariantInfo& v, const Input& in, const LaunchConfig& launch, int trace_block) {
  SimOutput out = start(v, in, launch, trace_block);
  out.trace.interleaving = "library call: result only, CUB's kernels are not modelled at thread level (no steps)";
  const GlobalView<P> g = view<P>(in);
  std::vector<typename P::T> level(std::size_t(g.n));
  for (std::int64_t i = 0; i < g.n; ++i) level[std::size_t(i)] = g.at(i);
  while (level.size() > 1) {
    const std::size_t half = (level.size() + 1) / 2;
    for (std::size_t i = 0; i < level.size() / 2; ++i) level[i] = P::combine(level[2 * i], level[2 * i + 1]);
    if (level.size() % 2) level[half - 1] = level[level.size() - 1];
    level.resize(half);
  }
  out.result = level.empty() ? 0.0 : P::to_double(level[0]);
  out.trace.block_result = out.result;
  out.launches = g.n <= 4096 ? 1 : 2;
  return out;
}

}  // namespace

namespace {
std::atomic<bool> g_fast_paths{true};
}  // namespace

bool fast_paths() { return g_fast_paths.load(); }
void set_fast_paths(bool on) { g_fast_paths.store(on); }

/// Every reduction lesson's models (generated/reduction_models.cpp: one call per
/// patterns/reduction/models_<lesson>.cpp, found by app/core/CMakeLists.txt, not listed here).
std::vector<ModelEntry> lesson_reduction_models();

std::vector<ModelEntry> reduction_models() {
  std::vector<ModelEntry> all = lesson_reduction_models();
  all.push_back({"cub.reduce", by_type<cub_reduce<SumI32>, cub_reduce<SumF32>>});
  return all;
}

SimModel find_model(const std::string& id) {
  static const std::unordered_map<std::string, SimModel> table = [] {
    std::unordered_map<std::string, SimModel> t;
    for (const PatternSpec& p : all_patterns())
      if (p.sim_models)
        for (const auto& e : p.sim_models()) t[e.id] = e.model;
    return t;
  }();
  auto it = table.find(id);
  return it == table.end() ? nullptr : it->second;
}

bool has_model(const std::string& id) { return find_model(id) != nullptr; }

SimOutput simulate(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& params,
                   int trace_block) {
  SimOutput out;
  if (const SimModel m = find_model(v.id))
    out = m(v, in, launch, params, trace_block);
  else
    throw std::runtime_error(v.id + " has no sim model in this build");
  out.trace.input = in.kind.empty() ? "random" : in.kind;  // what the trace was computed on, for matching recordings
  out.trace.seed = in.seed;
  return out;
}

SimBackend::SimBackend() {
  device_.available = true;
  device_.name = "thread-level CPU model";
}

RunResult SimBackend::run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) {
  RunResult r;  // execute fills the request's fields (variant, n, type, input, seed)
  r.backend = BackendKind::Sim;
  r.device = device_.name;
  r.launch = launch;
  r.timed = false;
  if (!has_model(v.id)) {
    r.status = RunStatus::Error;
    r.message = v.id + " has no sim model in this build";
    return r;
  }
  try {
    const HostClock clock;
    SimOutput o = simulate(v, in, launch, req.params, -1);
    r.host_ms.model = clock.total();
    r.result = o.result;
    r.launches = o.launches;
    r.output = std::move(o.output);
    r.output_rows = o.output_rows;
    r.output_cols = o.output_cols;
    if (o.trace.launch.block > 0 && o.trace.launch.grid > 0) r.launch = o.trace.launch;  // as the model ran it
    r.status = RunStatus::Ran;
  } catch (const std::exception& e) {  // std::bad_alloc in words: what the run needs, what is free
    r.status = RunStatus::Error;
    r.message = describe_exception(e, estimate_run_host_bytes(v, in.n(), in.type));
  }
  return r;
}

}  // namespace ws::sim
