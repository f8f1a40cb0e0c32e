// Exercises (docs/your-kernel.md, "Exercises"): a lesson's step for students to write, graded on a GPU.
// Each lives in assets/exercises/<id>/: exercise.json (statement, goal, hidden cases, hints), starter.cu
// (the kernel with the part to write marked TODO) and solution.cu (the tests grade it; never shown).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pattern_kind.hpp"
#include "run_types.hpp"

namespace ws {

/// One hidden case: the input a submission must get right. Never printed by grade.
struct ExerciseCase {
  std::int64_t n = 0;
  std::string input = "random";  ///< random | ones | sequence
  std::uint64_t seed = 1;
};

/// An exercise as its exercise.json describes it.
struct Exercise {
  std::string id;                                ///< e.g. "epita.reduce2_to_reduce3" (its folder's name)
  std::string lesson;                            ///< the lesson it belongs to (assets/lessons/<lesson>.json)
  PatternKind pattern = PatternKind::Reduction;  ///< whose kernel contract the submission follows
  std::string title;
  std::string statement;            ///< what to do, a paragraph
  std::string like;                 ///< variant whose launch and name the submission takes ("" = the header's)
  std::string reference;            ///< the variant the speed is compared with, in the same process
  double min_speed = 0;             ///< the submission's time must be <= reference time / min_speed (0: no speed check)
  std::int64_t speed_n = 0;         ///< n of the speed check
  std::vector<ExerciseCase> cases;  ///< hidden: correctness on each
  std::vector<std::string> hints;
  std::string starter_path, solution_path;  ///< absolute paths of starter.cu and solution.cu
};

/// Reads every assets/exercises/<id>/exercise.json under `dir` (assets_dir()/exercises by default),
/// sorted by id. Problems (bad JSON, unknown pattern or variant, no case) go to `problems` as
/// "exercise ID: ..." lines and that exercise is left out.
std::vector<Exercise> load_exercises(const std::string& dir = "", std::vector<std::string>* problems = nullptr);

/// The exercise `id` of load_exercises(), or nullptr.
const Exercise* find_exercise(const std::vector<Exercise>& all, const std::string& id);

/// One check of a grading: "compiles", "case 3", "speed", with its verdict and a line of evidence
/// (for hidden cases, never their input or expected values).
struct GradeCheck {
  std::string name;
  bool passed = false;
  bool ran = true;  ///< false: skipped because an earlier check failed (compile error, fault)
  std::string detail;
};

/// A grading: every check, and whether all passed.
struct GradeReport {
  std::string exercise, file, device;
  std::vector<GradeCheck> checks;
  double speed_ratio = 0;  ///< reference median / submission median, measured in the same process (0: none)
  bool passed() const;
};

/// A grading run one request at a time, so that the CLI (which waits for each run) and the GUI (whose runs
/// come back through its run queue, a frame later) grade by the same steps: the hidden cases in order (the
/// first one's compile error stops the grading, a fault stops the cases), then, when they all pass, the
/// reference variant and the submission at ex.speed_n, alternately twice, each timed by the run path
/// (median of its repeats); the ratio of the faster medians must be >= ex.min_speed.
class Grading {
 public:
  /// Starts grading `source` (a .cu named `file`) against `ex` (copied: the grading outlives the caller's list);
  /// `label`: the name of the submission's runs ("" = "ID (check)").
  Grading(const Exercise& ex, std::string source, std::string file, std::string label = "");
  /// The request to run next; nullptr when the grading is over. The same request until take() is called.
  const RunRequest* next() const { return done_ ? nullptr : &pending_; }
  /// Whether `r` is the result of next()'s request: a run of the submission carries kernel_run_label(); the
  /// reference's run is any run of the reference variant at the speed check's n (an equal measurement).
  bool answers(const RunResult& r) const;
  /// The name the submission's runs carry in results ("epita.reduce2_to_reduce3 (check)", or the label given),
  /// so a GUI tells them from its other runs and keeps the hidden cases out of its tables.
  std::string kernel_run_label() const { return label_.empty() ? ex_.id + " (check)" : label_; }
  /// Takes the result of next()'s request (from the backend or a worker; never a different request's).
  void take(const RunResult& r);
  bool done() const { return done_; }
  /// Requests taken so far, and at most how many the grading runs (cases + 4 speed runs): for a progress line.
  int runs_done() const { return runs_done_; }
  int runs_most() const;
  /// What the checks say so far; once done(), the whole verdict.
  const GradeReport& report() const { return g_; }
  const Exercise& exercise() const { return ex_; }

 private:
  RunRequest case_request(std::size_t i) const;
  void start_speed();
  void finish();
  Exercise ex_;
  std::string source_, file_, label_;
  GradeReport g_;
  GradeCheck compiles_{"compiles", false, true, ""};
  std::vector<GradeCheck> cases_;
  RunRequest pending_;
  bool done_ = false;
  bool stop_ = false;     ///< a compile error or a fault: the remaining cases are not run
  std::size_t case_ = 0;  ///< the case pending_ runs, while in the cases
  int speed_step_ = -1;   ///< -1: cases; 0..3: reference, submission, reference, submission
  double best_mine_ = 0, best_ref_ = 0;
  int runs_done_ = 0;
};

/// Grades `source` (a .cu named `file`) against `ex` with a Grading whose requests `run` runs where the GPU is
/// (in-process backend or a worker; it never throws), each in turn.
GradeReport grade_exercise(const Exercise& ex, const std::string& source, const std::string& file,
                           const std::function<RunResult(const RunRequest&)>& run);

/// The report for people: one line per check ("PASS compiles", "FAIL case 2: wrong result"), then the
/// verdict line.
std::string format_grade(const GradeReport& g);

/// The report as JSON: {"exercise","file","device","passed","speed_ratio","checks":[{"name","passed","ran","detail"}]}.
std::string grade_to_json(const GradeReport& g);

}  // namespace ws
