// Sim models of the reduction trees of "CS 677 Lecture 6", Mordohai ("Reduction Trees"): results
// against the CPU reference, and the slides' statements about active threads checked on the traces.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "patterns/reduction/reference.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"
#include "trace/analyses.hpp"

using namespace ws;

namespace {

sim::SimOutput simulate(const std::string& id, const Input& in, int block, int trace_block) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  LaunchConfig launch;
  EXPECT_EQ(resolve_launch(*v, in.n(), in.type, LaunchConfig{block, 0}, DeviceShape{}, launch), "");
  const sim::SimModel m = sim::find_model(id);
  EXPECT_NE(m, nullptr) << id;
  return m(*v, in, launch, PatternParams{}, trace_block);
}

Input make(const char* kind, std::int64_t n, DType type = DType::Int32) {
  Input in;
  EXPECT_EQ(make_input(kind, n, type, 5, in), "");
  return in;
}

}  // namespace

TEST(SimStevensReduction, EqualsTheReferenceAtAwkwardSizes) {
  for (const char* id : {"stevens.reduce_divergent", "stevens.reduce_compact"})
    for (std::int64_t n :
         {std::int64_t(1), std::int64_t(31), std::int64_t(1000), std::int64_t(4097), (std::int64_t(1) << 20) + 7})
      for (DType type : {DType::Int32, DType::Float32})
        for (int block : {32, 512}) {
          const Input in = make("random", n, type);
          const sim::SimOutput o = simulate(id, in, block, -1);
          EXPECT_TRUE(results_match(type, o.result, cpu_reference(ReduceOp::Sum, in), in))
              << id << " n " << n << " block " << block << ": " << o.result;
          // Windows of 2 * block, relaunched on the block sums: log_{2 block} n launches.
          std::int64_t m = n, launches = 0;
          do {
            m = (m + 2 * block - 1) / (2 * block);
            ++launches;
          } while (m > 1);
          EXPECT_EQ(o.launches, launches) << id << " n " << n;
        }
}

TEST(SimStevensReduction, DivergentTreeThinsEveryWarp) {
  // Slide "Some Observations" for a 1024-thread block: the first step has every thread active; after
  // it all odd threads are disabled, so every warp diverges; from stride 64 on whole warps fail the
  // test and each active warp has a single productive lane.
  const sim::SimOutput o = simulate("stevens.reduce_divergent", make("ones", 2048), 1024, 0);
  EXPECT_EQ(o.result, 2048);
  std::vector<const Step*> tree;
  for (const auto& s : o.trace.steps)
    if (s.phase == TracePhase::Tree) tree.push_back(&s);
  ASSERT_EQ(tree.size(), 11u);  // strides 1, 2, ..., 1024
  for (std::size_t k = 0; k < tree.size(); ++k) {
    const WarpActivity st = warp_activity(o.trace, active_masks(o.trace, *tree[k]));
    const int stride = 1 << k;
    EXPECT_EQ(st.active_lanes, 1024 / stride) << "stride " << stride;
    EXPECT_EQ(st.active_warps, stride <= 32 ? 32 : 1024 / stride) << "stride " << stride;
    EXPECT_EQ(st.divergent_warps, stride == 1 ? 0 : st.active_warps) << "stride " << stride;
  }
}

TEST(SimStevensReduction, CompactTreeKeepsThreadsConsecutive) {
  // Slide "A Quick Analysis": for a 1024-thread block, 1024, 512, 256, 128, 64, 32 consecutive
  // threads are active in the first steps with no divergence; the final 5 steps diverge.
  const sim::SimOutput o = simulate("stevens.reduce_compact", make("ones", 2048), 1024, 0);
  EXPECT_EQ(o.result, 2048);
  std::vector<const Step*> tree;
  for (const auto& s : o.trace.steps)
    if (s.phase == TracePhase::Tree) tree.push_back(&s);
  ASSERT_EQ(tree.size(), 11u);  // strides 1024, 512, ..., 1
  int divergent_steps = 0;
  for (std::size_t k = 0; k < tree.size(); ++k) {
    const WarpActivity st = warp_activity(o.trace, active_masks(o.trace, *tree[k]));
    const int stride = 1024 >> k;
    EXPECT_EQ(st.active_lanes, stride);
    ASSERT_EQ(tree[k]->working_threads.front(), 0);
    EXPECT_EQ(tree[k]->working_threads.back(), stride - 1);  // consecutive from thread 0
    EXPECT_EQ(st.divergent_warps, stride < 32 ? 1 : 0) << "stride " << stride;
    divergent_steps += st.divergent_warps > 0;
  }
  EXPECT_EQ(divergent_steps, 5);
}
