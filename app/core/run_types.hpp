// The data that flows through warpscope: RunRequest in, RunResult out (DESIGN.md, "Shape").
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "backend_kind.hpp"
#include "host_vector.hpp"
#include "metrics.hpp"
#include "pattern_params.hpp"
#include "run_status.hpp"
#include "sanitizer.hpp"
#include "types.hpp"
#include "user_kernel_request.hpp"

namespace ws {

/// One run asked for by the CLI or GUI. n = 0 means "default" (2^20, or the file's length).
struct RunRequest {
  std::string variant;
  std::int64_t n = 0;
  LaunchConfig launch;  ///< 0 = variant default
  int repeat = 10;      ///< timed launches (median, min, max over these)
  int warmup = 2;       ///< untimed launches first
  DType type = DType::Int32;
  std::string input = "random";  ///< random | ones | sequence | path of a text file
  std::uint64_t seed = 1;
  BackendKind backend = BackendKind::Cuda;  ///< Cuda or Sim (prepare_run refuses Cpu)
  PatternParams params;                     ///< scan / convolution / atomics options (docs/patterns.md)
  std::string metrics;                      ///< "" = none; default | all | NAME,... (metric_catalog.hpp), cuda only
  UserKernel kernel;                        ///< a user's kernel to run instead of the variant's (empty: none)
};

/// Timing of K launches with CUDA events (host clock for CPU variants), in milliseconds.
struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  std::vector<double> samples_ms;
};

/// Median, min and max of the samples (samples must not be empty).
Timing summarize(std::vector<double> samples_ms);

/// Where a run's wall time went on the host, in milliseconds per phase (0: the phase did not happen).
/// The GPU's own time is Timing; this is what the person who pressed Run waited for.
struct HostTimes {
  double input = 0;      ///< generating or reading the input (0 when an earlier run of the report or sweep made it)
  double upload = 0;     ///< host-to-device copies (cuda)
  double launches = 0;   ///< warm-up and timed launches with their waits (cuda); the timed runs of a CPU variant
  double model = 0;      ///< the thread-level CPU model (sim)
  double download = 0;   ///< device-to-host copies of the result or output, widened to the run's output
  double reference = 0;  ///< the CPU reference (and the bytes a run must move)
  double check = 0;      ///< comparing the result or output with the reference
  double metrics = 0;    ///< CUPTI replays and counters (--metrics)
  double total = 0;      ///< the whole run, input included; total minus the phases is bookkeeping ("other")
  bool recorded() const { return total > 0; }
  /// Named phases in the order above, then "other" (total minus the phases, >= 0) and "total".
  std::vector<std::pair<const char*, double>> phases() const;
};

/// One line for people: the phases that took time, e.g. "input 812 ms, upload 95 ms, launches 31 ms,
/// reference 210 ms, check 120 ms; total 1.31 s" (phases under 0.05 ms left out); "" when not recorded.
std::string format_host_times(const HostTimes& h);

/// A steady-clock stopwatch for HostTimes.
class HostClock {
 public:
  HostClock() : t0_(std::chrono::steady_clock::now()), lap_(t0_) {}
  /// Milliseconds since the previous lap() (or construction), and starts the next lap.
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - lap_).count();
    lap_ = now;
    return ms;
  }
  /// Milliseconds since construction.
  double total() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_, lap_;
};

/// What a backend returns for one run; `status` says what became of it (RunStatus), `message` why.
struct RunResult {
  std::string variant, lesson;
  BackendKind backend = BackendKind::Cuda;  ///< where it ran: Cpu for cpu_only variants
  std::string device;
  std::int64_t n = 0;
  DType type = DType::Int32;
  std::string input;
  std::uint64_t seed = 1;
  LaunchConfig launch;  ///< as resolved (block 0 for CPU variants)
  double result = 0, expected = 0;
  bool correct = false;
  bool racy = false, cautionary = false;
  RunStatus status = RunStatus::Unchecked;
  std::string message;
  /// Which of the kernel's per-architecture paths ran, for kernels that use instructions older GPUs
  /// lack (kernels/common/arch_paths.hpp), e.g. "... (pre-sm_80 path)"; "" when the kernel has one path.
  std::string code_path;
  bool timed = false;
  Timing timing;
  int launches = 0;            ///< kernel launches per run (multi-pass variants launch several)
  double bytes = 0;            ///< bytes the run must read + write at least (PatternSpec::bytes), for GB/s
  double gbps = 0;             ///< bytes / median time, GB/s (1e9 bytes per second)
  double pct_theoretical = 0;  ///< of the device's theoretical DRAM bandwidth
  double pct_copy = 0;         ///< of the device-copy bandwidth measured at start-up
  KernelMetrics metrics;       ///< hardware metrics, when asked for (run --metrics)
  /// Array patterns (scan, convolution, atomics): the whole output, row-major; rows = 0 means 1D
  /// (cols = output.size() then). Reductions leave it empty and use `result`. For array patterns
  /// `result` / `expected` hold a summary value (PatternSpec::summary: by default the last element).
  HostVector<double> output;
  std::int64_t output_rows = 0, output_cols = 0;
  PatternParams params;        ///< array patterns: the request's params (report JSON "params"; output_path not kept)
  HostTimes host_ms;           ///< where the run's wall time went on the host (report JSON "host_ms", optional)
  SanitizerVerdict sanitizer;  ///< compute-sanitizer's verdicts on the variant (report JSON "sanitizer", optional)
};

/// A result for a request that did not run: the request's variant (a user's kernel: user_kernel_label),
/// backend, n, type, input, seed, launch and params, with `status` (Error, Faulted) and its one-line `message`.
RunResult unrun_result(const RunRequest& req, RunStatus status, const std::string& message);

/// Sets correct/status/message from the check's `mismatch` ("" when the run equals the reference, else
/// e.g. "expected 5, got 4" or "out[17] = 5, expected 6") and the run's flags: Ok; Race for racy
/// variants; SlideBug for cautionary ones whose answer is what the slide's code computes
/// (`slide_bug`, with that value); otherwise Wrong. `scalar`: the run's answer is one value (reductions).
void classify(RunResult& r, const std::string& mismatch, bool scalar, bool slide_bug = false, double slide_value = 0);

}  // namespace ws
