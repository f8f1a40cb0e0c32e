#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
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

namespace {

/// A lessons folder holding the shipped lessons plus the files in `extra` (name -> text).
std::string lessons_with(const std::string& name, const std::vector<std::pair<std::string, std::string>>& extra) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "ws_lessons_" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(assets_dir() + "/lessons"))
    if (e.path().extension() == ".json") fs::copy_file(e.path(), dir + "/" + e.path().filename().string());
  for (const auto& [file, text] : extra) std::ofstream(dir + "/" + file) << text;
  return dir;
}

}  // namespace

TEST(Lessons, OneMalformedFileCostsOnlyThatLessonAndIsNamedWithItsPlace) {
  const std::size_t good = load_lessons(assets_dir() + "/lessons").size();
  const std::string dir = lessons_with("bad", {{"zz_broken.json", "{\n  \"id\": \"x\",\n  oops\n}"},
                                               {"zz_notes.json", "[1, 2]"},
                                               {"zz_overflow.json", "1e30822222222244444444444"},
                                               {"zz_unknown.json", R"({"id":"u","title":"t","seed":"s","source":"s",
                                                 "pattern":"reduction","summary":"s","steps":[{"variant":"no.such","narrative":"n"}]})"}});
  std::vector<std::string> problems;
  const auto lessons = load_lessons(dir, &problems);
  EXPECT_EQ(lessons.size(), good);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_NE(problems[0].find("zz_broken.json is not valid JSON: line 3, column 3"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("zz_notes.json: not a lesson"), std::string::npos) << problems[1];
  // Found by fuzz_lesson: a number too large for a double escaped as an uncaught nlohmann exception.
  EXPECT_NE(problems[2].find("zz_overflow.json is not valid JSON: number overflow"), std::string::npos) << problems[2];
  EXPECT_NE(problems[3].find("zz_unknown.json: unknown variant 'no.such'"), std::string::npos) << problems[3];
  // Without a place to put problems, the first bad file throws (what the shipped-lessons tests rely on).
  EXPECT_THROW(load_lessons(dir), std::runtime_error);
}

TEST(Lessons, ADuplicateIdAndAnOversizedFileAreSkipped) {
  std::ifstream f(assets_dir() + "/lessons/epita.json");
  const std::string epita{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  ASSERT_FALSE(epita.empty());
  const std::string dir = lessons_with("dup", {{"zz_epita_copy.json", epita},
                                               {"zz_huge.json", std::string(kMaxLessonFileBytes + 1, ' ')}});
  std::vector<std::string> problems;
  load_lessons(dir, &problems);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("lesson id 'epita' is already taken by"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("zz_huge.json: larger than 1 MiB"), std::string::npos) << problems[1];
}
