#include <gtest/gtest.h>

#include <map>
#include <set>

#include "lessons.hpp"
#include "paths.hpp"
#include "registry.hpp"

using namespace ws;

TEST(Lessons, OnePerReductionSeedInTeachingOrder) {
  auto lessons = load_lessons(assets_dir() + "/lessons");
  std::set<std::string> ids;
  for (const auto& l : lessons) ids.insert(l.id);
  for (const char* want : {"epita", "harris", "cs121", "amp"}) EXPECT_TRUE(ids.count(want)) << want;
  std::set<std::string> covered;
  for (const auto& l : lessons) {
    SCOPED_TRACE(l.id);
    EXPECT_FALSE(l.summary.empty());
    EXPECT_TRUE(find_variant(l.steps.back().variant)->baseline) << l.steps.back().variant;  // a baseline closes every lesson
    if (l.pattern == "reduction") EXPECT_EQ(l.steps.back().variant, "cub.reduce");
    // The lesson's own variants appear in the registry's (teaching) order, each once.
    std::vector<std::string> own, registry_order;
    for (const auto& s : l.steps) {
      EXPECT_FALSE(s.narrative.empty()) << s.variant;
      if (find_variant(s.variant)->lesson == l.id) own.push_back(s.variant);
      covered.insert(s.variant);
    }
    for (const auto& v : all_variants())
      if (v.lesson == l.id) registry_order.push_back(v.id);
    EXPECT_EQ(own, registry_order);
  }
  for (const auto& v : all_variants()) EXPECT_TRUE(covered.count(v.id)) << v.id << " is in no lesson";
}

TEST(Lessons, CiteTheLectureByItsTitleAndAuthorsNotItsFileName) {
  auto lessons = load_lessons(assets_dir() + "/lessons");
  std::map<std::string, std::string> cited;
  for (const auto& l : lessons) {
    SCOPED_TRACE(l.id);
    EXPECT_FALSE(l.lecture.empty());
    EXPECT_FALSE(l.source.empty());
    const std::string c = lecture_citation(l);
    EXPECT_EQ(c.find(".txt"), std::string::npos) << c;  // the seed's file name is for the docs
    EXPECT_EQ(c.find(l.seed), std::string::npos) << c;
    cited[l.id] = c;
  }
  // The documents' own first lines (../shared/seeds): title, then the authors where they name any.
  EXPECT_EQ(cited["epita"].rfind("\u201cReduction Pattern\u201d, Edwin Carlinet, Joseph Chazalon  \u00b7  EPITA GPU Computing", 0), 0u)
      << cited["epita"];
  EXPECT_EQ(cited["harris"], "\u201cCode Optimizations\u201d, Ji\u0159\u00ed Filipovi\u010d  \u00b7  Fall 2020");
  EXPECT_EQ(cited["cs121"], "\u201cGPUs and CUDA 3: Intrinsics\u201d  \u00b7  CS121 Parallel Computing, Fall 2022");
  EXPECT_NE(cited["stevens"].find("Philippos Mordohai"), std::string::npos) << cited["stevens"];
  EXPECT_NE(cited["amp"].find("\u201cParallel Reduction using C++ AMP\u201d"), std::string::npos) << cited["amp"];
}

TEST(Lessons, BadFilesAreReportedWithTheirName) {
  EXPECT_THROW(parse_lesson("{", "x.json"), std::runtime_error);
  try {
    parse_lesson(R"({"id":"a","title":"t","seed":"s","lecture":"l","authors":"","source":"s","pattern":"p","summary":"s","steps":[{"variant":"no.such","narrative":"n"}]})", "y.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("y.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("no.such"), std::string::npos);
  }
}
