// The atomics lesson end to end on the sim backend: warpscope-cli run/trace with the atomics options,
// statuses (race, ok), outputs checked against the CPU reference, and one-line errors.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "patterns.hpp"
#include "patterns/atomics/reference.hpp"
#include "registry.hpp"
#include "request.hpp"

using namespace ws;

namespace {
struct Out {
  int code;
  std::string out;
};
Out cli(const std::string& args) {
  std::string cmd = std::string(WS_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (p && fgets(buf.data(), buf.size(), p)) out += buf.data();
  int status = p ? pclose(p) : -1;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}
RunRequest sim_request(const std::string& id, std::int64_t n) {
  RunRequest r;
  r.variant = id;
  r.n = n;
  r.backend = BackendKind::Sim;
  r.seed = 11;
  return r;
}
}  // namespace

TEST(AtomicsExecute, EveryVariantChecksAgainstTheReference) {
  for (const char* id : {"cs121.atomic_counter", "cs121.hist_global", "cs121.hist_shared", "cs121.hist_shared_vec",
                         "cub.histogram", "cs121.filter_global", "cs121.filter_shared", "cs121.filter_warp_agg",
                         "cs121.filter_scan", "cs121.filter_scan_vec", "cub.select"}) {
    SCOPED_TRACE(id);
    const std::int64_t n = std::string(id) == "cs121.atomic_counter" ? 5000 : 100003;
    const RunResult r = execute(sim_request(id, n), nullptr);
    EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
    EXPECT_TRUE(r.correct);
    EXPECT_EQ(r.result, r.expected);
    EXPECT_FALSE(r.output.empty());
  }
}

TEST(AtomicsExecute, RaceIsReportedAsARace) {
  const RunResult r = execute(sim_request("cs121.race", 0), nullptr);  // default n: 1000 x 1000
  EXPECT_EQ(r.n, 1000000);
  EXPECT_EQ(r.status, RunStatus::Race);
  EXPECT_FALSE(r.correct);
  EXPECT_EQ(r.message, "race: expected 1000000, got 32000");
  EXPECT_EQ(r.expected, 1000000.0);
}

TEST(AtomicsExecute, HistogramsTakeBytesAndFiltersTakeKeep) {
  RunRequest h = sim_request("cs121.hist_shared", 4096);
  const RunResult rh = execute(h, nullptr);
  EXPECT_EQ(rh.type, DType::UInt8);
  ASSERT_EQ(rh.output.size(), 256u);
  EXPECT_EQ(rh.result, 4096.0);  // the histogram's total count
  EXPECT_DOUBLE_EQ(rh.bytes, 4096.0 + 1024.0);
  RunRequest f = sim_request("cs121.filter_warp_agg", 100000);
  f.params.keep_fraction = 0.25;
  const RunResult rf = execute(f, nullptr);
  EXPECT_EQ(rf.status, RunStatus::Ok);
  EXPECT_NEAR(rf.result / 100000.0, 0.25, 0.01);  // the count kept
  EXPECT_EQ(rf.result, double(rf.output.size()));
  h.type = DType::Float32;
  EXPECT_NE(execute(h, nullptr).message.find("reads bytes"), std::string::npos);
  RunRequest bad = sim_request("cs121.filter_global", 100);
  bad.type = DType::UInt8;
  EXPECT_NE(execute(bad, nullptr).message.find("takes int32 only"), std::string::npos);
}

TEST(AtomicsExecute, FilterComparisonsNameTheFirstDifference) {
  const PatternSpec* h = find_pattern(PatternKind::Atomics);
  ASSERT_NE(h, nullptr);
  const VariantInfo& agg = *find_variant("cs121.filter_warp_agg");
  const VariantInfo& scan = *find_variant("cs121.filter_scan");
  ArrayOutput got, want;
  got.values = {3, 1, 2};
  want.values = {1, 2, 3};
  Input in;
  EXPECT_EQ(h->compare(agg, PatternParams{}, in, got, want), "");  // atomics decide the order: multiset
  EXPECT_EQ(h->compare(scan, PatternParams{}, in, got, want), "out[0] = 3, expected 1");  // scan keeps it
}

TEST(AtomicsCli, RunAndTraceOnTheSimBackend) {
  Out race = cli("run --variant cs121.race --backend sim --json");
  ASSERT_EQ(race.code, 0) << race.out;  // lost updates are the lesson
  auto j = nlohmann::json::parse(race.out);
  EXPECT_EQ(j["status"], "race");
  EXPECT_EQ(j["output"], nlohmann::json::array({32000}));
  Out hist = cli("run --variant cs121.hist_global --backend sim --n 10000 --input ones --json");
  ASSERT_EQ(hist.code, 0) << hist.out;
  j = nlohmann::json::parse(hist.out);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["type"], "uint8");
  EXPECT_EQ(j["output"][1], 10000);
  Out filt = cli("run --variant cs121.filter_shared --backend sim --n 3000 --keep 1 --json");
  ASSERT_EQ(filt.code, 0) << filt.out;
  j = nlohmann::json::parse(filt.out);
  EXPECT_EQ(j["output"].size(), 3000u);
  Out tr = cli("trace --variant cs121.filter_warp_agg --backend sim --n 4096 --json");
  ASSERT_EQ(tr.code, 0) << tr.out;
  j = nlohmann::json::parse(tr.out);
  bool has_atomics = false;
  for (const auto& s : j["steps"]) has_atomics |= s.contains("atomics");
  EXPECT_TRUE(has_atomics);
}

TEST(AtomicsCli, LessonReportGivesAtomicsTheirOwnInputAndSkipsBadSizes) {
  const std::string out = ::testing::TempDir() + "ws_atomics_report.json";
  Out o = cli("report --force --variants cs121 --backend sim --n 4096 --out " + out);
  ASSERT_EQ(o.code, 0) << o.out;
  std::ifstream f(out);
  const auto j = nlohmann::json::parse(f);
  std::map<std::string, std::string> status;
  for (const auto& r : j["runs"]) status[r["variant"]] = r["status"];
  EXPECT_EQ(status["cs121.hist_shared"], "ok");  // histograms prepare their own bytes input
  EXPECT_EQ(status["cs121.race"], "skipped");    // 4096 threads are not a multiple of 1000
  EXPECT_EQ(status["cs121.filter_warp_agg"], "ok");
  EXPECT_EQ(status["cs121.block_reduce"], "ok");
  std::remove(out.c_str());
}

TEST(AtomicsCli, BadRequestsAreOneLineExit2) {
  for (const char* args :
       {"run --variant cs121.race --n 1001 --backend sim", "run --variant cs121.filter_global --keep 1.5 --backend sim",
        "run --variant cs121.hist_shared --type float32 --backend sim",
        "run --variant cs121.hist_shared --block 128 --backend sim"}) {
    Out o = cli(args);
    EXPECT_EQ(o.code, 2) << args << "\n" << o.out;
    EXPECT_EQ(std::count(o.out.begin(), o.out.end(), '\n'), 1) << args << "\n" << o.out;
  }
}
