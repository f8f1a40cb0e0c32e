// The shared-memory hazard detector (sim/hazards.hpp): the missing-__syncthreads lesson is flagged,
// reduce3 with its barriers dropped is flagged, every correct traceable variant is clean.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"
#include "trace/hazards.hpp"
#include "trace/trace_store.hpp"

using namespace ws;

namespace {

Trace trace_of(const std::string& id, std::int64_t n, int block, const std::string& input = "random") {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  Input in;
  EXPECT_EQ(make_input(input, n, DType::Int32, 3, in), "");
  LaunchConfig launch;
  EXPECT_EQ(resolve_launch(*v, n, in.type, LaunchConfig{block, 0}, DeviceShape{}, launch), "")
      << id << " block " << block;
  return sim::simulate(*v, in, launch, PatternParams{}, 0).trace;
}

ThreadOp op(int thread, OpKind kind, std::int64_t word, int access) {
  ThreadOp o;
  o.thread = thread;
  o.kind = kind;
  o.space = Space::Shared;
  o.access = access;
  o.address = word;
  return o;
}

Trace two_steps(std::vector<ThreadOp> a, std::vector<ThreadOp> b, bool barrier_between) {
  Trace t;
  t.block_size = 64;
  t.steps.resize(2);
  t.steps[0].index = 0;
  t.steps[0].ops = std::move(a);
  t.steps[0].barrier_after = barrier_between;
  t.steps[1].index = 1;
  t.steps[1].ops = std::move(b);
  return t;
}

}  // namespace

TEST(SimHazards, ReadAgainstWriteOfAnotherWarpWithoutBarrier) {
  // Thread 3 (warp 0) reads word 40, which thread 40 (warp 1) wrote in the step before.
  const Trace t = two_steps({op(40, OpKind::Store, 40, 0)}, {op(3, OpKind::Load, 40, 0)}, false);
  const std::vector<Hazard> h = shared_hazards(t);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].word, 40);
  EXPECT_TRUE(h[0].read_write);
  EXPECT_EQ(h[0].pairs, 1);
  EXPECT_EQ(h[0].first.thread, 40);
  EXPECT_EQ(h[0].second.thread, 3);
  EXPECT_EQ(describe_hazard(h[0]),
            "thread 3 reads shared[40] while thread 40 writes it, no barrier between (steps 0 and 1)");
  EXPECT_EQ(hazards_at_step(h, 0).size(), 1u);
  EXPECT_EQ(hazards_at_step(h, 1).size(), 1u);
  // A barrier between them orders the two: clean.
  EXPECT_TRUE(shared_hazards(two_steps({op(40, OpKind::Store, 40, 0)}, {op(3, OpKind::Load, 40, 0)}, true)).empty());
  // One warp runs in lock-step: thread 7 reading what thread 20 wrote is ordered.
  EXPECT_TRUE(shared_hazards(two_steps({op(20, OpKind::Store, 20, 0)}, {op(7, OpKind::Load, 20, 0)}, false)).empty());
}

TEST(SimHazards, AtomicsRaceWithPlainAccessesButNotWithEachOther) {
  const Trace atomics =
      two_steps({op(0, OpKind::Atomic, 0, 0), op(33, OpKind::Atomic, 0, 0)}, {op(64 - 1, OpKind::Atomic, 0, 0)}, false);
  EXPECT_TRUE(shared_hazards(atomics).empty());
  // Thread 0 zeroes the word while warp 1 adds into it: a write-write hazard, 2 pairs (thread 0 with 33 and 63).
  const Trace zero =
      two_steps({op(0, OpKind::Store, 0, 0)}, {op(33, OpKind::Atomic, 0, 0), op(63, OpKind::Atomic, 0, 0)}, false);
  const std::vector<Hazard> h = shared_hazards(zero);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_FALSE(h[0].read_write);
  EXPECT_EQ(h[0].pairs, 2);
  EXPECT_EQ(describe_hazard(h[0]),
            "thread 0 writes shared[0] while thread 33 atomically updates it, no barrier between (steps 0 and 1; 1 "
            "more pair on this word)");
}

TEST(SimHazards, BarrierInsideAStepSeparatesItsReadsFromItsWrites) {
  // Kogge-Stone: thread 32 (warp 1) reads word 31, thread 31 (warp 0) writes it, after the step's second barrier.
  Trace t = two_steps({op(31, OpKind::Store, 31, 2), op(32, OpKind::Load, 31, 1)}, {}, true);
  EXPECT_EQ(shared_hazards(t).size(), 1u);
  t.steps[0].barrier_before_access = 2;
  EXPECT_TRUE(shared_hazards(t).empty());
}

TEST(SimHazards, TheMissingSyncthreadsVariantIsFlagged) {
  // epita.reduce1_nosync (seed 000, "Output Privatization": "Is this correct? No!"): thread 0 zeroes
  // local_sum and reads it for the commit while warps 1.. add into it, with no barrier between.
  const Trace t = trace_of("epita.reduce1_nosync", 1024, 256, "ones");
  const std::vector<Hazard> h = shared_hazards(t);
  ASSERT_FALSE(h.empty());
  bool read_by_commit = false;
  for (const Hazard& x : h) {
    EXPECT_EQ(x.word, 0);  // local_sum is the block's one shared word
    if (x.read_write && (x.first.thread == 0 || x.second.thread == 0)) read_by_commit = true;
  }
  EXPECT_TRUE(read_by_commit);
  // 224 threads of warps 1..7 against thread 0's zeroing store and its commit load.
  std::int64_t pairs = 0;
  for (const Hazard& x : h) pairs += x.pairs;
  EXPECT_EQ(pairs, 2 * 224);
  // Its launch rules refuse one warp for the same reason the detector would find nothing there: one
  // warp runs the zeroing, the additions and the commit in lock-step (program order).
}

TEST(SimHazards, Reduce3WithoutItsBarriersIsFlagged) {
  // The model of reduce3 with every __syncthreads dropped: in step "stride 128" thread 0 reads
  // partialSum[128], which thread 128 (warp 4) stored in the load step.
  Trace t = trace_of("epita.reduce3", 256, 256);
  ASSERT_TRUE(shared_hazards(t).empty());
  for (Step& s : t.steps) s.barrier_after = false;
  const std::vector<Hazard> h = shared_hazards(t);
  ASSERT_FALSE(h.empty());
  bool found = false;
  for (const Hazard& x : h)
    if (x.word == 128 && x.read_write) {
      found = true;
      EXPECT_EQ(x.first.thread, 128);
      EXPECT_EQ(x.first.kind, OpKind::Store);
      EXPECT_EQ(x.second.thread, 0);
      EXPECT_EQ(x.second.kind, OpKind::Load);
      EXPECT_GT(x.first.line, 0);
      EXPECT_NE(describe_hazard(x).find("thread 0 reads shared[128] while thread 128 writes it, no barrier between"),
                std::string::npos)
          << describe_hazard(x);
    }
  EXPECT_TRUE(found);
  // At 16 threads (one warp, as the slides draw the tree) the same code runs in lock-step: clean.
  Trace small = trace_of("epita.reduce3", 16, 16);
  for (Step& s : small.steps) s.barrier_after = false;
  EXPECT_TRUE(shared_hazards(small).empty());
}

TEST(SimHazards, EveryCorrectTraceableVariantIsClean) {
  // Every traceable variant (reductions and block scans) at the slides' 16 threads and at 64, 256 and
  // 1024, on one block's window (the single-block scans' largest n) and on several blocks.
  int walked = 0, racy_flagged = 0;
  std::set<std::string> seen;
  for (const VariantInfo& v : all_variants()) {
    if (!v.traceable || !sim::has_model(v.id)) continue;
    for (int block : {16, 64, 256, 1024}) {
      for (std::int64_t n : {std::int64_t(block), std::int64_t(4 * block + 5)}) {
        Input in;
        ASSERT_EQ(make_input("random", n, DType::Int32, 5, in), "");
        LaunchConfig launch;
        if (!resolve_launch(v, n, in.type, LaunchConfig{block, 0}, DeviceShape{}, launch).empty()) continue;
        for (bool exclusive : {false, true}) {
          if (exclusive && v.pattern != PatternKind::Scan) continue;
          PatternParams pp;
          pp.exclusive = exclusive;
          const Trace t = sim::simulate(v, in, launch, pp, 0).trace;
          const std::vector<Hazard> h = shared_hazards(t);
          ++walked;
          seen.insert(v.id);
          if (v.racy) {
            racy_flagged += !h.empty();
            continue;
          }
          EXPECT_TRUE(h.empty()) << v.id << " block " << block << " n " << n << ": "
                                 << (h.empty() ? "" : describe_hazard(h[0]));
        }
      }
    }
  }
  EXPECT_GE(walked, 150);
  for (const char* id : {"epita.reduce3", "epita.reduce6", "harris.impl6", "cs121.block_reduce", "stevens.kogge_stone",
                         "stevens.kogge_stone_db", "stevens.brent_kung", "epita.reduce1_nosync"})
    EXPECT_TRUE(seen.count(id)) << id << " was not walked";
  EXPECT_GE(racy_flagged, 1) << "reduce1_nosync at blocks of more than one warp";
}

TEST(SimHazards, BarriersSurviveAStoredTrace) {
  const Trace t = trace_of("epita.reduce6", 1024, 256);
  bool warp_steps = false;
  for (const Step& s : t.steps) warp_steps |= !s.barrier_after;
  EXPECT_TRUE(warp_steps) << "the unrolled last warp has no barriers";
  const Trace back = trace_from_store_json(trace_to_store_json(t));
  ASSERT_EQ(back.steps.size(), t.steps.size());
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    EXPECT_EQ(back.steps[i].barrier_after, t.steps[i].barrier_after) << i;
    EXPECT_EQ(back.steps[i].barrier_before_access, t.steps[i].barrier_before_access) << i;
  }
}
