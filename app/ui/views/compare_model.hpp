// The Compare table's rows, without ImGui: for each compared variant its latest run in a report
// (time, GB/s, % of peak, speedup over a baseline), the CUPTI metrics when the run has them, and
// what the sim model predicts for one block (divergence, bank-conflict ways, atomics), plus the
// "what changed" line between consecutive variants of a lesson.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>
#include "file_write.hpp"

#include "report.hpp"
#include "variant.hpp"

namespace ws::ui {

struct SlideTiming;

/// CUPTI metric names Compare reads from RunResult::metrics (the metric catalog's list).
namespace metric {
inline constexpr const char* kOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kLanesPerInst = "smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio";
inline constexpr const char* kLanesPerInstBare =
    "smsp__average_thread_inst_executed_pred_on_per_inst_executed";  ///< without the .ratio suffix
inline constexpr const char* kSharedLdConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* kSharedLdInst = "smsp__inst_executed_op_shared_ld.sum";
inline constexpr const char* kGlobalAtom = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
inline constexpr const char* kGlobalRed = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
inline constexpr const char* kGlobalAtomInst = "smsp__sass_inst_executed_op_global_atom";  ///< default set (SASS pass)
inline constexpr const char* kGlobalRedInst = "smsp__sass_inst_executed_op_global_red";
}  // namespace metric

/// What the thread-level sim model says about block 0 (a prediction, not a measurement).
struct Predicted {
  bool have = false;
  std::string why;           ///< why there is none (no model, CPU variant, ...)
  double divergent_pct = 0;  ///< divergent warp-steps / active warp-steps x 100, over the trace
  int worst_ways = 0;        ///< the highest n-way shared bank conflict of any step (0 = no shared access)
  int atomics = 0;           ///< atomic operations the block makes
  int longest_chain = 0;     ///< most atomics on one address (serialized)
};

/// The model of `v` on one block (the trace of compute_trace with n = min(n, one block window)).
Predicted predict(const VariantInfo& v, std::int64_t n, DType type);

struct CompareRow {
  std::string variant;
  const RunResult* run = nullptr;  ///< the variant's latest run in the report (nullptr: none)
  bool timed = false;
  double time_ms = 0, gbps = 0, pct_peak = 0;
  double speedup = 0;                      ///< baseline time / this time (0 when either is untimed or n differs)
  std::optional<double> occupancy;         ///< achieved, % of peak warps (CUPTI)
  std::optional<double> lanes;             ///< active lanes per warp instruction (CUPTI)
  std::optional<double> conflicts_per_ld;  ///< shared-load bank conflicts per shared-load instruction
  std::optional<double> atomics;           ///< global atomic + reduction requests (CUPTI)
  Predicted predicted;
  bool best = false;  ///< the highest GB/s among correct runs
  /// The run's check is not ok (race, slide-bug, wrong): its time is of a wrong answer. Marked in the
  /// variant cell and on its bar, never best, no speedup, and left out of the bars' scale.
  bool flagged = false;
  const SlideTiming* slide = nullptr;  ///< the slide's own number for the variant (its GPU), if it prints one
};

/// Rows for `ids` from `report` (latest run of each; for a variant without one, its run at the largest
/// n of the newest sweep that has it), speedups over `baseline` ("" = the first id with a timed,
/// correct run: not racy, not a slide's bug kept on purpose, checked ok). `predicted` supplies the sim predictions
/// by id (missing: none).
std::vector<CompareRow> build_compare(const Report& report, const std::vector<std::string>& ids,
                                      const std::string& baseline, const std::map<std::string, Predicted>& predicted);

/// `ids` with, right after each id, the edited copy's row ("epita.reduce3 (edited)", KernelEdit::run_label)
/// when `report` holds a run of it: the edited kernel compares beside its original.
std::vector<std::string> with_edited_runs(const Report& report, const std::vector<std::string>& ids);

/// Whether `id` may become Compare's baseline without a word: not racy, not a slide's bug kept on purpose,
/// and its latest run in `report` (if any) checked ok. `b` skips the others and says which it skipped.
bool fit_for_baseline(const Report& report, const std::string& id);

/// The variant `b` makes the baseline after `current` among `ids` (in order, wrapping; "" = none chosen
/// yet), skipping those not fit_for_baseline; `skipped` gets their ids. `current` again when none is fit.
std::string next_baseline(const Report& report, const std::vector<std::string>& ids, const std::string& current,
                          std::vector<std::string>& skipped);

/// Columns the bars can show, in the order of compare_metric_names().
enum class CompareMetric {
  GBps,
  TimeMs,
  Speedup,
  PctPeak,
  Occupancy,
  Lanes,
  ConflictsPerLd,
  Atomics,
  PredDivergent,
  PredWays,
  PredAtomics,
  Count
};
const char* const* compare_metric_names();
/// The metric's value in a row, or nullopt when the row has none.
std::optional<double> compare_value(const CompareRow& r, CompareMetric m);

/// "reduce2 -> reduce3: 2.51 -> 1.20 ms (2.1x faster); conflicts per shared load 16 -> 0;
/// predicted worst bank conflict 16-way -> 1-way". Only quantities both rows have and that differ. When
/// either run's check is not ok the times are given without a speedup, and the line says which is wrong.
std::string what_changed(const CompareRow& a, const CompareRow& b);

/// `text` with the spaces inside a quantity made non-breaking (U+00A0), so that wrapped text never
/// parts a number from its unit or from the arrow of a change: "0.409 \u2192 0.073 ms", "12 %",
/// "16-way \u2192 1-way" stay on one line; other spaces are left as they are.
std::string keep_quantities_together(const std::string& text);
/// The mark a flagged row carries where the eye lands first: "WRONG: slide-bug", "WRONG: race",
/// "WRONG" ("" for a row whose check is ok or that has no run).
std::string flag_text(const CompareRow& r);
/// The same mark for one run: "" when its check is ok or it was skipped.
std::string run_flag(const RunResult& r);

}  // namespace ws::ui

namespace ws::ui {
/// The rows as CSV (header + one line per row; empty cells where a value is missing).
std::string compare_csv(const std::vector<CompareRow>& rows);
/// A sweep as CSV: variant,n,status,time_ms,gbps,pct_theoretical (empty cells when untimed).
std::string sweep_csv(const Sweep& s);
/// Writes `text` to `path` (write_file_atomic; `policy`: what may be replaced there); returns "" or one line.
std::string write_text_file(const std::string& path, const std::string& text, const OutputPolicy& policy);
}  // namespace ws::ui
