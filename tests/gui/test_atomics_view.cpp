// The Atomics view's model (atomics_picture): bars per address with the longest chain marked, and the
// lanes issuing atomics per warp, on hand-built traces and on the sim traces of the atomics lesson.
#include <gtest/gtest.h>

#include "registry.hpp"
#include "trace_source.hpp"
#include "views/view_atomics.hpp"

namespace ws::ui {

using controller::compute_trace;
using controller::TraceKey;

namespace {

ThreadOp atomic_op(int thread, Space space, std::int64_t address, double value, int buffer) {
  ThreadOp o;
  o.thread = thread;
  o.kind = OpKind::Atomic;
  o.space = space;
  o.address = address;
  o.value = value;
  o.buffer = buffer;
  return o;
}

TEST(AtomicsView, BarsAndLeadersOfAHandBuiltStep) {
  Trace t;
  t.variant = "cs121.hist_global";
  t.block_size = 64;
  Step s;
  s.phase = TracePhase::Atomic;
  // Warp 0: lanes 0..2 on bin 5, lane 3 on bin 9; warp 1: lane 7 on bin 9.
  for (int l = 0; l < 3; ++l) s.ops.push_back(atomic_op(l, Space::Global, 5, 1, 1));
  s.ops.push_back(atomic_op(3, Space::Global, 9, 1, 1));
  s.ops.push_back(atomic_op(39, Space::Global, 9, 1, 1));
  s.working_threads = {0, 1, 2, 3, 4, 39};
  t.steps.push_back(s);
  const AtomicsPicture p = atomics_picture(t, t.steps[0]);
  EXPECT_EQ(p.step.ops, 5);
  EXPECT_EQ(p.step.longest_chain, 3);
  ASSERT_EQ(p.bars.size(), 2u);
  EXPECT_EQ(p.bars[0].label, "hist[5]");
  EXPECT_TRUE(p.bars[0].longest);
  EXPECT_FALSE(p.bars[1].longest);
  ASSERT_EQ(p.warps.size(), 2u);
  EXPECT_EQ(p.warps[0].atomic_lanes, 0xfu);
  EXPECT_EQ(p.warps[0].working, 0x1fu);
  EXPECT_EQ(p.warps[0].ops, 4);
  EXPECT_EQ(p.warps[1].atomic_lanes, 1u << 7);
  // Too many addresses: the busiest are kept.
  const AtomicsPicture cut = atomics_picture(t, t.steps[0], 1);
  ASSERT_EQ(cut.bars.size(), 1u);
  EXPECT_EQ(cut.bars[0].address.address, 5);
  EXPECT_EQ(cut.hidden_addresses, 1);
  // One atomic on the accumulator (reduce1_nosync's commit): no chain, nothing red; named as the kernel names it.
  Trace one;
  one.variant = "epita.reduce1_nosync";
  one.block_size = 64;
  Step c;
  c.phase = TracePhase::Combine;
  c.ops.push_back(atomic_op(0, Space::Global, 0, 32, 2));
  one.steps.push_back(c);
  const AtomicsPicture single = atomics_picture(one, one.steps[0]);
  ASSERT_EQ(single.bars.size(), 1u);
  EXPECT_EQ(single.bars[0].label, "*sum");
  EXPECT_FALSE(single.bars[0].longest);
}

TEST(AtomicsView, WarpAggregatedFilterHasOneLeaderPerWarp) {
  TraceKey key;
  key.variant = "cs121.filter_warp_agg";
  key.n = 256;
  key.input = "random";
  std::string why;
  const auto tr = compute_trace(*find_variant(key.variant), key, why);
  ASSERT_TRUE(tr) << why;
  const Step* atomic = nullptr;
  for (const Step& s : tr->steps)
    if (s.phase == TracePhase::Atomic) atomic = &s;
  ASSERT_NE(atomic, nullptr);
  const AtomicsPicture p = atomics_picture(*tr, *atomic);
  ASSERT_EQ(p.bars.size(), 1u);
  EXPECT_EQ(p.bars[0].label, "nres");
  for (const WarpAtomics& w : p.warps) {
    if (!w.working) continue;
    EXPECT_EQ(w.ops, 1);                                        // the leader only
    EXPECT_EQ(w.atomic_lanes, w.working & (~w.working + 1));    // the lowest kept lane (__ffs)
    EXPECT_EQ(w.added, double(__builtin_popcount(w.working)));  // adds the warp's count (__popc)
  }
}

TEST(AtomicsView, HistogramTracesReadBytes) {
  TraceKey key;
  key.variant = "cs121.hist_shared";
  key.n = 1 << 20;
  key.input = "ones";
  key.type = DType::Int32;  // the parameters panel's type: histograms trace bytes anyway
  std::string why;
  const auto tr = compute_trace(*find_variant(key.variant), key, why);
  ASSERT_TRUE(tr) << why;
  EXPECT_EQ(tr->type, DType::UInt8);
  const AtomicsPicture p = atomics_picture(*tr, tr->steps.at(1));
  ASSERT_EQ(p.bars.size(), 1u);
  EXPECT_EQ(p.bars[0].label, "local_hist[1]");
  EXPECT_EQ(p.step.longest_chain, 256);
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

TEST(AtomicsView, FilterTracesFollowTheKeptFraction) {
  TraceKey key;
  key.variant = "cs121.filter_global";
  key.n = 256;
  key.input = "random";
  std::string why;
  for (double keep : {0.0, 1.0}) {
    key.keep = keep;
    const auto tr = compute_trace(*find_variant(key.variant), key, why);
    ASSERT_TRUE(tr) << why;
    const AtomicsPicture p = atomics_picture(*tr, tr->steps.at(1));  // the atomic step
    EXPECT_EQ(p.step.ops, keep == 0.0 ? 0 : 256) << keep;
  }
}

}  // namespace
}  // namespace ws::ui
