// Sweeps: the chosen variants at n = 2^from .. 2^to, of every 1-D pattern
// (reductions, scans, histograms and filters, 1-D convolutions), or a filter sweep over the fraction of
// values kept at one n ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022, slides "Aggregation and atomics" and
// "Performance": throughput against the filter ratio). Each point gets one input per kind of input
// (input_share_key), shared by the variants that read the same one, and every run goes through
// execute_prepared(), so a sweep's runs are ordinary RunResults: checked against the CPU reference and
// timed like `run`, GB/s from each pattern's own bytes (PatternSpec::bytes). Output arrays are not kept.
// Sweeps are kept in reports (Report::sweeps, the report's "sweeps" array):
// {"title", "variants":[ids], "from_log2", "to_log2", "type", "input", "seed", "repeat", "backend",
//  "cancelled", "created", "params":{as a run's}, "runs":[run objects as run_to_json() writes them]}
// and, for kept-fraction sweeps, "n" and "keep_fractions":[0..1 ...] (each run's params.keep_fraction).
#pragma once
#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_types.hpp"
#include "variant.hpp"

namespace ws {

class Backend;

/// Smallest and largest exponent a sweep may use (n = 2^k); 2^30 is the request limit (kMaxN).
constexpr int kSweepMinLog2 = 1;
constexpr int kSweepMaxLog2 = 30;

/// What to sweep: variants x sizes 2^from_log2 .. 2^to_log2 (both included), with the request
/// fields every run shares (type, input kind, seed, repeat, backend; launch = each variant's default).
struct SweepSpec {
  std::vector<std::string> variants;
  int from_log2 = 10, to_log2 = 28;
  DType type = DType::Int32;
  std::string input = "random";  ///< random | ones | sequence (files have one fixed n)
  std::uint64_t seed = 1;
  int repeat = 10;
  BackendKind backend = BackendKind::Cuda;  ///< Cuda or Sim (sim runs are untimed: correctness only)
  PatternParams params;                     ///< scan / convolution / atomics options of every run (width/height: 0)
  /// Non-empty: a kept-fraction sweep (filters only) at n = `n`, one point per fraction (each 0..1),
  /// instead of a size sweep (from_log2/to_log2 are then unused).
  std::vector<double> keep_fractions;
  std::int64_t n = 0;  ///< kept-fraction sweeps: the n of every run
  bool by_keep() const { return !keep_fractions.empty(); }
  int points() const {
    if (by_keep()) return int(keep_fractions.size());
    return to_log2 >= from_log2 ? to_log2 - from_log2 + 1 : 0;
  }
  int total_runs() const { return int(variants.size()) * points(); }
};

/// A finished (or cancelled) sweep: the spec and its runs in order (size outer, variant inner).
struct Sweep {
  std::string title, created;  ///< created: ISO-8601 UTC
  SweepSpec spec;
  bool cancelled = false;  ///< stopped before every run was made
  std::vector<RunResult> runs;
  /// Runs of one variant, by increasing x (n, or the kept fraction of a kept-fraction sweep).
  std::vector<const RunResult*> runs_of(const std::string& variant) const;
  /// The x of a run in this sweep: n (size sweeps) or the requested kept fraction (kept-fraction sweeps).
  double x_of(const RunResult& r) const { return spec.by_keep() ? r.params.keep_fraction : double(r.n); }
};

/// Progress after each run: runs done of total, and the run just finished.
struct SweepProgress {
  int done = 0, total = 0;
  const RunResult* last = nullptr;
};

/// Most points (fractions) of a kept-fraction sweep.
constexpr int kMaxKeepPoints = 1001;

/// "" when `v` can be swept over n (and run Live at a chosen n); otherwise one line saying why not:
/// the race and atomic counters count the threads of a fixed 1000 x 1000 launch, and 2-D convolutions
/// take an image of --width x --height (sweeps vary a 1-D n: sweep the 1-D convolutions instead).
std::string sweep_refusal(const VariantInfo& v);

/// True for the filter variants (cs121.filter_*, cub.select): the ones a kept-fraction sweep takes.
bool is_filter_variant(const VariantInfo& v);

/// The input a variant gets from `req` (generated kinds), as a key: two requests with the same key get
/// the same input, so sweeps and Live generate it once (reductions and scans share int32 numbers;
/// histograms read bytes; filters keep req.params.keep_fraction of their values; 1-D convolutions read
/// float32 in [0, 1)). Includes n, type, input kind and seed.
std::string input_share_key(const VariantInfo& v, const RunRequest& req);

/// The fraction of values a filter run really kept: the reference's count (RunResult::expected) / n;
/// -1 for runs that are not of a filter, have n = 0, or were never checked ("error", "skipped").
double kept_fraction(const RunResult& r);

/// Parses a list of kept fractions: "A:B:STEP" (A, A+STEP, ... up to B included, STEP > 0) or
/// "F1,F2,..." (each 0..1). Returns "" or one line naming the bad part.
std::string parse_keep_fractions(const std::string& text, std::vector<double>& out);

/// Checks a spec without touching a device: known ids that can be swept (sweep_refusal; kept-fraction
/// sweeps: filters only), 1 <= from <= to <= 30 (or, by kept fraction: 1 <= n <= 2^30, 1..1001
/// fractions in 0..1), known input kind and backend, repeat in 1..100000, and each variant's pattern
/// options (PatternSpec::validate). Returns "" or one line.
std::string validate_sweep(const SweepSpec& spec);

/// Runs the sweep on `backend` (nullptr for cuda requests: every GPU run is "error" with
/// `no_device_reason`, as execute() does). Checks `cancel` before each run and stops early when it
/// is set (the sweep is then marked cancelled). `progress` (may be empty) is called after each run
/// on the calling thread. Variants whose launch rules refuse a size get a run with status "skipped"
/// and the reason. Runs keep no output array (RunResult::output is cleared: a 2^28 scan's is 2 GiB).
/// Never throws; an invalid spec gives a sweep with no runs and `error` set.
Sweep run_sweep(const SweepSpec& spec, Backend* backend, const std::string& no_device_reason,
                const std::atomic<bool>* cancel, const std::function<void(const SweepProgress&)>& progress,
                std::string* error = nullptr);

nlohmann::json sweep_to_json(const Sweep& s);
/// Throws std::runtime_error naming the bad field.
Sweep sweep_from_json(const nlohmann::json& j);

}  // namespace ws
