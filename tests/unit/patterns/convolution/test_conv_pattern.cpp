// The convolution pattern end to end on the CPU: ids, execute() with the sim backend for every
// variant, the report JSON (2D output as rows), --output, and the CLI's one-line errors (exit 2).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "registry.hpp"
#include "report.hpp"
#include "request.hpp"

using namespace ws;

namespace {

struct Out {
  int code;
  std::string out;
};
Out cli(const std::string& args) {
  const std::string cmd = std::string(WS_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (p && fgets(buf.data(), buf.size(), p)) out += buf.data();
  const int status = p ? pclose(p) : -1;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

RunRequest sim_request(const std::string& id, std::int64_t width, std::int64_t height) {
  RunRequest req;
  req.variant = id;
  req.backend = BackendKind::Sim;
  req.params.width = width;
  req.params.height = height;
  req.params.mask = "gauss";
  req.params.mask_width = 7;
  return req;
}

}  // namespace

TEST(ConvPattern, TheIssuesIdsInTeachingOrder) {
  std::vector<std::string> conv, trees;
  for (const auto& v : all_variants()) {
    if (v.pattern == PatternKind::Convolution) conv.push_back(v.id);
    if (v.lesson == "stevens" && v.pattern == PatternKind::Reduction) trees.push_back(v.id);
  }
  EXPECT_EQ(conv,
            (std::vector<std::string>{"stevens.conv1d_basic", "stevens.conv1d_const", "stevens.conv1d_tiled",
                                      "stevens.conv1d_tiled_cache", "stevens.conv2d_basic", "stevens.conv2d_tiled",
                                      "stevens.conv2d_tiled_coarse", "stevens.conv2d_register_tiled"}));
  EXPECT_EQ(trees, (std::vector<std::string>{"stevens.reduce_divergent", "stevens.reduce_compact"}));
  for (const auto& id : conv) {
    const VariantInfo* v = find_variant(id);
    EXPECT_EQ(v->seed, "001_9970031c1e4143ff.txt");
    EXPECT_FALSE(v->slide.empty());
  }
}

TEST(ConvPattern, EveryVariantRunsOnTheSimBackend) {
  for (const auto& v : all_variants()) {
    if (v.pattern != PatternKind::Convolution) continue;
    const bool two_d = v.id.find("conv2d") != std::string::npos;
    const RunResult r = execute(sim_request(v.id, two_d ? 45 : 3001, two_d ? 37 : 0), nullptr);
    EXPECT_EQ(r.status, RunStatus::Ok) << v.id << ": " << r.message;
    EXPECT_EQ(r.type, DType::Float32);
    EXPECT_EQ(r.output.size(), two_d ? 45u * 37u : 3001u);
    EXPECT_EQ(r.output_rows, two_d ? 37 : 0);
    EXPECT_EQ(r.bytes, double(r.output.size()) * 8);  // input + output, float32
    EXPECT_GT(r.launch.block, 0);
  }
  // The launch reported is the kernel's: conv2d_tiled with tile 8 and mask 7 runs 14 x 14 blocks.
  RunRequest req = sim_request("stevens.conv2d_tiled", 45, 37);
  req.params.tile = 8;
  const RunResult r = execute(req, nullptr);
  EXPECT_EQ(r.launch.block, 14 * 14);
  EXPECT_EQ(r.launch.grid, 6 * 5);
}

TEST(ConvPattern, JsonHasTheOutputAsRows) {
  const RunResult r = execute(sim_request("stevens.conv2d_basic", 5, 3), nullptr);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  const nlohmann::json j = run_to_json(r);
  ASSERT_TRUE(j.contains("output"));
  ASSERT_EQ(j["output"].size(), 3u);
  EXPECT_EQ(j["output"][0].size(), 5u);
  EXPECT_EQ(j["output_rows"], 3);
}

TEST(ConvPattern, CliRunsAndRejectsBadRequests) {
  const std::string out = ::testing::TempDir() + "ws_conv_out.txt";
  Out o =
      cli("run --variant stevens.conv2d_tiled --backend sim --width 20 --height 10 --mask-width 3 --tile 6 --force "
          "--output " +
          out);
  EXPECT_EQ(o.code, 0) << o.out;
  std::ifstream f(out);
  std::string line;
  int rows = 0;
  while (std::getline(f, line)) {
    std::istringstream ls(line);
    double x;
    int cols = 0;
    while (ls >> x) ++cols;
    EXPECT_EQ(cols, 20);
    ++rows;
  }
  EXPECT_EQ(rows, 10);
  for (const auto& [args, needle] : std::vector<std::pair<std::string, std::string>>{
           {"--variant stevens.conv2d_tiled --mask-width 4", "odd"},
           {"--variant stevens.conv2d_tiled --tile 29", "largest tile"},
           {"--variant stevens.conv2d_basic --block 64", "not --block"},
           {"--variant stevens.conv1d_tiled --height 4", "not --height"},
           {"--variant stevens.conv2d_basic --n 100", "not --n"},
           {"--variant stevens.conv1d_basic --mask /nonexistent/mask.txt", "cannot open"},
           {"--variant stevens.conv2d_basic --input /nonexistent/image.png", "cannot open"},
           {"--variant stevens.conv1d_tiled --tile 64 --block 128", "must agree"},
       }) {
    o = cli("run --backend sim " + args);
    EXPECT_EQ(o.code, 2) << args << "\n" << o.out;
    EXPECT_NE(o.out.find(needle), std::string::npos) << args << "\n" << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << o.out;
  }
}

TEST(ConvPattern, ReportOfThePatternGivesEachVariantItsOwnInput) {
  // 1D and 2D variants in one report: each prepares its own input (defaults: 2^20 samples, 1024 x 1024).
  const std::string out = ::testing::TempDir() + "ws_conv_report.json";
  const Out o = cli("report --force --variants convolution --backend sim --repeat 1 --out " + out);
  EXPECT_EQ(o.code, 0) << o.out;
  std::ifstream f(out);
  const nlohmann::json j = nlohmann::json::parse(f);
  ASSERT_EQ(j["runs"].size(), 8u);
  int two_d = 0;
  for (const auto& r : j["runs"]) {
    EXPECT_EQ(r["status"], "ok") << r["variant"] << ": " << r["message"];
    two_d += r["variant"].get<std::string>().find("conv2d") != std::string::npos;
    EXPECT_EQ(r["n"], 1024 * 1024) << r["variant"];  // 2^20 samples or 1024 x 1024 pixels
  }
  EXPECT_EQ(two_d, 4);  // conv2d_basic, _tiled, _tiled_coarse, _register_tiled
}
