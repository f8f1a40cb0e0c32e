// Exercises and `warpscope-cli grade` without a GPU: every lesson has an exercise, the files load, and
// grade's verdicts come through a worker whose backend is synthetic (ws_synthetic_kernel_worker: reference
// answers and made-up times; SYNTH_* markers in a kernel stand for a compile error, a wrong answer, a
// slow kernel). The GPU grades the real kernels in tests/gpu/test_gpu_user_kernel.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "exercises.hpp"
#include "lessons.hpp"
#include "paths.hpp"
#include "unit/cli/cli_runner.hpp"
#include "user_kernel.hpp"

using namespace ws;
using ws::test::run_cli;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A copy of `ex`'s solution with `marker` in a comment on its second line, in a temporary file.
std::string solution_with(const Exercise& ex, const std::string& marker) {
  std::string src = read_text(ex.solution_path);
  const std::size_t nl = src.find('\n');
  src.insert(nl + 1, "// " + marker + "\n");
  const std::string path = testing::TempDir() + "grade_" + std::to_string(getpid()) + "_" + marker + ".cu";
  std::ofstream(path) << src;
  return path;
}

std::string grade(const std::string& id, const std::string& file, const std::string& extra = "") {
  setenv("WARPSCOPE_CLI", WS_SYNTHETIC_KERNEL_WORKER, 1);
  return "grade --exercise " + id + " --kernel " + file + " --gpu local " + extra;
}

}  // namespace

TEST(Exercises, EveryLessonHasOneAndEveryFileLoads) {
  std::vector<std::string> problems;
  const std::vector<Exercise> all = load_exercises("", &problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
  std::set<std::string> lessons_with;
  for (const Exercise& e : all) {
    lessons_with.insert(e.lesson);
    EXPECT_FALSE(e.cases.empty()) << e.id;
    EXPECT_FALSE(e.hints.empty()) << e.id;
    EXPECT_NE(read_text(e.starter_path).find("TODO"), std::string::npos) << e.id << ": the part to write is marked";
    EXPECT_FALSE(read_text(e.solution_path).empty()) << e.id;
    if (e.min_speed > 0) EXPECT_FALSE(e.reference.empty()) << e.id;
  }
  for (const Lesson& l : load_lessons(assets_dir() + "/lessons"))
    EXPECT_TRUE(lessons_with.count(l.id)) << "lesson " << l.id << " has no exercise";
}

TEST(Exercises, BadFilesAreNamed) {
  const std::string dir = testing::TempDir() + "ws_exercises_" + std::to_string(getpid());
  std::system(("rm -rf " + dir + " && mkdir -p " + dir + "/x.bad").c_str());
  std::ofstream(dir + "/x.bad/exercise.json") << R"({"id":"x.bad","lesson":"epita","pattern":"reduction",
    "title":"t","statement":"s","reference":"epita.nope","cases":[{"n":1}]})";
  std::ofstream(dir + "/x.bad/starter.cu") << "// TODO\n";
  std::vector<std::string> problems;
  EXPECT_TRUE(load_exercises(dir, &problems).empty());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "exercise x.bad: unknown variant 'epita.nope'");
  std::system(("rm -rf " + dir).c_str());
}

TEST(GradeCli, TheSolutionPassesEveryCheck) {
  const auto all = load_exercises();
  const Exercise* ex = find_exercise(all, "epita.reduce2_to_reduce3");
  ASSERT_NE(ex, nullptr);
  const auto out = run_cli(grade(ex->id, ex->solution_path));
  EXPECT_EQ(out.code, 0) << out.out;
  EXPECT_NE(out.out.find("PASS compiles"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("PASS case 5: correct"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("PASS speed: 1.00x of epita.reduce3's speed (goal >= 0.80x)"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("PASSED epita.reduce2_to_reduce3: 7 of 7 checks on synthetic test device"), std::string::npos)
      << out.out;
}

TEST(GradeCli, AWrongKernelFailsItsCasesWithoutShowingThem) {
  const auto all = load_exercises();
  const Exercise* ex = find_exercise(all, "epita.reduce2_to_reduce3");
  ASSERT_NE(ex, nullptr);
  const auto out = run_cli(grade(ex->id, solution_with(*ex, "SYNTH_WRONG")));
  EXPECT_EQ(out.code, 1) << out.out;
  EXPECT_NE(out.out.find("PASS compiles"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("FAIL case 1: wrong result"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("SKIP speed: not run: the submission must be correct first"), std::string::npos) << out.out;
  EXPECT_NE(out.out.find("NOT PASSED"), std::string::npos) << out.out;
  for (const ExerciseCase& c : ex->cases)  // hidden: no case's size appears
    if (c.n > 9) EXPECT_EQ(out.out.find(std::to_string(c.n) + " "), std::string::npos) << c.n << "\n" << out.out;
}

TEST(GradeCli, ACompileErrorStopsTheGrading) {
  const auto all = load_exercises();
  const Exercise* ex = find_exercise(all, "harris.warp_unroll");
  ASSERT_NE(ex, nullptr);
  const std::string file = solution_with(*ex, "SYNTH_COMPILE_ERROR");
  const auto out = run_cli(grade(ex->id, file));
  EXPECT_EQ(out.code, 1) << out.out;
  EXPECT_NE(out.out.find("FAIL compiles: " + file + ":2: error: synthetic compile error"), std::string::npos)
      << out.out;
  EXPECT_NE(out.out.find("SKIP case 1: not run"), std::string::npos) << out.out;
}

TEST(GradeCli, ASlowKernelFailsTheSpeedGoalAndJsonSaysSo) {
  const auto all = load_exercises();
  const Exercise* ex = find_exercise(all, "cs121.privatized_histogram");
  ASSERT_NE(ex, nullptr);
  const auto out = run_cli(grade(ex->id, solution_with(*ex, "SYNTH_SLOW"), "--json"));
  EXPECT_EQ(out.code, 1) << out.out;
  const std::size_t brace = out.out.find("{\n");  // after the worker's line on stderr
  ASSERT_NE(brace, std::string::npos) << out.out;
  const nlohmann::json j = nlohmann::json::parse(out.out.substr(brace));
  EXPECT_FALSE(j["passed"].get<bool>());
  EXPECT_NEAR(j["speed_ratio"].get<double>(), 1.0 / 3, 0.01);
  const auto& checks = j["checks"];
  ASSERT_FALSE(checks.empty());
  EXPECT_EQ(checks.back()["name"], "speed");
  EXPECT_FALSE(checks.back()["passed"].get<bool>());
  EXPECT_TRUE(checks[1]["passed"].get<bool>());
}

TEST(GradeCli, UnknownExerciseAndMissingOptions) {
  auto out = run_cli("grade --exercise nope.nothing --kernel /dev/null");
  EXPECT_EQ(out.code, 2) << out.out;
  EXPECT_NE(out.out.find("unknown exercise 'nope.nothing' (exercises: amp.cascade, "), std::string::npos) << out.out;
  out = run_cli("grade --exercise amp.cascade");
  EXPECT_EQ(out.code, 2) << out.out;
  EXPECT_NE(out.out.find("grade needs --exercise ID and --kernel FILE.cu"), std::string::npos) << out.out;
}

// The steps a GUI's Check takes one frame at a time: the requests in order, each answered by its own result.
TEST(Grading, StepsThroughTheCasesThenAlternatesReferenceAndSubmission) {
  const auto all = load_exercises();
  const Exercise* ex = find_exercise(all, "epita.reduce2_to_reduce3");
  ASSERT_NE(ex, nullptr);
  Grading g(*ex, "// src\n", "mine.cu");
  std::vector<std::string> order;
  while (const RunRequest* r = g.next()) {
    RunResult res;
    res.variant = r->kernel.empty() ? r->variant : user_kernel_label(r->kernel);
    res.n = r->n;
    res.status = RunStatus::Ok;
    res.timed = true;
    res.timing.median_ms = r->kernel.empty() ? 2.0 : 1.0;  // the submission twice as fast
    res.device = "test";
    EXPECT_TRUE(g.answers(res));
    RunResult other = res;
    other.variant = "epita.reduce3 (edited)";  // the editor's own run: not the grading's
    EXPECT_FALSE(g.answers(other));
    order.push_back(r->kernel.empty() ? "ref " + std::to_string(r->n) : "mine " + std::to_string(r->n));
    g.take(res);
  }
  ASSERT_EQ(order.size(), ex->cases.size() + 4);
  EXPECT_EQ(order[0], "mine " + std::to_string(ex->cases[0].n));
  const std::string n = std::to_string(ex->speed_n);
  EXPECT_EQ(std::vector<std::string>(order.end() - 4, order.end()),
            (std::vector<std::string>{"ref " + n, "mine " + n, "ref " + n, "mine " + n}));
  EXPECT_TRUE(g.done());
  EXPECT_TRUE(g.report().passed());
  EXPECT_DOUBLE_EQ(g.report().speed_ratio, 2.0);
  EXPECT_EQ(g.runs_done(), g.runs_most());
}

TEST(Grading, AFaultStopsTheCasesAndItsRunStillAnswers) {
  const auto all = load_exercises();
  const Exercise* ex = find_exercise(all, "harris.warp_unroll");
  ASSERT_NE(ex, nullptr);
  Grading g(*ex, "// src\n", "mine.cu");
  const RunRequest* r = g.next();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->repeat, 1);
  // A worker that died with the kernel: the run did not happen, and carries the grading's name.
  const RunResult fault = unrun_result(*r, RunStatus::Faulted, "the worker died (signal 11)");
  EXPECT_EQ(fault.variant, g.kernel_run_label());
  ASSERT_TRUE(g.answers(fault));
  g.take(fault);
  EXPECT_TRUE(g.done());
  EXPECT_EQ(g.next(), nullptr);
  const GradeReport& rep = g.report();
  ASSERT_EQ(rep.checks.size(), ex->cases.size() + 2);  // compiles, the cases, speed
  EXPECT_TRUE(rep.checks[0].passed);
  EXPECT_NE(rep.checks[1].detail.find("faulted"), std::string::npos) << rep.checks[1].detail;
  EXPECT_FALSE(rep.checks[2].ran);
  EXPECT_FALSE(rep.checks.back().ran);
  EXPECT_FALSE(rep.passed());
}
