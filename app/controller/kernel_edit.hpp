// The Source view's editor of a variant's kernel ("Edit a copy"): the text being edited, what the compiler
// said about it (on its lines), and the intents the view writes (compile, run). No ImGui: the editor's
// drawing (app/ui/editor) reads and writes this model; making the copy from the embedded source is
// app/controller/kernel_copy. Compiling here needs no GPU (NVRTC, kernel_compile.hpp) and runs on a thread of
// its own; running goes through the GUI's run queue as a RunRequest carrying the kernel, the same path as
// `warpscope-cli run --kernel FILE --like VARIANT`.
#pragma once
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exercises.hpp"
#include "kernel_compile.hpp"
#include "run_types.hpp"
#include "trace/trace.hpp"
#include "user_kernel.hpp"

namespace ws::controller {

/// Diagnostics read back from `FILE:LINE: severity: message` lines (format_diagnostics' form, which a run's
/// message carries when the worker's compile failed or warned); lines of other forms are skipped. `file`
/// is the program name: its lines keep their number, lines of other files get line 0 and keep the name.
std::vector<KernelDiagnostic> parse_diagnostic_lines(const std::string& text, const std::string& file);

/// Byte offset of the start of 1-based `line` in `text` (text.size() past the end; 0 for line <= 1).
std::size_t line_start_offset(const std::string& text, int line);

/// 1-based line of byte offset `pos` in `text`.
int line_of_offset(const std::string& text, std::size_t pos);

/// The next occurrence of `needle` in `text` at or after `from`, wrapping to the start; case-insensitive
/// when `ignore_case`. std::string::npos when there is none (or `needle` is empty).
std::size_t find_text(const std::string& text, const std::string& needle, std::size_t from, bool ignore_case);

/// Where edited copies are kept so that no text is lost: $XDG_DATA_HOME/warpscope/edits, else
/// ~/.local/share/warpscope/edits. "" when neither HOME nor XDG_DATA_HOME is set.
std::string edits_dir();

/// The exercises (assets/exercises, load_exercises), read once; problems in the files leave an exercise out.
const std::vector<Exercise>& gui_exercises();

/// The exercises a student opens from `variant_id`'s Source view: those whose `like` is the variant, or whose
/// `reference` is when they have no `like`.
std::vector<const Exercise*> exercises_of(const std::string& variant_id);

/// The editor's model: one copy of one variant, or one exercise, at a time.
class KernelEdit {
 public:
  KernelEdit();
  ~KernelEdit();
  KernelEdit(const KernelEdit&) = delete;
  KernelEdit& operator=(const KernelEdit&) = delete;

  /// Opens `original` (the copy as made from the variant) for `variant` of `pattern`: the text is the
  /// copy saved in `save_dir` (edits_dir() when "", none when "-") if there is one, else `original`.
  /// `note`: one line about the copy (kept for the view). Clears diagnostics and results.
  void open(const std::string& variant, PatternKind pattern, const std::string& original, const std::string& note,
            const std::string& save_dir = "");
  /// Opens exercise `ex` (exercises.hpp): its starter.cu (or the copy saved in `save_dir`, as open()), run with
  /// the launch of its `like` variant (else its reference's). Ctrl+Enter is then check(): the grading of
  /// `warpscope-cli grade`. Returns "" or why the starter cannot be read (the editor stays as it was).
  std::string open_exercise(const Exercise& ex, const std::string& save_dir = "");
  /// The exercise open in the editor, or nullptr when it holds a variant's copy.
  const Exercise* exercise() const { return exercise_ ? &*exercise_ : nullptr; }

  /// Closes the editor (the text stays saved).
  void close() { open_ = false; }
  bool is_open() const { return open_; }

  const std::string& variant() const { return variant_; }
  PatternKind pattern() const { return pattern_; }
  const std::string& original() const { return original_; }
  const std::string& note() const { return note_; }
  /// The program name compiler messages and per-line metrics use: "reduce3.edited.cu" for epita.reduce3,
  /// "reduce2_to_reduce3.cu" for the exercise epita.reduce2_to_reduce3.
  std::string file() const;
  /// The name the edited run carries in results and Compare: "epita.reduce3 (edited)".
  std::string run_label() const;
  /// True when the text came back from the save folder (an earlier session's edit).
  bool restored() const { return restored_; }
  /// Where the text is saved ("" when it is not).
  const std::string& save_path() const { return save_path_; }

  /// The text as edited; call changed() after writing it.
  std::string text;

  // Intents for the Source view's next frame (the command line's --edit, --edit-text, --edit-run).
  bool request_open = false;     ///< open the editor on the selected variant
  std::string request_text;      ///< with request_open: this text instead of the copy ("" = the copy)
  std::string request_exercise;  ///< with request_open: open this exercise (its id) instead of the variant's copy
  bool request_run = false;      ///< compile and run (Ctrl+Enter) once the editor is open
  /// Notes an edit: the text is saved at once, or within a second when the previous save was under a second
  /// ago (poll() saves it). Returns "" or why the save failed (the view says so; the text stays in memory).
  std::string changed();
  /// Saves the text now if an edit is not saved yet. Returns "" or why the save failed.
  std::string save();
  /// Why the latest save failed ("" when it did not).
  const std::string& save_error() const { return save_error_; }
  /// Puts the original copy back (saved too).
  void reset();
  /// Writes the text to `path` (a .cu file of the user's; an existing regular file is replaced). Returns ""
  /// or one line naming the path and the reason.
  std::string save_as(const std::string& path) const;
  /// Replaces the text with the file at `path` (at most kMaxKernelSourceBytes; undo does not reach past it).
  /// Returns "" or one line; the text is unchanged on failure.
  std::string open_file(const std::string& path);

  /// Starts compiling the text for sm_<cc> on a thread (NVRTC needs no GPU). Ignored while one runs.
  void compile(int cc_major = 9, int cc_minor = 0);
  /// True while a compile started by compile() runs.
  bool compiling() const;
  /// Takes a finished compile's result into diagnostics() and status(); true when one finished. Call once
  /// per frame; wait_ms > 0 blocks up to that long (tests, headless pictures).
  bool poll(int wait_ms = 0);

  /// The request that runs the text as `variant` would run with `base` (the parameters' request for the
  /// variant: n, block, input, repeat, metrics): the kernel attached, `like` = the variant.
  RunRequest run_request(RunRequest base) const;
  /// Notes that a run of the text was queued while the session held `runs` (take_run() takes its result).
  void run_queued(const std::vector<RunResult>& runs);
  /// The texts behind an edited run: the copy as made from the variant, and the text that ran.
  struct RanText {
    std::string original, text;
  };
  /// What the latest run queued under `label` (run_label(): "epita.reduce3 (edited)") ran, for Compare's code
  /// diff against the original; nullptr when no such run was queued in this session (a replayed report's).
  const RanText* ran_text(const std::string& label) const;
  /// True while a queued run's result, or a check's, has not come back.
  bool running() const { return run_pending_ || checking(); }
  /// Takes the edited run's result when `runs` (the session's) holds a new run named run_label():
  /// its compiler messages become diagnostics(), its check status(). True when it did.
  bool take_run(const std::vector<RunResult>& runs);

  /// Starts checking the text against the open exercise (the Check button): a Grading whose requests
  /// next_check_request() hands to the run queue one at a time. Ignored without an exercise or while one runs.
  void check();
  /// True while a check has not given its verdict.
  bool checking() const { return grading_.has_value(); }
  /// The check's next request for the run queue, once (nullopt while its previous one runs, or none).
  std::optional<RunRequest> next_check_request();
  /// Offers a finished run to the check: true when it is the check's (the caller keeps it out of the session's
  /// runs: the hidden cases are not shown), including late results of a check no longer waited for.
  bool take_check_result(const RunResult& r);
  /// Ends a check whose queued request may have been dropped (Cancel): the status says so.
  void cancel_check();
  /// The latest check's verdicts (nullptr before any): one per check, as `warpscope-cli grade` prints them.
  const GradeReport* grade() const { return grade_ ? &*grade_ : nullptr; }
  /// The latest check's progress, e.g. "checking: 3 of 9 runs" ("" when none runs).
  std::string check_progress() const;

  /// The step views' trace of an edit (docs/your-kernel.md, "Step views of an edited copy"): what the edited
  /// kernel did on the GPU, or why the views show none (never the original's trace as the edit's).
  struct StepTrace {
    std::string text;            ///< the text it is of
    int block_index = 0;         ///< the block it recorded
    std::optional<Trace> trace;  ///< recorded on the GPU; empty: `why` says why
    std::string why;
  };
  /// The copy with the variant's trace instrumentation (traced_kernel_copy(); "" = none), set by the view that
  /// opens the copy (open() clears it).
  void set_traced_copy(std::string traced) { traced_ = std::move(traced); }
  const std::string& traced_copy() const { return traced_; }
  /// Replaces the step trace (app/controller/edit_step_trace); bumps step_trace_generation().
  void set_step_trace(StepTrace t);
  /// The latest step trace, nullptr before any.
  const StepTrace* step_trace() const { return step_trace_ ? &*step_trace_ : nullptr; }
  /// Counts set_step_trace() calls, so the step views recompute when it changes.
  int step_trace_generation() const { return step_trace_generation_; }
  /// Whether the step views of `variant_id` show the edit's steps rather than the variant's: the editor holds a
  /// copy of that variant (not an exercise) whose text differs from the copy as made.
  bool steps_are_the_edits(const std::string& variant_id) const;
  /// The text a trace was asked for and has not come back ("" = none).
  std::string trace_pending;

  /// Compiler messages of the latest compile or run, on the text's lines (line 0: no line).
  const std::vector<KernelDiagnostic>& diagnostics() const { return diagnostics_; }
  /// Counts the times diagnostics() was replaced (by a compile or a run), so a view can react to new ones.
  int diagnostics_generation() const { return diagnostics_generation_; }
  /// Errors and warnings on each line, for the margin: 0 none, 1 warning, 2 error (index = line - 1).
  std::vector<int> line_marks() const;
  /// One line: what the latest compile or run gave ("compiled in 0.31 s, 2 warnings", "ran: ok, 0.12 ms",
  /// "wrong result: ..."); "" before any.
  const std::string& status() const { return status_; }
  /// Whether status() reports a failure (compile error, wrong result, fault).
  bool status_bad() const { return status_bad_; }

 private:
  /// open()'s work, the saved copy named `save_name` (a file name) in the save folder.
  void open_as(const std::string& variant, PatternKind pattern, const std::string& original, const std::string& note,
               const std::string& save_dir, const std::string& save_name);
  /// Forgets the latest compile's and run's messages and status (a new text or copy).
  void clear_results();
  bool open_ = false;
  std::string traced_;
  std::optional<StepTrace> step_trace_;
  int step_trace_generation_ = 0;
  std::optional<Exercise> exercise_;
  std::optional<Grading> grading_;
  bool check_sent_ = false;  ///< grading_'s next request is in the run queue
  std::optional<GradeReport> grade_;
  std::map<std::string, RanText> ran_texts_;  ///< by run label, the latest queued
  int checks_ = 0;  ///< checks started: each one's runs carry their own label ("ID (check 3)")
  std::string variant_, original_, note_, save_path_;
  PatternKind pattern_ = PatternKind::Reduction;
  bool restored_ = false;
  std::vector<KernelDiagnostic> diagnostics_;
  int diagnostics_generation_ = 0;
  std::string status_;
  bool status_bad_ = false;
  std::future<CompileResult> compile_;
  std::string compiled_text_;
  bool run_pending_ = false;
  std::size_t runs_before_ = 0;  ///< runs named run_label() in the session when the run was queued
  bool dirty_ = false;
  double last_save_s_ = -1e9;
  std::string save_error_;
};

}  // namespace ws::controller
