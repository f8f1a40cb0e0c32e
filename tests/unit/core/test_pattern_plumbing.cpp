// The array-pattern plumbing (docs/patterns.md): element-wise checks, output text, report JSON, CLI options.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "launch_rules.hpp"
#include "patterns.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "request.hpp"
#include "sim/sim.hpp"

using namespace ws;

namespace {
ArrayOutput arr(std::vector<double> v, std::int64_t rows = 0, std::int64_t cols = 0) {
  ArrayOutput a;
  a.values = std::move(v);
  a.rows = rows;
  a.cols = rows ? cols : std::int64_t(a.values.size());
  return a;
}
std::string read_all(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
int cli(const std::string& args, std::string& out) {
  std::string cmd = std::string(WS_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  out.clear();
  while (p && fgets(buf.data(), buf.size(), p)) out += buf.data();
  int status = p ? pclose(p) : -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

TEST(PatternPlumbing, CompareOutputsNamesTheFirstMismatch) {
  EXPECT_EQ(compare_outputs(DType::Int32, arr({1, 2, 3}), arr({1, 2, 3})), "");
  EXPECT_EQ(compare_outputs(DType::Int32, arr({1, 5, 7}), arr({1, 6, 7})), "out[1] = 5, expected 6");
  EXPECT_EQ(compare_outputs(DType::Int32, arr({1, 2}), arr({1, 2, 3})), "output has 2 elements, expected 3");
  EXPECT_EQ(compare_outputs(DType::Int32, arr({1, 2, 3, 4, 5, 9}, 2, 3), arr({1, 2, 3, 4, 5, 6}, 2, 3)),
            "out[1][2] = 9, expected 6");
  // float32: relative to |want| by default, or to a given scale per element.
  EXPECT_EQ(compare_outputs(DType::Float32, arr({1.000001}), arr({1.0})), "");
  EXPECT_NE(compare_outputs(DType::Float32, arr({1.01}), arr({1.0})), "");
  EXPECT_EQ(compare_outputs(DType::Float32, arr({0.01}), arr({0.0}), std::vector<double>{1000.0}, 1e-4), "");
  EXPECT_NE(compare_outputs(DType::Float32, arr({std::nan("")}), arr({0.0})), "");
}

TEST(PatternPlumbing, OutputTextIsOneValuePerLineOrOneRowPerLine) {
  const std::string path = ::testing::TempDir() + "/ws_output.txt";
  RunResult r;
  r.type = DType::Int32;
  r.output = {3, 4, -11};
  ASSERT_EQ(write_output_text(r, path), "");
  EXPECT_EQ(read_all(path), "3\n4\n-11\n");
  r.type = DType::Float32;
  r.output = {0.5, 1, 2, 3.25, 4, 5};
  r.output_rows = 2;
  r.output_cols = 3;
  ASSERT_EQ(write_output_text(r, path), "");
  EXPECT_EQ(read_all(path), "0.5 1 2\n3.25 4 5\n");
  EXPECT_NE(write_output_text(r, "/nonexistent-dir/x.txt"), "");
}

TEST(PatternPlumbing, ReportJsonCarriesSmallOutputsOnly) {
  RunResult r;
  r.variant = "x.y";
  r.backend = BackendKind::Sim;
  r.status = RunStatus::Ok;
  r.type = DType::Int32;
  r.output = {1, 2, 3, 4, 5, 6};
  r.output_rows = 2;
  r.output_cols = 3;
  r.params.exclusive = true;
  nlohmann::json j = run_to_json(r);
  EXPECT_EQ(j["params"]["exclusive"], true);
  EXPECT_TRUE(run_from_json(j).params.exclusive);
  ASSERT_TRUE(j.contains("output"));
  EXPECT_EQ(j["output"].dump(), "[[1,2,3],[4,5,6]]");
  EXPECT_EQ(j["output_rows"], 2);
  RunResult back = run_from_json(j);
  EXPECT_EQ(back.output, r.output);
  EXPECT_EQ(back.output_cols, 3);
  r.output.assign(kMaxJsonOutput + 1, 7.0);
  r.output_rows = 0;
  r.output_cols = std::int64_t(r.output.size());
  j = run_to_json(r);
  EXPECT_FALSE(j.contains("output"));
  EXPECT_EQ(j["output_cols"], std::int64_t(kMaxJsonOutput + 1));
  RunResult reduction;
  reduction.variant = "a.b";
  reduction.backend = BackendKind::Cuda;
  reduction.status = RunStatus::Ok;
  EXPECT_FALSE(run_to_json(reduction).contains("output_rows"));  // reductions: unchanged JSON
}

TEST(PatternPlumbing, ClassifyArray) {
  RunResult r;
  classify(r, "", false);
  EXPECT_EQ(r.status, RunStatus::Ok);
  EXPECT_TRUE(r.correct);
  classify(r, "out[1] = 5, expected 6", false);
  EXPECT_EQ(r.status, RunStatus::Wrong);
  EXPECT_FALSE(r.correct);
  EXPECT_EQ(r.message, "wrong output: out[1] = 5, expected 6");
  r.racy = true;
  classify(r, "out[0] = 1, expected 2", false);
  EXPECT_EQ(r.status, RunStatus::Race);
  EXPECT_EQ(r.message, "race: out[0] = 1, expected 2");
}

TEST(PatternPlumbing, ClassifyScalar) {
  RunResult r;
  classify(r, "expected 5, got 4", true);
  EXPECT_EQ(r.status, RunStatus::Wrong);
  EXPECT_EQ(r.message, "wrong result: expected 5, got 4");
  r.cautionary = true;
  classify(r, "expected 5, got 4", true, true, 4);
  EXPECT_EQ(r.status, RunStatus::SlideBug);
  EXPECT_EQ(r.message, "slide bug reproduced: expected 5, got 4 = what the slide's code computes (4)");
}

TEST(PatternPlumbing, EveryPatternIsRegisteredOnce) {
  EXPECT_EQ(all_patterns().size(), 4u);
  for (std::size_t i = 0; i < all_patterns().size(); ++i) {
    const PatternSpec& p = all_patterns()[i];
    EXPECT_EQ(find_pattern(p.kind), &p) << p.kind;
    EXPECT_EQ(p.kind, PatternKind(i)) << "all_patterns() lists the specs in PatternKind's (teaching) order";
  }
  EXPECT_TRUE(find_pattern(PatternKind::Reduction)->scalar_result);
  EXPECT_EQ(find_pattern(PatternKind::Fixture), nullptr) << "only a test registers the fixture pattern";
}

TEST(PatternPlumbing, PatternOptionsAreValidated) {
  RunRequest req;
  req.variant = "epita.reduce3";
  req.params.exclusive = true;
  PreparedRun p;
  EXPECT_NE(prepare_run(req, p).find("--exclusive applies to scans only"), std::string::npos);
  req.params.exclusive = false;
  req.params.output_path = "x.txt";
  EXPECT_NE(prepare_run(req, p).find("is a reduction"), std::string::npos);
  EXPECT_NE(find_pattern(PatternKind::Scan), nullptr);
  std::string out;
  for (const char* bad : {"--mask-width 0", "--tile -1", "--width -3", "--keep 1.5", "--keep -0.1", "--height -1"}) {
    EXPECT_EQ(cli(std::string("run --variant epita.reduce3 --backend sim ") + bad, out), 2) << bad << ": " << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << bad << ": " << out;
  }
  EXPECT_EQ(cli("run --variant epita.reduce3 --backend sim --mask-width abc", out), 2) << out;
  EXPECT_EQ(cli("run --variant epita.reduce3 --backend sim --exclusive", out), 2) << out;
  EXPECT_NE(out.find("scans only"), std::string::npos) << out;
}

namespace ws {
namespace {

TEST(PatternPlumbing, PrepareRunResolvesTheLaunchOnceForAGivenDevice) {
  RunRequest req;
  req.variant = "cs121.device_reduce";  // grid-stride: the grid depends on the device
  req.n = 1 << 16;
  req.backend = BackendKind::Sim;
  const DeviceShape shape{132, 2048};
  PreparedRun p;
  ASSERT_EQ(prepare_run(req, p, nullptr, &shape), "");
  EXPECT_TRUE(p.launch_final);
  LaunchConfig want;
  ASSERT_EQ(resolve_launch(*p.variant, req.n, DType::Int32, req.launch, shape, want), "");
  EXPECT_EQ(p.launch.block, want.block);
  EXPECT_EQ(p.launch.grid, want.grid);
  PreparedRun q;  // without a shape: validated, the grid left to the device
  ASSERT_EQ(prepare_run(req, q), "");
  EXPECT_FALSE(q.launch_final);
  EXPECT_EQ(q.launch.grid, 0);
  const RunResult r = execute_prepared(req, p, nullptr);
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
}

}  // namespace
}  // namespace ws
