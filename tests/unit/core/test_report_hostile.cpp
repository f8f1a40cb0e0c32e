// Hostile reports: what a crafted or corrupted report file may hold must be refused with a message
// naming the field, never crash a view, wrap a number or allocate without bound.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "json_read.hpp"
#include "paths.hpp"
#include "report.hpp"
#include "trace/trace_store.hpp"

using namespace ws;
using nlohmann::json;

namespace {

/// A valid stored trace: a 64-thread block, one load step of 64 shared stores.
json small_trace() {
  json ops = json::array(), working = json::array(), shared = json::array();
  for (int i = 0; i < 64; ++i) {
    ops.push_back({i, "store", "shared", 0, i, -1, 1.0, 0});
    working.push_back(i);
    shared.push_back(1.0);
  }
  return {{"variant", "epita.reduce3"},
          {"source", "NVIDIA H200"},
          {"n", 64},
          {"type", "int32"},
          {"block", 64},
          {"grid", 1},
          {"block_index", 0},
          {"block_size", 64},
          {"racy_model", false},
          {"interleaving", ""},
          {"block_result", 64.0},
          {"steps",
           json::array({{{"phase", "load"}, {"label", ""}, {"working", working}, {"shared", shared}, {"ops", ops}}})}};
}

/// The message trace_from_store_json throws for `j`, "" when it loads.
std::string refusal(const json& j) {
  try {
    trace_from_store_json(j);
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

}  // namespace

TEST(StoredTrace, ASmallValidTraceLoads) {
  const Trace t = trace_from_store_json(small_trace());
  EXPECT_EQ(t.block_size, 64);
  ASSERT_EQ(t.steps.size(), 1u);
  EXPECT_EQ(t.steps[0].ops.size(), 64u);
  EXPECT_EQ(refusal(trace_to_store_json(t)), "");
}

TEST(StoredTrace, NoStepsIsRefused) {
  json j = small_trace();
  j["steps"] = json::array();
  EXPECT_NE(refusal(j).find("field 'steps' is empty"), std::string::npos) << refusal(j);
}

TEST(StoredTrace, BlockSizeOutsideOneTo1024IsRefusedNamingTheField) {
  for (json bad : {json(0), json(-32), json(1 << 30), json(1025), json(64.5), json("64"), json(1e30)}) {
    json j = small_trace();
    j["block_size"] = bad;
    const std::string m = refusal(j);
    EXPECT_NE(m.find("field 'block_size' must be an integer in 1..1024"), std::string::npos) << bad << ": " << m;
  }
}

TEST(StoredTrace, ArraysLongerThanTheHeaderImpliesAreRefused) {
  json j = small_trace();
  j["steps"][0]["working"].push_back(3);  // 65 working threads in a 64-thread block
  EXPECT_NE(refusal(j).find("step 0: field 'working' must be an array of at most block_size (64)"), std::string::npos)
      << refusal(j);
  j = small_trace();
  j["steps"][0]["ops"][5][0] = 64;  // a thread outside the block
  EXPECT_NE(refusal(j).find("step 0: op 5: thread must be an integer in 0..63"), std::string::npos) << refusal(j);
  j = small_trace();
  j["steps"][0]["shared"] = json::array();
  for (std::size_t i = 0; i <= kMaxStoredSharedWords; ++i) j["steps"][0]["shared"].push_back(0);
  EXPECT_NE(refusal(j).find("field 'shared' must be an array of at most"), std::string::npos) << refusal(j);
  j = small_trace();
  json& ops = j["steps"][0]["ops"];
  const json op = ops[0];
  while (ops.size() <= 64 * kMaxStoredOpsPerThread) ops.push_back(op);
  EXPECT_NE(refusal(j).find("field 'ops' must be an array of at most"), std::string::npos) << refusal(j);
  j = small_trace();
  const json step = j["steps"][0];
  while (j["steps"].size() <= kMaxStoredTraceSteps) j["steps"].push_back(step);
  EXPECT_NE(refusal(j).find("more than 4096"), std::string::npos) << refusal(j);
}

TEST(StoredTrace, FractionsAndWrongTypesAreRefusedNamingTheField) {
  json j = small_trace();
  j["n"] = 1.5;
  EXPECT_NE(refusal(j).find("field 'n' must be an integer"), std::string::npos) << refusal(j);
  j = small_trace();
  j["steps"][0]["ops"][0][6] = "x";
  EXPECT_NE(refusal(j).find("op 0: value must be a number"), std::string::npos) << refusal(j);
  j = small_trace();
  j["steps"][0]["ops"][0][1] = "teleport";
  EXPECT_NE(refusal(j).find("unknown op kind 'teleport'"), std::string::npos) << refusal(j);
  j = small_trace();
  j["steps"][0].erase("ops");
  EXPECT_NE(refusal(j).find("step 0: missing field 'ops'"), std::string::npos) << refusal(j);
  j = small_trace();
  j["block_index"] = 1;  // grid is 1
  EXPECT_NE(refusal(j).find("field 'block_index' must be an integer in 0..0"), std::string::npos) << refusal(j);
}

TEST(JsonRead, IntegersAreStrictAndPlacesAreLinesAndColumns) {
  EXPECT_EQ(json_int(json(7), 0, 10, "x"), 7);
  EXPECT_THROW(json_int(json(7.0), 0, 10, "x"), std::runtime_error);
  EXPECT_THROW(json_int(json(true), 0, 10, "x"), std::runtime_error);
  EXPECT_THROW(json_int(json(std::uint64_t(1) << 63), 0, INT64_MAX, "x"), std::runtime_error);
  EXPECT_THROW(json_number(json(nullptr), 0, 1, "x"), std::runtime_error);
  EXPECT_EQ(json_line_column("{\n  \"a\": x\n}", 10), "line 2, column 8");
  EXPECT_EQ(json_line_column("", 1), "line 1, column 1");
  try {
    const json parsed = json::parse("{\n  \"a\": x\n}");
    FAIL() << parsed;
  } catch (const json::parse_error& e) {
    const std::string m = json_parse_error("{\n  \"a\": x\n}", e);
    EXPECT_EQ(m.rfind("line 2, column 8: ", 0), 0u) << m;
  }
}

TEST(ReportCaps, MoreRunsTracesOrSweepPointsThanAReportMayHoldAreRefused) {
  json run = run_to_json(RunResult{});
  json j = report_to_json(new_report("t", DeviceInfo{}));
  j["runs"] = json::array();
  for (std::size_t i = 0; i <= kMaxReportRuns; ++i) j["runs"].push_back(run);
  try {
    report_from_json(j);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'runs' holds 10001 entries, more than the 10000"), std::string::npos)
        << e.what();
  }
  j["runs"] = json::array();
  j["traces"] = json::array();
  for (std::size_t i = 0; i <= kMaxReportTraces; ++i) j["traces"].push_back(small_trace());
  EXPECT_THROW(report_from_json(j), std::runtime_error);
  j.erase("traces");
  j["sweeps"] = json::array({{{"runs", json::array()}}});
  for (std::size_t i = 0; i <= kMaxSweepRuns; ++i) j["sweeps"][0]["runs"].push_back(run);
  try {
    report_from_json(j);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("sweep 0's 'runs' holds"), std::string::npos) << e.what();
  }
}

namespace {

/// Every report this repository holds: recorded ones and test fixtures.
std::vector<std::string> stored_reports() {
  std::vector<std::string> out;
  for (const std::string& dir : {assets_dir() + "/reports", std::string(WS_TEST_DIR) + "/gui/fixtures"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
      if (e.path().extension() == ".json") out.push_back(e.path().string());
  return out;
}

/// The report file as JSON, unvalidated.
json raw(const std::string& path) {
  std::ifstream f(path);
  return json::parse(f);
}

}  // namespace

TEST(ReportValidation, EveryStoredReportLoadsAndItsRecomputedGbpsAndPeakEqualTheStoredOnes) {
  int compared = 0;
  for (const std::string& path : stored_reports()) {
    SCOPED_TRACE(path);
    Report r;
    ASSERT_NO_THROW(r = load_report(path));
    const json j = raw(path);
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
      const json& run = j["runs"][i];
      // Within 0.1 %: some files store GB/s and % of peak rounded to 4 digits.
      if (run["gbps"].is_number() && r.runs[i].timed) {
        EXPECT_NEAR(r.runs[i].gbps, run["gbps"].get<double>(), 1e-3 * run["gbps"].get<double>() + 1e-9) << i;
        ++compared;
      }
      if (run.contains("pct_theoretical") && run["pct_theoretical"].is_number())
        EXPECT_NEAR(r.runs[i].pct_theoretical, run["pct_theoretical"].get<double>(),
                    1e-3 * run["pct_theoretical"].get<double>() + 1e-9)
            << i;
    }
  }
  EXPECT_GT(compared, 50);
}

TEST(ReportValidation, HostileRunsAreRefusedNamingTheField) {
  Report rep = new_report("hostile", DeviceInfo{});
  RunResult a;
  a.variant = "epita.reduce3";
  a.n = 1024;
  a.status = RunStatus::Ok;
  a.correct = true;
  a.timed = true;
  a.timing = summarize({0.5});
  a.bytes = 4096;
  a.gbps = 4096 / 0.5e6;
  rep.runs = {a};
  const json good = report_to_json(rep);
  const auto refusal = [](const json& j) -> std::string {
    try {
      report_from_json(j);
    } catch (const std::exception& e) { return e.what(); }
    return "";
  };
  EXPECT_EQ(refusal(good), "");
  const std::vector<std::tuple<std::string, json, std::string>> cases = {
      {"n", -1024, "field 'n' must be an integer in 0..1073741824"},
      {"n", 1.5, "field 'n' must be an integer"},
      {"time_ms", -0.5, "field 'time_ms' must be a number in 1e-05.."},
      {"time_ms", 0, "field 'time_ms' must be a number in 1e-05.."},
      {"bytes", 1e308, "field 'bytes' must be a number in 0..1e+15"},
      {"gbps", "fast", "field 'gbps' must be a number"},
      {"message", 17, "field 'message' has the wrong type (got number)"},
      {"block", 1 << 20, "field 'block' must be an integer in 0..1024"},
  };
  for (const auto& [field, value, want] : cases) {
    json j = good;
    j["runs"][0][field] = value;
    const std::string m = refusal(j);
    EXPECT_NE(m.find("run 0: run: " + want), std::string::npos) << field << " = " << value << ": " << m;
  }
  for (const json& v : {json(1e30), json(-5), json(1.5), json("1")}) {
    json j = good;
    j["version"] = v;
    EXPECT_NE(refusal(j).find("'version' must be a positive integer"), std::string::npos) << v << ": " << refusal(j);
  }
  json j = good;
  j["version"] = 7;
  EXPECT_NE(refusal(j).find("report version 7 is newer"), std::string::npos);
  // Integer fields of the device and the pattern's parameters: 4e86 or 2.5 is refused naming the field
  // (a plain conversion of 4e86 to int is undefined behaviour: the fuzzer's find).
  for (const json& v : {json(4.44e86), json(2.5), json(-1e20)}) {
    j = good;
    j["device"]["sm_count"] = v;
    EXPECT_NE(refusal(j).find("device: field 'sm_count' must be an integer in 0..100000"), std::string::npos)
        << v << ": " << refusal(j);
  }
  j = good;
  j["runs"][0]["seed"] = 1e30;
  EXPECT_NE(refusal(j).find("field 'seed' must be an integer in 0.."), std::string::npos) << refusal(j);
  j = good;
  j["runs"][0]["seed"] = 18446744073709551615u;  // the largest seed is kept
  EXPECT_EQ(report_from_json(j).runs[0].seed, 18446744073709551615u);
  // A stored GB/s of 1e308 is ignored: GB/s is bytes / time, % of peak GB/s / the device's peak.
  j = good;
  j["runs"][0]["gbps"] = 1e300;
  j["runs"][0]["pct_theoretical"] = 99.0;
  j["device"]["theoretical_gbps"] = 100.0;
  const Report back = report_from_json(j);
  EXPECT_DOUBLE_EQ(back.runs[0].gbps, 4096 / 0.5e6);
  EXPECT_DOUBLE_EQ(back.runs[0].pct_theoretical, 100.0 * (4096 / 0.5e6) / 100.0);
}

TEST(ReportValidation, AReductionSweepCarryingKeepFractionsIsRefused) {
  Report rep = new_report("sweep", DeviceInfo{});
  Sweep s;
  s.spec.variants = {"epita.reduce3"};
  s.spec.from_log2 = s.spec.to_log2 = 10;
  rep.sweeps = {s};
  json j = report_to_json(rep);
  j["sweeps"][0]["keep_fractions"] = {0.1, 0.5};
  j["sweeps"][0]["n"] = 1024;
  try {
    report_from_json(j);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'keep_fractions' sweeps filters, but it lists epita.reduce3 (a reduction)"),
              std::string::npos)
        << e.what();
  }
}
