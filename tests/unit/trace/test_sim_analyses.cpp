// Analyses over hand-made traces (bank conflicts, masks, sectors, atomics) and the trace JSON.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "trace/analyses.hpp"
#include "trace/trace_json.hpp"

using namespace ws;

namespace {
std::vector<std::int64_t> strided(int lanes, std::int64_t stride, std::int64_t start = 0) {
  std::vector<std::int64_t> w;
  for (int l = 0; l < lanes; ++l) w.push_back(start + l * stride);
  return w;
}
Trace block_of(int threads) {
  Trace t;
  t.block_size = threads;
  t.launch = LaunchConfig{threads, 1};
  return t;
}
ThreadOp op(int thread, OpKind kind, Space space, int access, std::int64_t address, int buffer = 0) {
  ThreadOp o;
  o.thread = thread;
  o.kind = kind;
  o.space = space;
  o.access = access;
  o.address = address;
  o.buffer = buffer;
  return o;
}
}  // namespace

TEST(SimAnalyses, BankConflictWays) {
  EXPECT_EQ(bank_conflict_ways({}), 0);
  EXPECT_EQ(bank_conflict_ways(strided(32, 1)), 1);  // consecutive words: one per bank
  EXPECT_EQ(bank_conflict_ways(strided(32, 2)), 2);  // even words: banks 0, 2, .. twice each
  EXPECT_EQ(bank_conflict_ways(strided(32, 4)), 4);
  EXPECT_EQ(bank_conflict_ways(strided(32, 32)), 32);                  // one column: every lane in bank 0
  EXPECT_EQ(bank_conflict_ways(strided(32, 33)), 1);                   // padded column: conflict-free
  EXPECT_EQ(bank_conflict_ways(std::vector<std::int64_t>(32, 7)), 1);  // broadcast of one word
  EXPECT_EQ(bank_conflict_ways({0, 32, 32, 0}), 2);                    // two distinct words in bank 0
  EXPECT_EQ(bank_conflict_ways(strided(16, 2, 512)), 1);               // 16 even words from 512: distinct banks
  EXPECT_EQ(bank_conflict_ways(strided(8, 64)), 8);
}

TEST(SimAnalyses, MasksDivergenceAndIdleWarps) {
  Trace t = block_of(80);  // warps of 32, 32 and 16 lanes
  EXPECT_EQ(t.warps(), 3);
  EXPECT_EQ(existing_lanes(80, 0), 0xffffffffu);
  EXPECT_EQ(existing_lanes(80, 2), 0xffffu);
  EXPECT_EQ(existing_lanes(80, 3), 0u);
  Step s;
  for (int th = 0; th < 32; ++th) s.working_threads.push_back(th);   // warp 0 full
  for (int th = 64; th < 80; ++th) s.working_threads.push_back(th);  // the partial warp, all its lanes
  s.working_threads.push_back(40);                                   // one lane of warp 1
  s.working_threads.push_back(500);                                  // outside the block: ignored
  const auto masks = active_masks(t, s);
  ASSERT_EQ(masks.size(), 3u);
  EXPECT_EQ(masks[0], 0xffffffffu);
  EXPECT_EQ(masks[1], 1u << 8);
  EXPECT_EQ(masks[2], 0xffffu);
  const WarpActivity a = warp_activity(t, masks);
  EXPECT_EQ(a.active_warps, 3);
  EXPECT_EQ(a.divergent_warps, 1);  // the partial warp is fully active: not divergent
  EXPECT_EQ(a.idle_warps, 0);
  EXPECT_EQ(a.active_lanes, 49);
  Step none;
  EXPECT_EQ(warp_activity(t, active_masks(t, none)).idle_warps, 3);
}

TEST(SimAnalyses, StepConflictsTakeTheWorstAccessPerWarp) {
  Trace t = block_of(64);
  Step s;
  for (int lane = 0; lane < 32; ++lane) {
    s.ops.push_back(op(lane, OpKind::Load, Space::Shared, 0, lane));       // conflict-free
    s.ops.push_back(op(lane, OpKind::Store, Space::Shared, 1, lane * 4));  // 4-way
    s.ops.push_back(op(lane, OpKind::Add, Space::Register, -1, -1));
  }
  s.ops.push_back(op(32, OpKind::Load, Space::Global, 0, 0));  // warp 1: global only
  const auto ways = step_bank_conflicts(t, s);
  ASSERT_EQ(ways.size(), 2u);
  EXPECT_EQ(ways[0], 4);
  EXPECT_EQ(ways[1], 0);
}

TEST(SimAnalyses, SectorsPerWarpRequest) {
  Trace t = block_of(64);
  Step s;
  for (int lane = 0; lane < 32; ++lane) {
    s.ops.push_back(op(lane, OpKind::Load, Space::Global, 0, 1024 + lane));    // coalesced: 4 sectors
    s.ops.push_back(op(lane, OpKind::Load, Space::Global, 1, lane * 32));      // one per sector: 32
    s.ops.push_back(op(32 + lane, OpKind::Load, Space::Global, 0, 3 + lane));  // misaligned: 5 sectors
  }
  s.ops.push_back(op(0, OpKind::Load, Space::Global, 2, 0, 1));  // another buffer, one lane
  const auto reqs = global_load_sectors(t, s);
  ASSERT_EQ(reqs.size(), 4u);
  EXPECT_EQ(reqs[0].warp, 0);
  EXPECT_EQ(reqs[0].sectors, 4);
  EXPECT_EQ(reqs[0].min_sectors, 4);
  EXPECT_EQ(reqs[0].lanes, 32);
  EXPECT_EQ(reqs[1].sectors, 32);
  EXPECT_EQ(reqs[1].min_sectors, 4);
  EXPECT_EQ(reqs[2].buffer, 1);
  EXPECT_EQ(reqs[2].sectors, 1);
  EXPECT_EQ(reqs[2].min_sectors, 1);
  EXPECT_EQ(reqs[3].warp, 1);
  EXPECT_EQ(reqs[3].sectors, 5);
  const StepSummary sum = summarize_step(t, s);
  EXPECT_EQ(sum.load_requests, 4);
  EXPECT_EQ(sum.sectors, 42);
  EXPECT_EQ(sum.min_sectors, 13);
}

TEST(SimAnalyses, AtomicsPerAddressAndLongestChain) {
  Trace t = block_of(64);
  Step s;
  for (int th = 0; th < 64; ++th) s.ops.push_back(op(th, OpKind::Atomic, Space::Global, 0, th % 4, 1));
  s.ops.push_back(op(0, OpKind::Atomic, Space::Global, 1, 0, 2));
  s.ops.push_back(op(0, OpKind::Atomic, Space::Shared, 2, 0));
  const AtomicStats a = atomic_stats(s);
  EXPECT_EQ(a.ops, 66);
  EXPECT_EQ(a.longest_chain, 16);
  EXPECT_EQ(a.addresses.size(), 6u);  // 4 in buffer 1, 1 in buffer 2, 1 shared
  t.steps = {s, s};
  EXPECT_EQ(atomic_stats(t).longest_chain, 32);
}

TEST(SimAnalyses, TraceJsonHasTheIssueFields) {
  Trace t = block_of(64);
  t.variant = "test.v";
  t.n = 64;
  Step s;
  s.index = 0;
  s.phase = TracePhase::Tree;
  s.label = "stride 32";
  for (int th = 0; th < 32; ++th) {
    s.working_threads.push_back(th);
    s.ops.push_back(op(th, OpKind::Load, Space::Shared, 0, th));
  }
  s.has_shared = true;
  s.shared_after = std::vector<double>(64, 3.0);
  Step g;
  g.index = 1;
  g.phase = TracePhase::Load;
  g.label = "x";
  g.working_threads = {0, 1};
  g.ops = {op(0, OpKind::Load, Space::Global, 0, 0), op(1, OpKind::Atomic, Space::Global, 1, 0, 2)};
  t.steps = {s, g};
  const nlohmann::json j = trace_to_json(t);
  for (const char* k :
       {"variant", "source", "n", "type", "block", "grid", "block_index", "racy_model", "interleaving", "steps"})
    EXPECT_TRUE(j.contains(k)) << k;
  const auto& js = j["steps"][0];
  EXPECT_EQ(js["warp_masks"], nlohmann::json({4294967295u, 0}));
  EXPECT_EQ(js["bank_conflict_ways"], nlohmann::json({1, 0}));
  EXPECT_EQ(js["values"].size(), 64u);
  EXPECT_EQ(js["values"][0], 3);  // int32 trace: integers
  EXPECT_EQ(js["active_warps"], 1);
  EXPECT_EQ(js["divergent_warps"], 0);
  EXPECT_EQ(js["active_lanes"], 32);
  EXPECT_FALSE(js.contains("ops"));
  const auto& jg = j["steps"][1];
  EXPECT_FALSE(jg.contains("values"));
  EXPECT_EQ(jg["divergent_warps"], 1);
  EXPECT_EQ(jg["global_loads"]["sectors"], 1);
  EXPECT_EQ(jg["atomics"]["longest_chain"], 1);
  const nlohmann::json with = trace_to_json(t, true);
  ASSERT_EQ(with["steps"][1]["ops"].size(), 2u);
  EXPECT_EQ(with["steps"][1]["ops"][1]["kind"], "atomic");
  EXPECT_EQ(with["steps"][1]["ops"][1]["buffer"], 2);
}
