// TracePhase (its name table: unit/core/test_enum_names.cpp): the list of names for messages, a stored
// trace naming an unknown phase is refused with a one-line message naming the step and the value, and
// every checked-in trace (GPU recordings in the reports, the GUI fixture, the fuzz seed) saves each field
// it holds to the same JSON text.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "report.hpp"
#include "trace/trace_phase.hpp"
#include "trace/trace_store.hpp"

using namespace ws;
using nlohmann::json;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// The message `load` throws, "" when it does not throw.
template <class F>
std::string refusal(F&& load) {
  try {
    load();
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

/// The stored traces of a report file ("traces"), or the file itself when it holds one trace.
std::vector<json> traces_in(const std::string& path) {
  const json j = json::parse(read_text(path));
  if (!j.contains("traces")) return {j};
  return std::vector<json>(j["traces"].begin(), j["traces"].end());
}

const std::string kRoot = std::string(WS_TEST_DIR) + "/../";

}  // namespace

TEST(TracePhaseNames, NamesListedInEnumOrder) {
  EXPECT_EQ(trace_phase_names(),
            "step, load, halo, compute, tree, warp, combine, atomic, pass, store, sequential, up-sweep, down-sweep, "
            "thread, block, scan, count, look-back, stage");
}

TEST(TracePhaseInJson, EveryPhaseSavesAsItsNameAndLoadsBack) {
  Trace t;
  t.variant = "epita.reduce3";
  t.launch.block = 32;
  t.launch.grid = 1;
  t.block_size = 32;
  for (int i = 0; i <= int(TracePhase::Stage); ++i) {
    Step s;
    s.index = i;
    s.phase = TracePhase(i);
    s.label = "step " + std::to_string(i);
    t.steps.push_back(s);
  }
  const json j = json::parse(trace_to_store_json(t).dump());
  ASSERT_EQ(j["steps"].size(), t.steps.size());
  const Trace back = trace_from_store_json(j);
  ASSERT_EQ(back.steps.size(), t.steps.size());
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    EXPECT_EQ(j["steps"][k]["phase"], to_string(t.steps[k].phase)) << k;
    EXPECT_EQ(back.steps[k].phase, t.steps[k].phase) << k;
  }
}

TEST(TracePhaseInJson, AStoredTraceWithAnUnknownPhaseIsRefusedNamingStepAndValue) {
  const json good = traces_in(kRoot + "tests/fuzz/corpus/trace/small.json").at(0);
  ASSERT_EQ(refusal([&] { trace_from_store_json(good); }), "");
  ASSERT_GE(good["steps"].size(), 2u);
  json bad = good;
  bad["steps"][1]["phase"] = "warp-shuffle";
  const std::string m = refusal([&] { trace_from_store_json(bad); });
  EXPECT_EQ(m, "stored trace: step 1: unknown phase 'warp-shuffle' (one of " + trace_phase_names() + ")");
  EXPECT_EQ(m.find('\n'), std::string::npos);
  bad["steps"][1]["phase"] = 3;
  EXPECT_NE(refusal([&] { trace_from_store_json(bad); }).find("step 1: field 'phase'"), std::string::npos);
  bad["steps"][1]["phase"] = "";
  EXPECT_NE(refusal([&] { trace_from_store_json(bad); }).find("unknown phase ''"), std::string::npos);
}

TEST(TracePhaseInJson, AReportWhoseTraceNamesAnUnknownPhaseIsRefused) {
  json j = json::parse(read_text(kRoot + "tests/gui/fixtures/traces_h200.json"));
  ASSERT_EQ(refusal([&] { report_from_json(j); }), "");
  ASSERT_FALSE(j["traces"].empty());
  j["traces"][0]["steps"][0]["phase"] = "Load";
  const std::string m = refusal([&] { report_from_json(j); });
  EXPECT_NE(m.find("step 0: unknown phase 'Load'"), std::string::npos) << m;
}

// The GPU recordings checked in (reports of every vintage, the GUI's trace fixture, the fuzzer's seed)
// save to the same JSON text they were loaded from: the enum changes nothing a stored trace says.
// (nvidia-h100.json as a whole saves to the same bytes: RunEnumsInJson.CheckedInReportsSaveToTheSameBytes.)
TEST(TracePhaseInJson, CheckedInTracesSaveToTheSameJson) {
  int traces = 0;
  std::set<TracePhase> seen;
  for (const char* name :
       {"assets/reports/nvidia-h100.json", "assets/reports/nvidia-h200.json", "assets/reports/nvidia-h100-lessons.json",
        "tests/gui/fixtures/traces_h200.json", "tests/fuzz/corpus/trace/small.json"}) {
    const std::vector<json> stored = traces_in(kRoot + name);
    ASSERT_FALSE(stored.empty()) << name;
    for (std::size_t k = 0; k < stored.size(); ++k) {
      const Trace t = trace_from_store_json(stored[k]);
      for (const Step& s : t.steps) seen.insert(s.phase);
      // Every field the file holds saves to the same text (steps with their phases included); traces
      // stored before `input`, `seed` or `compared_with_model` existed gain them with their defaults.
      const json saved = trace_to_store_json(t);
      for (const auto& [key, value] : stored[k].items()) {
        ASSERT_TRUE(saved.contains(key)) << name << " trace " << k << ": " << key;
        EXPECT_TRUE(saved[key].dump() == value.dump()) << name << " trace " << k << ": field '" << key << "' differs";
      }
      ++traces;
    }
  }
  EXPECT_GE(traces, 5);
  using P = TracePhase;
  EXPECT_EQ(seen, (std::set<TracePhase>{P::Step, P::Load, P::Tree, P::Warp, P::Combine, P::Atomic, P::Pass, P::Store,
                                        P::UpSweep, P::DownSweep}));
}
