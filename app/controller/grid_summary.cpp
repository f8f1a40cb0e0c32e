#include "grid_summary.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "format.hpp"
#include "inputs.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "parallel.hpp"
#include "pattern_params.hpp"
#include "patterns/atomics/reference.hpp"
#include "sim/sim.hpp"
#include "trace/analyses.hpp"

namespace ws::controller {

const char* grid_metric_name(GridMetric m) {
  switch (m) {
    case GridMetric::ActiveLanes: return "active lanes";
    case GridMetric::BankWays: return "bank-conflict ways";
    case GridMetric::Sectors: return "sectors per request";
    default: return "?";
  }
}

const char* grid_metric_help(GridMetric m) {
  switch (m) {
    case GridMetric::ActiveLanes: return "lanes of the warp doing the step's work (0 = idle warp, 32 = all)";
    case GridMetric::BankWays:
      return "the warp's worst n-way shared-memory bank conflict in the step (1 = conflict-free; blank = no shared "
             "access)";
    case GridMetric::Sectors:
      return "32-byte sectors the warp's widest global load touched in the step (4 = 128 coalesced bytes; blank = no "
             "load)";
    default: return "";
  }
}

std::uint8_t GridSummary::at(GridMetric m, std::int64_t warp, int step) const {
  const auto& v = values[int(m)];
  const std::int64_t i = warp * kGridStepStride + step;
  if (warp < 0 || step < 0 || step >= kGridStepStride || i >= std::int64_t(v.size())) return kGridNoStep;
  return v[std::size_t(i)];
}

void init_grid_summary(GridSummary& g, const std::string& variant, std::int64_t n, const LaunchConfig& launch) {
  g = GridSummary{};
  g.variant = variant;
  g.n = n;
  g.launch = launch;
  g.warps_per_block = (launch.block + kWarpSize - 1) / kWarpSize;
  if (launch.grid <= 0 || g.warps() > kMaxGridWarps)
    throw std::length_error("the launch has " + format_grouped(g.warps()) + " warps; the Grid view shows up to " +
                            format_grouped(kMaxGridWarps));
  for (auto& v : g.values) v.assign(std::size_t(g.warps() * kGridStepStride), kGridNoStep);
  g.block_done.assign(std::size_t(launch.grid), 0);
}

void summarize_block(const Trace& t, std::int64_t block, GridSummary& g) {
  if (block < 0 || block >= g.launch.grid) return;
  const int wpb = g.warps_per_block;
  const int steps = int(std::min<std::size_t>(t.steps.size(), kGridStepStride));
  g.steps_cut = g.steps_cut || int(t.steps.size()) > kGridStepStride;
  g.steps = std::max(g.steps, steps);
  if (block == 0) {
    g.step_labels.clear();
    for (int s = 0; s < steps; ++s) {
      const Step& st = t.steps[std::size_t(s)];
      g.step_labels.push_back(st.label.empty() ? std::string(to_string(st.phase))
                                               : to_string(st.phase) + (": " + st.label));
    }
  }
  const int trace_warps = std::min(t.warps(), wpb);
  for (int s = 0; s < steps; ++s) {
    const Step& st = t.steps[std::size_t(s)];
    const std::vector<std::uint32_t> masks = active_masks(t, st);
    const std::vector<int> ways = step_bank_conflicts(t, st);
    std::vector<int> sectors(std::size_t(wpb), 0);
    for (const SectorRequest& r : global_load_sectors(t, st))
      if (r.warp >= 0 && r.warp < wpb) sectors[std::size_t(r.warp)] = std::max(sectors[std::size_t(r.warp)], r.sectors);
    for (int w = 0; w < trace_warps; ++w) {
      const std::size_t i = std::size_t((block * wpb + w) * kGridStepStride + s);
      g.values[int(GridMetric::ActiveLanes)][i] = std::uint8_t(__builtin_popcount(masks[std::size_t(w)]));
      g.values[int(GridMetric::BankWays)][i] = std::uint8_t(std::min(ways[std::size_t(w)], 254));
      g.values[int(GridMetric::Sectors)][i] = std::uint8_t(std::min(sectors[std::size_t(w)], 254));
    }
  }
  if (!g.block_done[std::size_t(block)]) {
    g.block_done[std::size_t(block)] = 1;
    ++g.blocks_done;
  }
}

namespace {

/// Most elements the Grid view simulates (2^24: a 64 MiB int32 input); its summaries take at most
/// kMaxGridWarps x kGridStepStride x 3 bytes (12 MiB), whatever n is.
constexpr std::int64_t kMaxGridElements = std::int64_t(1) << 24;

/// The input and resolved launch of `key`; "" or why the grid cannot be computed.
std::string prepare(const VariantInfo& v, const GridKey& key, Input& in, LaunchConfig& launch) {
  if (v.cpu_only) return v.id + " runs on the CPU: it has no warps to show";
  if (v.conv != ConvKind::None)
    return v.id + ": the Grid view covers the 1-D patterns; a convolution's blocks are tiles (see the Convolution tab)";
  if (!sim::has_model(v.id)) return "no sim model for " + v.id + " in this build";
  const DType type = v.rules.bytes_input ? DType::UInt8 : key.type;
  // Sizes first, before an input of n elements is made: n = 2^30 would allocate gigabytes only to be refused.
  const auto too_many_warps = [&](std::int64_t n, const LaunchConfig& l) {
    const std::int64_t warps = l.grid * ((l.block + kWarpSize - 1) / kWarpSize);
    if (warps <= kMaxGridWarps) return std::string();
    return "the launch of n = " + format_grouped(n) + " has " + format_grouped(warps) +
           " warps; the Grid view shows up to " + format_grouped(kMaxGridWarps) + " (a smaller n or grid)";
  };
  const auto too_many_elements = [&](std::int64_t n) {
    if (n <= kMaxGridElements) return std::string();
    return "n = " + format_grouped(n) + " is more than the " + format_grouped(kMaxGridElements) +
           " elements the Grid view simulates (a smaller n)";
  };
  std::string err;
  if (is_generated_kind(key.input)) {
    if (std::string why = too_many_elements(key.n); !why.empty()) return why;
    if (resolve_launch(v, key.n, type, LaunchConfig{key.block, key.grid}, DeviceShape{}, launch).empty())
      if (std::string why = too_many_warps(key.n, launch); !why.empty()) return why;
  } else if (std::string e =
                 check_input_file(key.input, std::uintmax_t(kMaxGridElements) * kMaxNumberToken, "input file");
             !e.empty()) {
    return "cannot compute the grid of " + v.id + ": " + e;
  }
  if (!is_generated_kind(key.input)) {
    err = read_input_file(key.input, 0, type, in);
  } else if (v.atomics == AtomicsKind::Filter && key.input == "random") {
    err = make_filter_input(key.n, key.keep, key.seed, in);
  } else {
    err = make_input(key.input, key.n, type, key.seed, in);
  }
  if (!err.empty()) return "cannot compute the grid of " + v.id + ": " + err;
  if (std::string e = resolve_launch(v, in.n(), type, LaunchConfig{key.block, key.grid}, DeviceShape{}, launch);
      !e.empty())
    return "cannot compute the grid of " + v.id + ": " + e;
  if (std::string why = too_many_elements(in.n()); !why.empty()) return why;
  return too_many_warps(in.n(), launch);
}

PatternParams params_of(const GridKey& key) {
  PatternParams p;
  p.exclusive = key.exclusive;
  p.keep_fraction = key.keep;
  return p;
}

}  // namespace

bool GridState::refresh(const VariantInfo* v, const GridKey& key, double now) {
  if (!v) {
    const bool changed = error.empty();
    error = "no variant selected";
    version = 0;  // the next refresh with a variant copies the job's summary again
    return changed;
  }
  if (!job->key() || *job->key() != key) {
    job->start(*v, key);
    data = GridSummary{};
    version = 0;
    error.clear();
    warp0 = initial_warp0, warp1 = initial_warp1;
    last_take = -1e9;
  }
  job->pump(kGridSliceMs);
  const bool running = job->running();
  if (running && now - last_take < 0.25) return false;
  if (!job->take(data, version)) return false;
  last_take = now;
  error = job->error();
  return true;
}

std::string compute_grid(const VariantInfo& v, const GridKey& key, GridSummary& out) {
  Input in;
  LaunchConfig launch;
  try {
    if (std::string why = prepare(v, key, in, launch); !why.empty()) return why;
    init_grid_summary(out, v.id, in.n(), launch);
    const PatternParams params = params_of(key);
    for (std::int64_t b = 0; b < launch.grid; ++b)
      summarize_block(sim::simulate(v, in, launch, params, int(b)).trace, b, out);
  } catch (const std::exception& e) { return "the grid of " + v.id + " failed: " + describe_exception(e); }
  return "";
}

struct GridJob::Work {
  VariantInfo v;
  Input in;
  LaunchConfig launch;
  PatternParams params;
  std::int64_t next = 0;  ///< the next block to compute
};

GridJob::GridJob() = default;
GridJob::~GridJob() { stop(); }

void GridJob::start(const VariantInfo& v, const GridKey& key) {
  stop();
  key_ = key;
  started_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    summary_ = GridSummary{};
    error_.clear();
    ++version_;
  }
  work_.reset();
  cancel_ = false;
  running_ = true;
#ifdef WS_NO_THREADS
  running_ = begin(v, key);  // the browser build has no threads: pump() computes the blocks, a slice a frame
#else
  thread_ = std::thread([this, v, key] { run(v, key); });
#endif
}

void GridJob::pump(double budget_ms) {
#ifdef WS_NO_THREADS
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed_ms = [&] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  while (running_ && !cancel_) {
    if (!advance(1)) {
      work_.reset();
      running_ = false;
    }
    if (elapsed_ms() >= budget_ms) break;
  }
#else
  (void)budget_ms;  // the job's thread computes the blocks
#endif
}

void GridJob::stop() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
  running_ = false;
}

bool GridJob::take(GridSummary& out, std::uint64_t& version) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (version == version_) return false;
  out = summary_;
  version = version_;
  return true;
}

std::string GridJob::error() const {
  std::lock_guard<std::mutex> lock(mu_);
  return error_;
}

void GridJob::progress(std::int64_t& done, std::int64_t& total) const {
  std::lock_guard<std::mutex> lock(mu_);
  done = summary_.blocks_done;
  total = summary_.launch.grid;
}

void GridJob::run(VariantInfo v, GridKey key) {
  if (begin(v, key)) {
    // Blocks in batches over the host threads; each batch's traces are summarized under the lock, so the
    // view sees whole blocks only.
    const std::int64_t batch = std::max(1, host_threads()) * 4;
    while (!cancel_ && advance(batch)) {}
  }
  work_.reset();  // the input, no longer needed
  running_ = false;
}

bool GridJob::begin(const VariantInfo& v, const GridKey& key) {
  auto fail = [&](const std::string& why) {
    std::lock_guard<std::mutex> lock(mu_);
    error_ = why;
    ++version_;
    return false;
  };
  // Nothing may leave the job's thread: an exception here (std::bad_alloc included) would end the program.
  try {
    auto w = std::make_unique<Work>();
    w->v = v;
    if (std::string why = prepare(v, key, w->in, w->launch); !why.empty()) return fail(why);
    w->params = params_of(key);
    GridSummary local;
    init_grid_summary(local, v.id, w->in.n(), w->launch);
    {
      std::lock_guard<std::mutex> lock(mu_);
      summary_ = std::move(local);
      ++version_;
    }
    work_ = std::move(w);
    return true;
  } catch (const std::exception& e) { return fail("the grid of " + v.id + " failed: " + describe_exception(e)); }
}

bool GridJob::advance(std::int64_t count) {
  if (!work_) return false;
  Work& w = *work_;
  try {
    count = std::min(count, w.launch.grid - w.next);
    if (count <= 0) return false;
    std::vector<Trace> traces(static_cast<std::size_t>(count));
    parallel_chunks(count, 1, [&](std::int64_t i, std::int64_t, std::int64_t) {
      if (!cancel_) traces[std::size_t(i)] = sim::simulate(w.v, w.in, w.launch, w.params, int(w.next + i)).trace;
    });
    if (cancel_) return false;
    std::lock_guard<std::mutex> lock(mu_);
    for (std::int64_t i = 0; i < count; ++i) summarize_block(traces[std::size_t(i)], w.next + i, summary_);
    ++version_;
    w.next += count;
    return w.next < w.launch.grid;
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mu_);
    error_ = "the grid of " + w.v.id + " failed: " + describe_exception(e);
    ++version_;
    return false;
  }
}

}  // namespace ws::controller
