#include <gtest/gtest.h>

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

TEST(Lessons, BadFilesAreReportedWithTheirName) {
  EXPECT_THROW(parse_lesson("{", "x.json"), std::runtime_error);
  try {
    parse_lesson(R"({"id":"a","title":"t","seed":"s","source":"s","pattern":"p","summary":"s","steps":[{"variant":"no.such","narrative":"n"}]})", "y.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("y.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("no.such"), std::string::npos);
  }
}
