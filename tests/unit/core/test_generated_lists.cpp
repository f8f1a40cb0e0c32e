// The lists CMake generates from file names instead of a list kept by hand (issue 29): every lesson's
// variants file gives one table (lesson_variant_tables()), their places put all_variants() in the
// documented teaching order, and every pattern folder's spec file gives one PatternKind value.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pattern_kind.hpp"
#include "patterns.hpp"
#include "registry.hpp"

using namespace ws;
namespace fs = std::filesystem;

namespace {

const fs::path kPatternsDir = fs::path(WS_TEST_DIR) / ".." / "app" / "core" / "patterns";

/// "<lesson>/<pattern>" of a variant: the table it comes from.
std::string table_of(const VariantInfo& v) { return v.lesson + "/" + to_string(v.pattern); }

/// The variants files on disk, as "<lesson>/<pattern>" (app/core/patterns/<pattern>/variants/<lesson>.cpp).
std::set<std::string> variants_files() {
  std::set<std::string> out;
  for (const auto& pattern : fs::directory_iterator(kPatternsDir)) {
    const fs::path dir = pattern.path() / "variants";
    if (!fs::is_directory(dir)) continue;
    for (const auto& f : fs::directory_iterator(dir))
      if (f.path().extension() == ".cpp")
        out.insert(f.path().stem().string() + "/" + pattern.path().filename().string());
  }
  return out;
}

}  // namespace

TEST(GeneratedLists, EveryVariantsFileGivesOneTableOfItsLessonAndPattern) {
  const std::set<std::string> files = variants_files();
  ASSERT_FALSE(files.empty()) << kPatternsDir;
  std::set<std::string> tables;
  for (const LessonVariants& t : lesson_variant_tables()) {
    ASSERT_FALSE(t.variants.empty());
    // A table opens with its own lesson's variant; baselines of other "lessons" (cub.scan,
    // scan.decoupled_lookback) may follow, of the same pattern.
    const std::string name = table_of(t.variants.front());
    SCOPED_TRACE(name);
    EXPECT_TRUE(tables.insert(name).second) << "two tables of one lesson and pattern";
    for (const VariantInfo& v : t.variants) EXPECT_EQ(v.pattern, t.variants.front().pattern) << v.id;
  }
  EXPECT_EQ(tables, files) << "a variants file is not in the generated list (re-run cmake?), or a table's "
                              "first variant does not carry its file's lesson and pattern";
}

TEST(GeneratedLists, AllVariantsFollowTheDocumentedTeachingOrder) {
  // The seeds' order, and inside a seed its lecture's (docs/architecture.md, "Add a lesson to reduction").
  const std::vector<std::string> want = {"epita/reduction", "stevens/convolution", "stevens/reduction",
                                         "stevens/scan",    "harris/reduction",    "cs121/reduction",
                                         "cs121/atomics",   "amp/reduction",       "cub/reduction"};
  std::map<std::string, std::vector<std::string>> by_table;
  for (const LessonVariants& t : lesson_variant_tables())
    for (const VariantInfo& v : t.variants) by_table[table_of(t.variants.front())].push_back(v.id);
  ASSERT_EQ(by_table.size(), want.size()) << "a new lesson's table: add it to `want` at its place";
  // all_variants() is the tables one after another in that order, each in its file's order.
  std::vector<std::string> in_order, ids;
  for (const std::string& t : want) {
    ASSERT_EQ(by_table.count(t), 1u) << t;
    in_order.insert(in_order.end(), by_table[t].begin(), by_table[t].end());
  }
  for (const VariantInfo& v : all_variants()) ids.push_back(v.id);
  EXPECT_EQ(ids, in_order) << "a table's TeachingPlace is wrong";
}

TEST(GeneratedLists, TeachingPlacesAreDistinctAndFollowTheSeedFiles) {
  std::set<std::pair<int, int>> places;
  for (const LessonVariants& t : lesson_variant_tables()) {
    SCOPED_TRACE(table_of(t.variants.front()));
    EXPECT_TRUE(places.insert({t.place.seed, t.place.part}).second) << "two tables share a teaching place";
    // A table of a seed file NNN_*.txt has seed rank NNN (the library baselines have no seed file).
    for (const VariantInfo& v : t.variants) {
      const bool seed_file = v.seed.size() > 4 && v.seed[3] == '_' && v.seed.compare(v.seed.size() - 4, 4, ".txt") == 0;
      if (seed_file) EXPECT_EQ(t.place.seed, std::stoi(v.seed.substr(0, 3))) << v.id;
    }
  }
}

TEST(GeneratedLists, EveryPatternFolderGivesOnePatternKind) {
  std::set<std::string> folders;
  for (const auto& pattern : fs::directory_iterator(kPatternsDir)) {
    const std::string name = pattern.path().filename().string();
    if (fs::exists(pattern.path() / ("pattern_" + name + ".cpp"))) folders.insert(name);
  }
  ASSERT_FALSE(folders.empty());
  std::set<std::string> kinds;
  for (const auto& [kind, name] : kPatternNames)
    if (kind != PatternKind::Fixture) kinds.insert(name);
  EXPECT_EQ(kinds, folders) << "a spec file is not in the generated PatternKind (re-run cmake?)";
  // Teaching order: the values' order is all_patterns()'s, Reduction first and Fixture last.
  EXPECT_EQ(static_cast<int>(PatternKind::Reduction), 0);
  EXPECT_EQ(static_cast<std::size_t>(PatternKind::Fixture), folders.size());
  std::vector<std::string> order;
  for (const PatternSpec& s : all_patterns()) order.push_back(to_string(s.kind));
  EXPECT_EQ(order, (std::vector<std::string>{"reduction", "scan", "convolution", "atomics"}));
}
