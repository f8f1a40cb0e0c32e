// warpscope-cli against hostile options and names, second round: floating options, conflicting mask
// options, non-UTF-8 titles and file names, traced runs checked like runs, duplicate keys in the worker.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "unit/cli/cli_runner.hpp"

using ws::test::run_cli;
namespace fs = std::filesystem;

namespace {

std::string temp(const std::string& name) { return ::testing::TempDir() + "ws_cli_hostile_" + name; }

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(CliExitCodes, NanInfinitiesAndEmptyNumbersAreRefused) {
  const std::string run = "run --variant epita.reduce3 --backend sim --n 2^10 ";
  for (const auto& [args, says] : std::initializer_list<std::pair<std::string, std::string>>{
           {"--watchdog nan", "--watchdog: must be a number of seconds"},
           {"--watchdog inf", "--watchdog: must be a number of seconds"},
           {"--watchdog 1e309", "--watchdog: must be a number of seconds"},
           {"--watchdog 9223372036854775808", "--watchdog: must be a number of seconds"},
           {"--connect-timeout inf", "--connect-timeout: must be a number of seconds"},
           {"--keep nan", "--keep: must be a number in 0..1"},
           {"--keep ''", "--keep: must be a number in 0..1"},
           {"--seed ''", "an empty value is not a number"},
           {"--warmup ''", "an empty value is not a number"}}) {
    const auto r = run_cli(run + args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << args << ": " << r.out;
    EXPECT_EQ(ws::test::count_lines(r.out), 1) << args << ": " << r.out;
  }
}

TEST(CliExitCodes, AMaskFileBesideAMaskWidthIsRefused) {
  const std::string mask = temp("mask9.txt");
  std::ofstream(mask) << "1 1 1 1 1 1 1 1 1\n";
  const auto r =
      run_cli("run --variant stevens.conv1d_basic --backend sim --width 256 --mask " + mask + " --mask-width 3");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--mask-width 3 conflicts with --mask"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli("run --variant stevens.conv1d_basic --backend sim --width 256 --mask " + mask).code, 0);
}

TEST(CliExitCodes, ARunRecordsOnlyTheParamsItReadsAndTheMaskFilesWidth) {
  // A 9-tap mask file without --mask-width ran with width 9 but recorded the default 5; a histogram, a scan
  // and a reduction recorded a mask width (and a scan a kept fraction) they never read.
  const std::string mask = temp("mask9_record.txt");
  std::ofstream(mask) << "1 1 1 1 1 1 1 1 1\n";
  auto params_of = [](const std::string& args) {
    const auto r = run_cli("run --backend sim --json " + args + " 2>/dev/null");
    EXPECT_EQ(r.code, 0) << args << ": " << r.out;
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_object() && j.contains("params") ? j["params"] : nlohmann::json();
  };
  const auto conv = params_of("--variant stevens.conv1d_basic --width 256 --mask " + mask);
  EXPECT_EQ(conv.value("mask_width", 0), 9) << conv.dump();
  EXPECT_FALSE(conv.contains("keep_fraction")) << conv.dump();
  EXPECT_FALSE(conv.contains("exclusive")) << conv.dump();
  EXPECT_EQ(params_of("--variant stevens.conv1d_basic --width 256").value("mask_width", 0), 5);  // the default ran
  const auto scan = params_of("--variant scan.decoupled_lookback --n 4096");
  EXPECT_EQ(scan, nlohmann::json({{"exclusive", false}})) << scan.dump();
  const auto hist = params_of("--variant cs121.hist_global --n 4096");
  EXPECT_TRUE(hist.is_null()) << hist.dump();  // a histogram keeps every value: no mask, no kept fraction
  EXPECT_EQ(params_of("--variant cs121.filter_scan --n 4096 --keep 0.25"), nlohmann::json({{"keep_fraction", 0.25}}));
  EXPECT_TRUE(params_of("--variant epita.reduce3 --n 4096").is_null());  // a reduction reads none
  // The same in a sweep: a sweep of reductions records no options, neither for itself nor for its points.
  const auto sw = run_cli("sweep --quiet --variants epita.reduce3 --from 10 --to 11 --backend sim --json");
  ASSERT_EQ(sw.code, 0) << sw.out;
  const auto j = nlohmann::json::parse(sw.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << sw.out;
  EXPECT_FALSE(j.contains("params")) << sw.out;
  ASSERT_EQ(j["runs"].size(), 2u);
  for (const auto& r : j["runs"]) EXPECT_FALSE(r.contains("params")) << r.dump();
}

TEST(CliMessages, ATracedTwoDConvolutionIsCheckedLikeItsRun) {
  // The summary of a 2-D output was taken as if it were 1-D: "result 0.6 (reference 1)", an edge pixel.
  const auto r = run_cli("trace --variant stevens.conv2d_tiled --width 64 --height 64 --input ones");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("result 1 (reference 1)"), std::string::npos) << r.out;
  const auto j = run_cli("trace --variant stevens.conv2d_tiled --width 64 --height 64 --input ones --json");
  EXPECT_NE(j.out.find("\"correct\": true"), std::string::npos) << j.out;
}

TEST(CliExitCodes, ANonUtf8TitleOrFileNameKeepsTheFinishedReport) {
  const std::string out = temp("latin1_report.json");
  fs::remove(out);
  // $(printf '\377') is one byte 0xFF: not UTF-8.
  const auto r = run_cli("report --variants epita.reduce3 --backend sim --n 2^10 --out " + out +
                         " --title \"x$(printf '\\377')y\"");
  EXPECT_EQ(r.code, 0) << r.out;
  ASSERT_TRUE(fs::exists(out)) << r.out;
  EXPECT_NE(slurp(out).find("x\\\\xFFy"), std::string::npos);  // the title, escaped as text
  // A Latin-1 file name that exists, through a worker process: read as the same bytes there.
  const std::string latin1 = temp("caf\xe9.txt");
  std::ofstream(latin1) << "1 2 3 4\n";
  const auto g = run_cli("run --variant epita.reduce3 --backend sim --gpu local --input '" + latin1 + "'");
  EXPECT_EQ(g.code, 0) << g.out;
  EXPECT_EQ(g.out.find("No such file"), std::string::npos) << g.out;
}

TEST(CliExitCodes, TheWorkerRefusesARequestWithADuplicateKey) {
  const auto r = run_cli(
      "worker <<'EOF'\n{\"id\":1,\"type\":\"run\",\"type\":\"shutdown\"}\n{\"id\":2,\"type\":\"shutdown\"}\nEOF");
  EXPECT_NE(r.out.find("duplicate key 'type'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"bye\""), std::string::npos) << r.out;  // the second request, not the first, ended it
}

TEST(CliMessages, AMaskWhoseExactOutputIsBeyondFloat32BlamesTheNumbersNotTheKernel) {
  const std::string mask = temp("mask_huge.txt");
  std::ofstream(mask) << "3e38 3e38 3e38 3e38 3e38\n";
  const auto r = run_cli("run --variant stevens.conv1d_basic --backend sim --width 64 --input ones --mask " + mask);
  EXPECT_NE(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("beyond float32's range"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("wrong output"), std::string::npos) << r.out;
}
