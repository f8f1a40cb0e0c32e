// Searching for a kernel's bound by code modifications, as "Code Optimizations" (Jiří Filipovič, Fall
// 2020) teaches it on its two "Code Modifications" slides: time the kernel,
// a memory-only copy (the computation commented out, the loaded data still used so the compiler keeps the
// loads; the profiler confirms the same bytes move) and a compute-only copy (the data movement commented
// out, the result stored under a condition false at run time but not at compile time), with occupancy held
// equal (a dummy shared array), and read the three times with the slides' rules. This file is the reading
// (pure numbers), the copies (files under kernels/<pattern>/bound/, else a starting point with TODOs) and the
// three requests; the CLI (`warpscope-cli bound`) and the editor's "Find the bound" panel share it.
#pragma once
#include <string>
#include <vector>

#include "pattern_kind.hpp"
#include "run_types.hpp"

namespace ws {

/// What the reading needs of one of the three runs. Unknown values are negative.
struct BoundMeasure {
  double ms = -1;  ///< median kernel time, milliseconds (<= 0: not timed)
  /// DRAM bytes read (CUPTI dram__bytes_read.sum): the loads the slides compare. Not the writes: a run's DRAM
  /// writes include the write-back of lines its input's upload left dirty in L2 (on the H200 about 30 MB of a
  /// 67 MB input for whichever run comes first after the upload), which says nothing about the kernel.
  double dram_bytes = -1;
  double occupancy_pct = -1;  ///< achieved occupancy, % (sm__warps_active.avg.pct_of_peak_sustained_active)
};

/// The "~" of the slides and the fairness margins, as fractions.
/// time 0.15: two times are "close" when they differ by at most 15 % of the original's. A median of 10
/// launches varies by a few percent, and a copy keeps the index arithmetic and launch overhead the slides
/// cannot remove, so equality is never exact; 15 % still keeps the three readings apart (memory-only at
/// 0.9x and compute-only at 0.3x cannot read as both "~ original"). bytes 0.05: the memory-only copy moves
/// the original's DRAM bytes within 5 % (the slides: "check with profiler that the same amount of data are
/// transferred"; the partial sums' writes are well under that). occupancy 0.10: achieved occupancy within
/// 10 % of the original's (relative), the tail effects of one grid.
struct BoundTolerance {
  double time = 0.15;
  double bytes = 0.05;
  double occupancy = 0.10;
};

/// The slides' reading of the three times ("Code Modifications", "Interpretation of measured times").
enum class BoundVerdict {
  Memory,    ///< the memory-only time dominates and is close to the original's
  Compute,   ///< the compute-only time dominates and is close to the original's
  Latency,   ///< the original's time is close to the sum of the two: latency is the issue
  Both,      ///< both copies take about the original's time: optimize both
  Unclear,   ///< no rule fits within the tolerance (reason says which is nearest, or what looks wrong)
  NotTimed,  ///< a run is missing or was not timed
};

/// "memory bound", "compute bound", "latency bound", "optimize both", "no rule fits", "not timed".
const char* to_string(BoundVerdict v);

/// One fairness check of the copies.
struct BoundCheck {
  enum State { Passed, Failed, Unknown };
  std::string name;  ///< e.g. "memory-only moves the original's DRAM bytes"
  State state = Unknown;
  std::string detail;  ///< e.g. "67.2 MB vs 67.4 MB (-0.3 %)"; for Unknown why (no metrics)
};

/// The verdict, its reasoning in one or two sentences, and the fairness checks.
struct BoundReading {
  BoundVerdict verdict = BoundVerdict::NotTimed;
  std::string reason;
  std::vector<BoundCheck> checks;
  /// No check failed (unknown ones do not count against).
  bool fair() const;
};

/// Reads the three measures with the slides' rules, `tol.time` being their "~" (ratios r_m = memory /
/// original, r_c = compute / original): both r within tol of 1: Both; r_m within tol and r_c < r_m:
/// Memory (Compute the other way round); r_m + r_c within tol of 1 with each above tol: Latency (where a
/// single-bound rule fits too, the one nearer 1 wins); otherwise Unclear. Checks: the memory-only copy
/// moves the original's DRAM bytes (within tol.bytes), the compute-only copy moves little (under 10 % of
/// them), and each copy's achieved occupancy equals the original's (within tol.occupancy, relative).
/// Source: "Code Optimizations", Filipovic, Fall 2020, slides "Code Modifications" (the second: occupancy,
/// the rules).
BoundReading read_bound(const BoundMeasure& original, const BoundMeasure& memory, const BoundMeasure& compute,
                        const BoundTolerance& tol = BoundTolerance{});

/// The metrics the three runs collect (a --metrics value): DRAM bytes read and written, achieved occupancy.
extern const char* const kBoundMetrics;

/// The measure of a finished run: its median time when timed, DRAM bytes and occupancy when collected.
BoundMeasure bound_measure(const RunResult& r);

/// The two modified copies of a kernel, and where they came from.
struct BoundCopies {
  std::string memory, compute;  ///< whole files under the pattern's contract, header included
  bool hand_written = false;    ///< true: kernels/<pattern>/bound/<variant>.{memory,compute}.cu, ready to run
  std::string note;             ///< one line for the person: what to adjust, or that they follow the slides
};

/// Directory of the hand-written copies of `pattern`'s variants: kernel_include_dir()/<pattern>/bound.
std::string bound_copies_dir(PatternKind pattern);

/// Reads the hand-written file `<variant>.<kind>.cu` (kind: "original", "memory", "compute") of the bound
/// directory into `out`. Returns false when there is none.
bool read_bound_file(PatternKind pattern, const std::string& variant, const std::string& kind, std::string& out);

/// The copies of `text` (a variant's editable copy, or the user's kernel, run like `variant`): the
/// hand-written pair when `variant` has one and `use_hand_written`, else `text` twice with the slides'
/// steps as TODO comments under the header (the signature, header and launch stay the original's).
BoundCopies make_bound_copies(const std::string& variant, PatternKind pattern, const std::string& text,
                              bool use_hand_written);

/// The three requests of a bound search, in the order original, memory-only, compute-only: `base` (n, input,
/// repeat...) with kBoundMetrics, each text as a user's kernel run like `like`, labelled "LIKE (bound: original)",
/// "LIKE (memory-only)", "LIKE (compute-only)" and compiled as FILE_STEM.{bound,memory,compute}.cu.
std::vector<RunRequest> bound_requests(const RunRequest& base, PatternKind pattern, const std::string& like,
                                       const std::string& original, const BoundCopies& copies,
                                       const std::string& file_stem);

/// The three labels bound_requests gives `like`, in its order.
std::vector<std::string> bound_labels(const std::string& like);

/// The table of the three runs (time, x of the original, DRAM bytes, occupancy, check), the fairness checks
/// and the verdict, as the CLI prints it. `runs`: original, memory-only, compute-only.
std::string format_bound(const std::vector<RunResult>& runs, const BoundReading& reading);

/// The same as one JSON object {"format": "warpscope-bound", "runs": [...], "verdict", "reason", "checks"}.
std::string bound_to_json(const std::vector<RunResult>& runs, const BoundReading& reading);

}  // namespace ws
