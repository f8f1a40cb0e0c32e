// RunStatus, BackendKind and PatternKind (their name tables: test_enum_names.cpp): unknown names are
// refused with a clear message where reports, worker requests, lessons and the CLI read them, and a
// checked-in report or lesson reads the same as before (JSON keeps the names).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "backend_kind.hpp"
#include "lessons.hpp"
#include "pattern_kind.hpp"
#include "patterns.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "run_status.hpp"
#include "worker_protocol.hpp"

using namespace ws;

namespace {

std::string read_text(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// The message report_from_json throws for `j`, "" when it loads.
std::string load_error(const nlohmann::json& j) {
  try {
    report_from_json(j);
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

}  // namespace

TEST(RunStatusNames, ClassesOfStatus) {
  EXPECT_TRUE(ran_as_taught(RunStatus::Ok) && ran_as_taught(RunStatus::Race) && ran_as_taught(RunStatus::SlideBug));
  EXPECT_FALSE(ran_as_taught(RunStatus::Wrong) || ran_as_taught(RunStatus::Skipped) || ran_as_taught(RunStatus::Ran));
  EXPECT_TRUE(is_failure(RunStatus::Wrong) && is_failure(RunStatus::Error) && is_failure(RunStatus::Faulted));
  EXPECT_FALSE(is_failure(RunStatus::Skipped) || is_failure(RunStatus::Race) || is_failure(RunStatus::Unchecked));
}

TEST(BackendKindNames, UnknownBackendMessage) {
  EXPECT_EQ(unknown_backend_message("tpu"), "unknown backend 'tpu' (use cuda or sim)");
}

TEST(PatternKindNames, BuiltInNamesInTeachingOrder) {
  EXPECT_EQ(pattern_names(), "reduction, scan, convolution, atomics") << "the built-in ones, in teaching order";
}

TEST(PatternKindNames, UnknownPatternMessage) {
  EXPECT_EQ(unknown_pattern_message("conv"), "unknown pattern 'conv' (use reduction, scan, convolution, atomics)");
}

TEST(PatternKindNames, EveryBuiltInPatternHasItsSpecAndVariants) {
  for (int i = 0; i < int(PatternKind::Fixture); ++i) {
    const PatternKind p = PatternKind(i);
    ASSERT_NE(find_pattern(p), nullptr) << p;
    EXPECT_EQ(find_pattern(p)->kind, p);
    bool has_variant = false;
    for (const VariantInfo& v : all_variants()) has_variant = has_variant || v.pattern == p;
    EXPECT_TRUE(has_variant) << p << " has no variant";
  }
}

namespace {

/// A one-step lesson with its "pattern" field set to `pattern`, parsed; "" or what parse_lesson throws.
std::string lesson_error(const std::string& pattern, Lesson* out = nullptr) {
  const std::string text = R"({"id":"a","title":"t","seed":"s","source":"s","pattern":")" + pattern +
                           R"(","summary":"s","steps":[{"variant":"epita.reduce3","narrative":"n"}]})";
  try {
    const Lesson l = parse_lesson(text, "x.json");
    if (out) *out = l;
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

}  // namespace

TEST(PatternKindNames, LessonsNameTheirPatterns) {
  Lesson l;
  ASSERT_EQ(lesson_error("convolution, reduction, scan", &l), "");
  EXPECT_EQ(l.patterns,
            (std::vector<PatternKind>{PatternKind::Convolution, PatternKind::Reduction, PatternKind::Scan}));
  ASSERT_EQ(lesson_error("atomics", &l), "");
  EXPECT_EQ(l.patterns, std::vector<PatternKind>{PatternKind::Atomics});
  EXPECT_EQ(lesson_error("reduction, stencil"),
            "x.json: 'pattern': unknown pattern 'stencil' (use reduction, scan, convolution, atomics)");
  EXPECT_EQ(lesson_error("Reduction"),
            "x.json: 'pattern': unknown pattern 'Reduction' (use reduction, scan, convolution, atomics)");
  EXPECT_NE(lesson_error(""), "");
  EXPECT_NE(lesson_error("reduction,,scan").find("unknown pattern ''"), std::string::npos);
}

// The shipped lessons name the patterns of their variants, in the words they were written with.
TEST(PatternKindNames, ShippedLessonsNameThePatternsTheyTeach) {
  const std::vector<Lesson> lessons = load_lessons(std::string(WS_TEST_DIR) + "/../assets/lessons");
  ASSERT_FALSE(lessons.empty());
  for (const Lesson& l : lessons) {
    const std::string text = read_text(std::string(WS_TEST_DIR) + "/../assets/lessons/" + l.id + ".json");
    const std::string field = nlohmann::json::parse(text)["pattern"].get<std::string>();
    std::string written;
    for (PatternKind p : l.patterns) written += (written.empty() ? "" : ", ") + std::string(to_string(p));
    EXPECT_EQ(written, field) << l.id;
    for (const LessonStep& s : l.steps) {
      const VariantInfo* v = find_variant(s.variant);
      ASSERT_NE(v, nullptr) << s.variant;
      const bool named = std::find(l.patterns.begin(), l.patterns.end(), v->pattern) != l.patterns.end();
      EXPECT_TRUE(named || v->baseline) << l.id << ": " << s.variant << " is a " << v->pattern;
    }
  }
}

TEST(RunEnumsInJson, AReportWithAnUnknownStatusOrBackendIsRefused) {
  nlohmann::json j = nlohmann::json::parse(read_text(std::string(WS_TEST_DIR) + "/gui/fixtures/report_h200.json"));
  ASSERT_EQ(load_error(j), "");
  nlohmann::json bad_status = j;
  bad_status["runs"][0]["status"] = "passed";
  EXPECT_NE(load_error(bad_status).find("unknown status 'passed'"), std::string::npos) << load_error(bad_status);
  nlohmann::json bad_backend = j;
  bad_backend["runs"][0]["backend"] = "tpu";
  EXPECT_NE(load_error(bad_backend).find("unknown backend 'tpu'"), std::string::npos) << load_error(bad_backend);
}

TEST(RunEnumsInJson, WorkerRequestsNameTheirBackend) {
  RunRequest req;
  req.variant = "epita.reduce3";
  req.backend = BackendKind::Sim;
  nlohmann::json j = request_to_json(req);
  EXPECT_EQ(j["backend"], "sim");
  EXPECT_EQ(request_from_json(j).backend, BackendKind::Sim);
  j["backend"] = "tpu";
  try {
    request_from_json(j);
    ADD_FAILURE() << "a request for backend 'tpu' loaded";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("unknown backend 'tpu'"), std::string::npos) << e.what();
  }
}

// Reports this build's format writes unchanged (GPU runs: ok, race, slide-bug; cuda and cpu backends;
// a sweep with skipped runs): loading and saving gives back the same bytes, so the enums change nothing
// a report says. (Reports written by older builds, e.g. nvidia-h200.json, load but save differently.)
TEST(RunEnumsInJson, CheckedInReportsSaveToTheSameBytes) {
  const std::string root = std::string(WS_TEST_DIR) + "/../assets/reports/";
  for (const char* name :
       {"nvidia-h100.json", "sweeps/nvidia-h200-scans.json", "sweeps/nvidia-h200-histograms-filters.json"}) {
    const std::string path = root + name;
    const std::string before = read_text(path);
    ASSERT_FALSE(before.empty()) << path;
    const std::string out = ::testing::TempDir() + "ws_enum_roundtrip.json";
    save_report(load_report(path), out);
    const std::string after = read_text(out);
    EXPECT_EQ(after.size(), before.size()) << name;
    EXPECT_TRUE(after == before) << name << ": the saved report differs from the checked-in one";
  }
}
