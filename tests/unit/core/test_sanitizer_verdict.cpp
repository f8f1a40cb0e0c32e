// compute-sanitizer verdicts in reports: they load and save back unchanged, hostile values are refused
// with the field named, and the text the Results view shows says what each tool found.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "report.hpp"
#include "sanitizer.hpp"

using namespace ws;
using nlohmann::json;

namespace {

/// A verdict as scripts/sanitizer_parse.py writes it (merge_reports.py --sanitizer adds tool_version, device).
json nosync_verdict() {
  return json::parse(R"({"n":1000,"args":"--n 1000","check":"race: expected 1000, got 744",
    "tool_version":"2025.3.0","device":"NVIDIA H100 80GB HBM3",
    "memcheck":{"ran":true,"exit":0,"errors":0,"first":"","note":""},
    "racecheck":{"ran":true,"exit":0,"errors":4,"first":"Error: Race reported between Write access at reduce1_nosync",
                 "note":"",
                 "warnings":1,"hazards":{"RAW":2,"WAR":0,"WAW":1},"hazards_total":18},
    "synccheck":{"ran":true,"exit":0,"errors":0,"first":"","note":""}})");
}

json run_with(const json& sanitizer) {
  json run = {{"variant", "epita.reduce1_nosync"},
              {"backend", "cuda"},
              {"n", 1000},
              {"type", "int32"},
              {"correct", false},
              {"status", "race"},
              {"result", 744},
              {"expected", 1000},
              {"racy", true}};
  run["sanitizer"] = sanitizer;
  return json{{"format", "warpscope-report"}, {"version", 1}, {"runs", json::array({run})}};
}

std::string refusal(const json& sanitizer) {
  try {
    report_from_json(run_with(sanitizer));
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

}  // namespace

TEST(SanitizerVerdict, LoadsAndSavesBackUnchanged) {
  const Report r = report_from_json(run_with(nosync_verdict()));
  ASSERT_EQ(r.runs.size(), 1u);
  const SanitizerVerdict& v = r.runs[0].sanitizer;
  ASSERT_TRUE(v.present);
  EXPECT_EQ(v.n, 1000);
  EXPECT_EQ(v.racecheck.hazards_total, 18);
  EXPECT_EQ(v.racecheck.raw, 2);
  EXPECT_EQ(v.racecheck.waw, 1);
  EXPECT_EQ(v.racecheck.warnings, 1);
  EXPECT_TRUE(v.memcheck.ran);
  // Through a file and back: the object is the one that was read, field for field.
  const std::string path = testing::TempDir() + "sanitizer_report.json";
  save_report(r, path);
  const Report again = load_report(path);
  EXPECT_EQ(run_to_json(again.runs[0])["sanitizer"], nosync_verdict());
  std::remove(path.c_str());
}

TEST(SanitizerVerdict, RunsWithoutAVerdictLoadAndSaveWithout) {
  json rep = run_with(nullptr);
  rep["runs"][0].erase("sanitizer");
  const Report r = report_from_json(rep);
  EXPECT_FALSE(r.runs[0].sanitizer.present);
  EXPECT_FALSE(run_to_json(r.runs[0]).contains("sanitizer"));
  EXPECT_EQ(format_sanitizer(r.runs[0].sanitizer), "");
}

TEST(SanitizerVerdict, HostileValuesAreRefusedWithTheFieldNamed) {
  auto with = [](const char* tool, const char* key, const json& value) {
    json v = nosync_verdict();
    v[tool][key] = value;
    return refusal(v);
  };
  EXPECT_NE(
      with("racecheck", "hazards_total", -1).find("run sanitizer racecheck: field 'hazards_total' must be an integer"),
      std::string::npos);
  EXPECT_NE(with("memcheck", "errors", 1.5).find("field 'errors' must be an integer"), std::string::npos);
  EXPECT_NE(with("memcheck", "errors", 1e30).find("field 'errors'"), std::string::npos);
  EXPECT_NE(with("memcheck", "ran", "yes").find("field 'ran' must be true or false"), std::string::npos);
  EXPECT_NE(with("synccheck", "exit", 999).find("field 'exit' must be an integer in 0..255"), std::string::npos);
  EXPECT_NE(with("memcheck", "first", std::string(5000, 'x')).find("5000 characters"), std::string::npos);
  EXPECT_NE(with("memcheck", "first", 7).find("field 'first' must be a string"), std::string::npos);
  EXPECT_NE(with("racecheck", "hazards", json{{"RAW", 1}, {"XYZ", 2}}).find("unknown field 'XYZ'"), std::string::npos);
  EXPECT_NE(with("racecheck", "hazards", json{{"RAW", 40}}).find("hazards_total 18 is below the 40 typed hazards"),
            std::string::npos);
  EXPECT_NE(with("racecheck", "hazards", "many").find("must be an object"), std::string::npos);
  EXPECT_NE(with("memcheck", "hazards", json::object()).find("unknown field 'hazards'"),
            std::string::npos);  // memcheck has none

  json not_run = nosync_verdict();
  not_run["racecheck"]["ran"] = false;
  EXPECT_NE(refusal(not_run).find("a tool that did not run cannot report findings"), std::string::npos);
  json none = nosync_verdict();
  for (const char* t : {"memcheck", "racecheck", "synccheck"}) none.erase(t);
  EXPECT_NE(refusal(none).find("holds none of memcheck, racecheck, synccheck"), std::string::npos);
  json no_n = nosync_verdict();
  no_n.erase("n");
  EXPECT_NE(refusal(no_n).find("missing field 'n'"), std::string::npos);
  EXPECT_NE(refusal(json::array()).find("run sanitizer: must be an object"), std::string::npos);
  json extra = nosync_verdict();
  extra["initcheck"] = json::object();
  EXPECT_NE(refusal(extra).find("unknown field 'initcheck'"), std::string::npos);
  // The message leads with where: the report's run.
  EXPECT_EQ(refusal(extra).rfind("report: run 0: run sanitizer", 0), 0u) << refusal(extra);
}

TEST(SanitizerVerdict, CompactTextPutsFindingsFirst) {
  const SanitizerVerdict v = sanitizer_from_json(nosync_verdict());
  EXPECT_EQ(format_sanitizer(v, true),
            "racecheck: 18 shared-memory hazards (RAW 2, WAW 1) \u00b7 memcheck, synccheck clean");

  json clean = nosync_verdict();
  clean["racecheck"] = {{"ran", true}, {"exit", 0}, {"errors", 0}, {"warnings", 0}, {"hazards_total", 0}};
  EXPECT_EQ(format_sanitizer(sanitizer_from_json(clean)), "sanitizer: clean");
  // epita.race: a global read-modify-write race the tools cannot see, said so rather than "clean".
  EXPECT_EQ(format_sanitizer(sanitizer_from_json(clean), true),
            "sanitizer: nothing found (racecheck sees shared memory only)");

  json mem = clean;
  mem["memcheck"]["errors"] = 1;
  mem["synccheck"] = {
      {"ran", false}, {"exit", 124}, {"note", "no summary in the log (exit 124): the tool did not finish"}};
  EXPECT_EQ(format_sanitizer(sanitizer_from_json(mem)),
            "memcheck: 1 error \u00b7 synccheck did not run \u00b7 racecheck clean");

  json none_ran = mem;
  for (const char* t : {"memcheck", "racecheck"}) none_ran[t] = {{"ran", false}, {"exit", 3}};
  EXPECT_EQ(format_sanitizer(sanitizer_from_json(none_ran)), "sanitizer: did not run");
  none_ran["memcheck"] = {{"ran", true}, {"exit", 0}, {"errors", 0}};
  EXPECT_EQ(format_sanitizer(sanitizer_from_json(none_ran)), "racecheck, synccheck did not run \u00b7 memcheck clean");

  json only_counts = clean;  // racecheck errors without a hazard count (a report format it could not type)
  only_counts["racecheck"]["errors"] = 2;
  EXPECT_EQ(format_sanitizer(sanitizer_from_json(only_counts)),
            "racecheck: 2 errors, 0 warnings \u00b7 memcheck, synccheck clean");
}

TEST(SanitizerVerdict, TooltipSaysWhatEachToolCanAndCannotSee) {
  const std::string tip = sanitizer_tooltip(sanitizer_from_json(nosync_verdict()));
  EXPECT_NE(tip.find("compute-sanitizer 2025.3.0 at --n 1000 on NVIDIA H100 80GB HBM3"), std::string::npos) << tip;
  EXPECT_NE(tip.find("race: expected 1000, got 744"), std::string::npos);
  EXPECT_NE(tip.find("first: Error: Race reported between Write access at reduce1_nosync"), std::string::npos);
  EXPECT_NE(tip.find("reports: 4 errors, 1 warning; the types are those of the 3 hazard reports printed"),
            std::string::npos);
  EXPECT_NE(
      tip.find("global memory: a read-modify-write race on a global word (epita.race, cs121.race) passes it clean"),
      std::string::npos);
  ASSERT_EQ(sanitizer_tools().size(), 3u);
  for (const SanitizerToolInfo& t : sanitizer_tools()) {
    EXPECT_NE(tip.find(std::string("sees: ") + t.sees), std::string::npos) << t.name;
    EXPECT_NE(tip.find(std::string("cannot see: ") + t.blind_to), std::string::npos) << t.name;
  }
}
