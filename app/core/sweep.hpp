// Sweeps: the chosen variants at n = 2^from .. 2^to (issue 6, part 3). Each size gets one input,
// shared by every variant (generated once), and every run goes through execute_prepared(), so a
// sweep's runs are ordinary RunResults: checked against the CPU and timed like `run`.
// Sweeps are kept in reports (Report::sweeps, the report's "sweeps" array):
// {"title", "variants":[ids], "from_log2", "to_log2", "type", "input", "seed", "repeat", "backend",
//  "cancelled", "created", "runs":[run objects as run_to_json() writes them]}.
#pragma once
#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "backend.hpp"
#include "run_types.hpp"

namespace ws {

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
  std::string backend = "cuda";  ///< cuda | sim (sim runs are untimed: correctness only)
  int points() const { return to_log2 >= from_log2 ? to_log2 - from_log2 + 1 : 0; }
  int total_runs() const { return int(variants.size()) * points(); }
};

/// A finished (or cancelled) sweep: the spec and its runs in order (size outer, variant inner).
struct Sweep {
  std::string title, created;  ///< created: ISO-8601 UTC
  SweepSpec spec;
  bool cancelled = false;      ///< stopped before every run was made
  std::vector<RunResult> runs;
  /// Runs of one variant, by increasing n.
  std::vector<const RunResult*> runs_of(const std::string& variant) const;
};

/// Progress after each run: runs done of total, and the run just finished.
struct SweepProgress {
  int done = 0, total = 0;
  const RunResult* last = nullptr;
};

/// Checks a spec without touching a device: known reduction ids, 1 <= from <= to <= 30, known input kind and
/// backend, repeat in 1..100000. Returns "" or one line.
std::string validate_sweep(const SweepSpec& spec);

/// Runs the sweep on `backend` (nullptr for cuda requests: every GPU run is "error" with
/// `no_device_reason`, as execute() does). Checks `cancel` before each run and stops early when it
/// is set (the sweep is then marked cancelled). `progress` (may be empty) is called after each run
/// on the calling thread. Variants whose launch rules refuse a size get a run with status "skipped"
/// and the reason. Never throws; an invalid spec gives a sweep with no runs and `error` set.
Sweep run_sweep(const SweepSpec& spec, Backend* backend, const std::string& no_device_reason,
                const std::atomic<bool>* cancel, const std::function<void(const SweepProgress&)>& progress,
                std::string* error = nullptr);

nlohmann::json sweep_to_json(const Sweep& s);
/// Throws std::runtime_error naming the bad field.
Sweep sweep_from_json(const nlohmann::json& j);

}  // namespace ws
