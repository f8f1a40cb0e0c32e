// Hostile reports: what a crafted or corrupted report file may hold must be refused with a message
// naming the field, never crash a view, wrap a number or allocate without bound.
#include <gtest/gtest.h>

#include <string>

#include "json_read.hpp"
#include "report.hpp"
#include "sim/trace_store.hpp"

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
  return {{"variant", "epita.reduce3"}, {"source", "NVIDIA H200"}, {"n", 64}, {"type", "int32"}, {"block", 64},
          {"grid", 1}, {"block_index", 0}, {"block_size", 64}, {"racy_model", false}, {"interleaving", ""},
          {"block_result", 64.0}, {"steps", json::array({{{"phase", "load"}, {"label", ""}, {"working", working},
                                                          {"shared", shared}, {"ops", ops}}})}};
}

/// The message trace_from_store_json throws for `j`, "" when it loads.
std::string refusal(const json& j) {
  try {
    trace_from_store_json(j);
  } catch (const std::exception& e) {
    return e.what();
  }
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
    EXPECT_NE(std::string(e.what()).find("'runs' holds 10001 entries, more than the 10000"), std::string::npos) << e.what();
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
