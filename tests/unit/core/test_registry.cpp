#include <gtest/gtest.h>

#include <set>

#include "launch_rules.hpp"
#include "registry.hpp"

using namespace ws;

// The ids the foundation issue asks for, exactly.
static const std::vector<std::string> kExpectedIds = {
    "epita.race",        "epita.reduce0",      "epita.reduce1_nosync", "epita.reduce1",       "epita.reduce2",
    "epita.reduce3",     "epita.reduce4",      "epita.add_twice",      "epita.reduce5",       "epita.reduce6",
    "epita.full_unroll", "epita.reduce7",      "epita.reduce8",        "epita.reduce8_fixed", "harris.naive",
    "harris.impl1",      "harris.impl2",       "harris.impl3",         "harris.impl4",        "harris.impl5",
    "harris.impl6",      "harris.impl7",       "harris.impl5_shfl",    "harris.multipass",    "cs121.atomic_max",
    "cs121.local_max",   "cs121.block_reduce", "cs121.device_reduce",  "amp.sequential",      "amp.simple_1",
    "amp.simple_2",      "amp.tiled_1",        "amp.tiled_2",          "amp.tiled_3",         "amp.tiled_4",
    "amp.cascade",       "cub.reduce",         "epita.tuned"};

TEST(Registry, HoldsExactlyTheIssuesIds) {
  std::set<std::string> got;
  for (const auto& v : all_variants()) EXPECT_TRUE(got.insert(v.id).second) << "duplicate id " << v.id;
  // The foundation's reductions, exactly; the array patterns test their own ids (test_<pattern>*.cpp).
  std::set<std::string> want(kExpectedIds.begin(), kExpectedIds.end()), reductions;
  for (const auto& v : all_variants())
    if (v.pattern == PatternKind::Reduction && v.lesson != "stevens") reductions.insert(v.id);
  EXPECT_EQ(reductions, want);
}

TEST(Registry, EveryVariantHasItsMetadata) {
  for (const auto& v : all_variants()) {
    SCOPED_TRACE(v.id);
    EXPECT_EQ(v.id.substr(0, v.id.find('.')), v.lesson);
    EXPECT_NE(v.pattern, PatternKind::Fixture) << "the fixture pattern is a test's";
    EXPECT_FALSE(v.title.empty());
    EXPECT_FALSE(v.description.empty());
    if (!v.baseline && !v.beyond_slides) {
      EXPECT_FALSE(v.seed.empty());
      EXPECT_FALSE(v.slide.empty());
    }
    EXPECT_GE(v.rules.default_block, v.rules.min_block);
    EXPECT_LE(v.rules.default_block, v.rules.max_block);
    if (v.cautionary) {
      EXPECT_FALSE(v.caution.empty());
      EXPECT_NE(v.slide_model, nullptr);
    }
  }
}

TEST(Registry, IntOnlyVariantsCarryTheirOwnReason) {
  std::set<std::string> reasons;
  int int_only = 0;
  for (const auto& v : all_variants()) {
    SCOPED_TRACE(v.id);
    if (!v.rules.int_only) {
      EXPECT_TRUE(v.rules.int_only_reason.empty());
      continue;
    }
    ++int_only;
    EXPECT_FALSE(v.rules.int_only_reason.empty());
    // atomicMax is the reason of the max variants only.
    EXPECT_EQ(v.rules.int_only_reason.find("atomicMax") != std::string::npos,
              v.op == ReduceOp::Max && v.pattern == PatternKind::Reduction);
    EXPECT_EQ(int_only_refusal(v), v.id + " takes int32 only: " + v.rules.int_only_reason);
    reasons.insert(v.rules.int_only_reason);
  }
  EXPECT_EQ(int_only, 10);
  EXPECT_GE(reasons.size(), 9u);  // atomic_max and local_max share theirs; every other variant has its own
}

TEST(Registry, FlagsMatchTheSlides) {
  EXPECT_TRUE(find_variant("epita.race")->racy);
  EXPECT_TRUE(find_variant("epita.reduce1_nosync")->racy);
  EXPECT_FALSE(find_variant("epita.reduce1")->racy);
  EXPECT_TRUE(find_variant("epita.reduce8")->cautionary);
  EXPECT_FALSE(find_variant("epita.reduce8_fixed")->cautionary);
  EXPECT_TRUE(find_variant("cub.reduce")->baseline);
  EXPECT_TRUE(find_variant("amp.sequential")->cpu_only);
  EXPECT_EQ(find_variant("cs121.atomic_max")->op, ReduceOp::Max);
  EXPECT_EQ(find_variant("cs121.local_max")->op, ReduceOp::Max);
  EXPECT_EQ(find_variant("epita.reduce8")->rules.fixed_block, 32);
  EXPECT_EQ(find_variant("unknown.id"), nullptr);
  for (const auto& v : all_variants())  // baselines are the library's (one per pattern or task)
    if (v.baseline) EXPECT_EQ(v.lesson, "cub") << v.id;
}
