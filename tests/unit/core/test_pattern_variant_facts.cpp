// Every variant carries its own facts (variant.hpp): walks the registry and checks that the facts agree
// with each other and with the variant's pattern, so that no code needs a table keyed by variant ids.
#include <gtest/gtest.h>

#include "patterns.hpp"
#include "patterns/convolution/conv_geometry.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"

namespace ws {
namespace {

TEST(VariantFacts, EveryVariantsPatternIsRegisteredWithItsModel) {
  for (const auto& v : all_variants()) {
    const PatternSpec* s = find_pattern(v.pattern);
    ASSERT_NE(s, nullptr) << v.id << ": pattern '" << v.pattern << "' has no PatternSpec";
    EXPECT_NE(s->reference, nullptr) << v.pattern;
    EXPECT_TRUE(v.cpu_only || sim::has_model(v.id)) << v.id << " has no sim model";
    if (v.cpu_only) EXPECT_NE(s->run_cpu, nullptr) << v.id << " runs on the host but its pattern has no run_cpu";
  }
}

TEST(VariantFacts, ConvolutionVariantsHaveATileGeometry) {
  int conv = 0;
  for (const auto& v : all_variants()) {
    const bool is_conv = (pattern_of(v).options & kOptionImage) != 0;
    EXPECT_EQ(is_conv, v.conv != ConvKind::None) << v.id;
    if (!is_conv) continue;
    ++conv;
    ConvGeometry g;
    const bool image = conv_kind_is_2d(v.conv);
    ASSERT_EQ(conv_geometry(v, 5, 0, 0, 100, image ? 100 : 0, g), "") << v.id;
    EXPECT_EQ(g.dims, image ? 2 : 1) << v.id;
    EXPECT_GT(g.tile_x, 0) << v.id;
    EXPECT_GT(g.threads(), 0) << v.id;
  }
  EXPECT_GE(conv, 8);
}

TEST(VariantFacts, AtomicsVariantsHaveAKind) {
  int atomics = 0;
  for (const auto& v : all_variants()) {
    const bool is_atomics = (pattern_of(v).options & kOptionKeep) != 0;
    EXPECT_EQ(is_atomics, v.atomics != AtomicsKind::None) << v.id;
    if (v.any_order) EXPECT_EQ(v.atomics, AtomicsKind::Filter) << v.id << ": only filters may write in any order";
    if (v.atomics == AtomicsKind::Histogram) EXPECT_TRUE(v.rules.bytes_input) << v.id << ": histograms read bytes";
    atomics += is_atomics;
  }
  EXPECT_GE(atomics, 12);
}

TEST(VariantFacts, LaunchAndTraceFactsAreConsistent) {
  for (const auto& v : all_variants()) {
    if (v.rules.int_only) EXPECT_FALSE(v.rules.int_only_reason.empty()) << v.id << ": int_only without a reason";
    if (v.traceable) {
      EXPECT_FALSE(v.cpu_only) << v.id << ": host code has no steps to trace";
      EXPECT_FALSE(v.baseline) << v.id << ": library calls are not modelled at thread level";
    }
    EXPECT_GE(v.traced_launch, 0) << v.id;
    if (!v.no_gpu_trace.empty()) EXPECT_TRUE(v.traceable) << v.id;
    if (v.cautionary) EXPECT_FALSE(v.caution.empty()) << v.id;
    if (v.slide_model) EXPECT_TRUE(v.cautionary) << v.id;
    if (v.baseline) EXPECT_FALSE(v.racy) << v.id;
  }
}

}  // namespace
}  // namespace ws
