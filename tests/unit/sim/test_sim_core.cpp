// The sim backend: model lookup, results against the CPU reference, the slide's expectations for the
// EPITA and CS121 traces, racy interleavings, and speed at n = 2^22.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "patterns/reduction/reference.hpp"
#include "patterns/scan/reference.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "trace/analyses.hpp"

using namespace ws;

namespace {

Input make(const std::string& kind, std::int64_t n, DType type = DType::Int32, std::uint64_t seed = 7) {
  Input in;
  EXPECT_EQ(make_input(kind, n, type, seed, in), "");
  return in;
}

/// Resolves a launch as the sim backend does (no device: grid-stride grids capped at 1024 blocks).
bool launch_for(const VariantInfo& v, std::int64_t n, DType type, int block, LaunchConfig& out, std::int64_t grid = 0) {
  return resolve_launch(v, n, type, LaunchConfig{block, grid}, DeviceShape{}, out).empty();
}

sim::SimOutput simulate(const std::string& id, const Input& in, int block = 0, int trace_block = 0,
                        std::int64_t grid = 0) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  LaunchConfig launch;
  EXPECT_TRUE(launch_for(*v, in.n(), in.type, block, launch, grid)) << id << " block " << block;
  sim::SimModel m = sim::find_model(id);
  EXPECT_NE(m, nullptr) << id;
  return m(*v, in, launch, PatternParams{}, trace_block);
}

std::vector<const VariantInfo*> lesson(const std::string& name) {
  std::vector<const VariantInfo*> out;
  for (const auto& v : all_variants())
    if (v.lesson == name && v.pattern == PatternKind::Reduction) out.push_back(&v);  // atomics: test_sim_atomics.cpp
  return out;
}

const std::vector<std::int64_t> kAwkward = {1, 31, 1000, 4097, (std::int64_t(1) << 20) + 7};

}  // namespace

TEST(SimCore, EveryGpuVariantHasAModel) {
  for (const auto& v : all_variants()) {
    if (v.cpu_only) continue;
    EXPECT_TRUE(sim::has_model(v.id)) << v.id;
  }
  EXPECT_EQ(sim::find_model("nope"), nullptr);
}

TEST(SimCore, OpAndSpaceNames) {
  EXPECT_STREQ(to_string(OpKind::Shuffle), "shuffle");
  EXPECT_STREQ(to_string(OpKind::Atomic), "atomic");
  EXPECT_STREQ(to_string(Space::Shared), "shared");
  EXPECT_STREQ(to_string(Space::Register), "register");
}

TEST(SimCore, DeterministicVariantsEqualTheReferenceAtAwkwardSizes) {
  for (const char* name : {"epita", "cs121"}) {
    for (const VariantInfo* v : lesson(name)) {
      if (v->racy || v->cautionary) continue;
      for (std::int64_t n : kAwkward) {
        const Input in = make("random", n);
        const double ref = cpu_reference(v->op, in);
        for (int block : {0, 8, 16, 64, 1024}) {  // the default, the slides' 8- and 16-thread trees, the extremes
          LaunchConfig launch;
          if (!launch_for(*v, n, in.type, block, launch)) continue;
          const sim::SimOutput o = sim::find_model(v->id)(*v, in, launch, PatternParams{}, -1);
          EXPECT_EQ(o.result, ref) << v->id << " n=" << n << " block=" << launch.block;
          EXPECT_GE(o.launches, 1) << v->id;
        }
      }
    }
  }
}

TEST(SimCore, SmallTeachingBlocksWorkWhereTheRulesAllowThem) {
  // Every variant whose rules take the slides' 8- and 16-thread blocks computes the right answer with
  // them (reductions: the sum; scans: every element), at awkward sizes; the others refuse with a reason.
  int allowed = 0;
  for (const VariantInfo& v : all_variants()) {
    if (v.cpu_only || v.racy || v.cautionary || !sim::has_model(v.id)) continue;
    if (v.pattern != PatternKind::Reduction && v.pattern != PatternKind::Scan) continue;
    for (int block : {8, 16}) {
      for (std::int64_t n : {std::int64_t(1), std::int64_t(block), std::int64_t(2 * block + 3), std::int64_t(1000)}) {
        const Input in = make("random", n);
        LaunchConfig launch;
        const std::string why = resolve_launch(v, n, in.type, LaunchConfig{block, 0}, DeviceShape{}, launch);
        if (!why.empty()) {
          if (n == 1) EXPECT_GE(v.rules.min_block, 32) << v.id << ": refused block " << block << " with " << why;
          continue;
        }
        ++allowed;
        const sim::SimOutput o = sim::simulate(v, in, launch, PatternParams{}, 0);
        if (v.pattern == PatternKind::Reduction) {
          EXPECT_EQ(o.result, cpu_reference(v.op, in)) << v.id << " n=" << n << " block=" << block;
        } else {
          EXPECT_EQ(o.output, reference_scan(in, false).values) << v.id << " n=" << n << " block=" << block;
        }
        EXPECT_EQ(o.trace.block_size, block) << v.id;
      }
    }
  }
  EXPECT_GE(allowed, 60) << "the block-wide trees of epita, harris and stevens take 8 and 16 threads";
  // Warp-synchronous code refuses, with the rule's reason.
  LaunchConfig l;
  const std::string why =
      resolve_launch(*find_variant("epita.reduce6"), 1024, DType::Int32, LaunchConfig{16, 0}, DeviceShape{}, l);
  EXPECT_NE(why.find("partialSum[tid + 32]"), std::string::npos) << why;
}

TEST(SimCore, Float32SumsMatchTheReferenceWithinTolerance) {
  for (const char* name : {"epita", "cs121"}) {
    for (const VariantInfo* v : lesson(name)) {
      if (v->racy || v->cautionary || v->rules.int_only) continue;
      for (std::int64_t n : {std::int64_t(31), std::int64_t(4097), (std::int64_t(1) << 20) + 7}) {
        const Input in = make("random", n, DType::Float32);
        const sim::SimOutput o = simulate(v->id, in, 0, -1);
        EXPECT_TRUE(results_match(DType::Float32, o.result, cpu_reference(v->op, in), in)) << v->id << " n=" << n;
      }
    }
  }
  // The tree of reduce3 adds in float: ones sum exactly, and a block's partial is a float.
  const Input ones = make("ones", 3000, DType::Float32);
  EXPECT_EQ(simulate("epita.reduce3", ones, 256, 0).result, 3000.0);
}

TEST(SimCore, CubIsResultOnlyWithNoSteps) {
  const Input in = make("random", 100003);
  const sim::SimOutput o = simulate("cub.reduce", in, 0, 0);
  EXPECT_EQ(o.result, cpu_reference(ReduceOp::Sum, in));
  EXPECT_TRUE(o.trace.steps.empty());
  EXPECT_EQ(o.launches, 2);
  EXPECT_EQ(simulate("cub.reduce", make("ones", 100), 0, 0).launches, 1);
  const Input f = make("random", 100003, DType::Float32);
  EXPECT_TRUE(
      results_match(DType::Float32, simulate("cub.reduce", f, 0, -1).result, cpu_reference(ReduceOp::Sum, f), f));
}

TEST(SimCore, Reduce8EqualsItsSlideModel) {
  const VariantInfo* v = find_variant("epita.reduce8");
  for (std::int64_t n : kAwkward) {
    const Input in = make("random", n);
    LaunchConfig launch;
    ASSERT_TRUE(launch_for(*v, n, in.type, 0, launch));
    const sim::SimOutput o = sim::find_model(v->id)(*v, in, launch, PatternParams{}, -1);
    EXPECT_EQ(o.result, v->slide_model(in, launch)) << "n=" << n;
    if (n <= 1024) EXPECT_EQ(o.result, cpu_reference(ReduceOp::Sum, in)) << "one block: the bug does not show";
    if (n > 4096) EXPECT_NE(o.result, cpu_reference(ReduceOp::Sum, in)) << "overlapping windows: n=" << n;
  }
}

TEST(SimCore, RacyModelsAreDeterministicAndWrong) {
  for (const char* id : {"epita.race", "epita.reduce1_nosync"}) {
    for (std::int64_t n : {std::int64_t(1000), std::int64_t(4097), (std::int64_t(1) << 20) + 7}) {
      const Input in = make("random", n);
      const sim::SimOutput a = simulate(id, in, 0, 0), b = simulate(id, in, 0, 0);
      EXPECT_EQ(a.result, b.result) << id;
      EXPECT_NE(a.result, cpu_reference(ReduceOp::Sum, in)) << id << " n=" << n;
      EXPECT_TRUE(a.trace.racy_model) << id;
      EXPECT_FALSE(a.trace.interleaving.empty()) << id;
    }
  }
  // Hand-derived under the stated interleavings, input of ones:
  // race: each warp keeps only its last active lane's +1 -> one per warp: 64 elements = 2 warps.
  EXPECT_EQ(simulate("epita.race", make("ones", 64), 32).result, 2.0);
  EXPECT_EQ(simulate("epita.race", make("ones", 1000), 256).result, 32.0);  // ceil(1000 / 32) warps
  // reduce1_nosync: only warp 0's 32 additions reach the commit: 4 blocks of 256 -> 4 * 32.
  EXPECT_EQ(simulate("epita.reduce1_nosync", make("ones", 1024), 256).result, 128.0);
}

TEST(SimCore, SequentialAddressingDivergesOnlyInTheLastFiveSteps) {
  // Seed 000, slide "A Quick Analysis": for a 1024-thread block, no divergence in the first 5 steps
  // (1024 .. 32 consecutive active threads), one divergent warp in each of the last 5.
  const sim::SimOutput o = simulate("epita.reduce3", make("ones", 1024), 1024, 0);
  const Trace& t = o.trace;
  ASSERT_EQ(t.steps.size(), 12u);  // load, strides 512 .. 1, combine
  EXPECT_EQ(t.steps.front().phase, TracePhase::Load);
  EXPECT_EQ(t.steps.back().phase, TracePhase::Combine);
  const int expected_active[10] = {16, 8, 4, 2, 1, 1, 1, 1, 1, 1};
  for (int k = 0; k < 10; ++k) {
    const Step& s = t.steps[std::size_t(k + 1)];
    EXPECT_EQ(s.phase, TracePhase::Tree);
    EXPECT_EQ(s.label, "stride " + std::to_string(512 >> k));
    const StepSummary sum = summarize_step(t, s);
    EXPECT_EQ(sum.activity.divergent_warps, k < 5 ? 0 : 1) << s.label;
    EXPECT_EQ(sum.activity.active_warps, expected_active[k]) << s.label;
    EXPECT_EQ(sum.activity.active_lanes, 512 >> k) << s.label;
    for (int w = 0; w < 32; ++w)
      EXPECT_LE(sum.conflict_ways[std::size_t(w)], 1) << s.label << " warp " << w;  // conflict-free
    ASSERT_EQ(s.shared_after.size(), 1024u);
    EXPECT_EQ(s.shared_after[0], double(2 << k)) << "partial sums of ones double each step";
  }
  EXPECT_EQ(t.block_result, 1024.0);
  EXPECT_EQ(o.result, 1024.0);
  // A tree step's ops, thread by thread: load s[tid], load s[tid + stride], add, store s[tid].
  const Step& first = t.steps[1];
  ASSERT_EQ(first.ops.size(), 512u * 4);
  EXPECT_EQ(first.ops[0].kind, OpKind::Load);
  EXPECT_EQ(first.ops[1].address, 512);
  EXPECT_EQ(first.ops[1].access, 1);
  EXPECT_EQ(first.ops[2].kind, OpKind::Add);
  EXPECT_EQ(first.ops[3].kind, OpKind::Store);
  EXPECT_EQ(first.ops[3].access, 2);
  EXPECT_EQ(first.ops[4].thread, 1);
}

TEST(SimCore, InterleavedTreeDivergesInEveryActiveWarp) {
  // Seed 000, "SP starvation": at stride 1 only even threads add, so all 32 warps diverge; later steps
  // keep scattered threads in every active warp.
  const sim::SimOutput o = simulate("epita.reduce2", make("random", 1024), 1024, 0);
  const Trace& t = o.trace;
  ASSERT_EQ(t.steps.size(), 12u);  // load, strides 1 .. 512, combine
  const StepSummary s1 = summarize_step(t, t.steps[1]);
  EXPECT_EQ(t.steps[1].label, "stride 1");
  EXPECT_EQ(s1.activity.divergent_warps, 32);
  EXPECT_EQ(s1.activity.active_lanes, 512);
  EXPECT_EQ(s1.masks[0], 0x55555555u);
  for (std::size_t k = 1; k <= 10; ++k) {
    const StepSummary s = summarize_step(t, t.steps[k]);
    EXPECT_EQ(s.activity.divergent_warps, s.activity.active_warps) << t.steps[k].label;
    for (int w : s.conflict_ways) EXPECT_LE(w, 1) << "s[tid], tid a multiple of 2*stride: one word per bank";
  }
  // stride 32: threads 0, 64, 128, ..: one lane in every other warp.
  const StepSummary s32 = summarize_step(t, t.steps[6]);
  EXPECT_EQ(s32.activity.active_warps, 16);
  EXPECT_EQ(s32.masks[0], 1u);
  EXPECT_EQ(s32.masks[1], 0u);
  EXPECT_EQ(o.result, cpu_reference(ReduceOp::Sum, make("random", 1024)));
}

TEST(SimCore, LastWarpUnrollKeepsWarpZeroFullyActive) {
  // reduce6 on 256 threads: passes, strides 128 and 64, then six lock-step warp steps of warp 0.
  const sim::SimOutput o = simulate("epita.reduce6", make("ones", 256), 256, 0);
  const Trace& t = o.trace;
  std::vector<std::string> labels;
  for (const Step& s : t.steps) labels.push_back(to_string(s.phase) + (":" + s.label));
  const std::vector<std::string> want = {"load:partialSum[t] = 0",
                                         "load:pass 0",
                                         "tree:stride 128",
                                         "tree:stride 64",
                                         "warp:offset 32",
                                         "warp:offset 16",
                                         "warp:offset 8",
                                         "warp:offset 4",
                                         "warp:offset 2",
                                         "warp:offset 1",
                                         "combine:atomicAdd(sum, partialSum[0])"};
  EXPECT_EQ(labels, want);
  for (std::size_t k = 4; k <= 9; ++k) {
    const StepSummary s = summarize_step(t, t.steps[k]);
    EXPECT_EQ(s.masks[0], 0xffffffffu);
    EXPECT_EQ(s.activity.active_warps, 1);
    EXPECT_EQ(s.activity.divergent_warps, 0);
  }
  EXPECT_FALSE(t.racy_model);
  EXPECT_NE(t.interleaving.find("lock-step"), std::string::npos);
  EXPECT_EQ(t.block_result, 256.0);
  // full_unroll takes the same steps for the same block.
  const sim::SimOutput u = simulate("epita.full_unroll", make("ones", 256), 256, 0);
  ASSERT_EQ(u.trace.steps.size(), t.steps.size());
  for (std::size_t k = 0; k < t.steps.size(); ++k) EXPECT_EQ(u.trace.steps[k].label, t.steps[k].label);
}

TEST(SimCore, CascadingLoopsFoldLongRunsOfPasses) {
  // One block of 64 threads over 2^16 elements: 1024 passes; 31 get their own step, the rest one folded step.
  const Input in = make("random", 1 << 16);
  const sim::SimOutput o = simulate("epita.reduce5", in, 64, 0, 1);
  EXPECT_EQ(o.result, cpu_reference(ReduceOp::Sum, in));
  const Trace& t = o.trace;
  int passes = 0;
  const Step* folded = nullptr;
  for (const Step& s : t.steps)
    if (s.label.rfind("pass", 0) == 0) {
      ++passes;
      if (s.label.find("folded") != std::string::npos) folded = &s;
    }
  EXPECT_EQ(passes, 32);
  ASSERT_NE(folded, nullptr);
  EXPECT_EQ(folded->label, "pass 31..1023 (folded, ops not recorded)");
  EXPECT_TRUE(folded->ops.empty());
  EXPECT_EQ(folded->working_threads.size(), 64u);
  // A grid-stride pass: warp loads 32 consecutive words = 4 sectors, the minimum.
  for (const SectorRequest& r : global_load_sectors(t, t.steps[1])) {
    EXPECT_EQ(r.sectors, 4);
    EXPECT_EQ(r.min_sectors, 4);
  }
}

TEST(SimCore, AtomicVariantsSerializeOnOneAddress) {
  // reduce0: every thread of the block queues on *sum.
  const Trace t0 = simulate("epita.reduce0", make("ones", 1000), 256, 1).trace;
  ASSERT_EQ(t0.steps.size(), 2u);
  const AtomicStats a0 = atomic_stats(t0.steps[1]);
  EXPECT_EQ(a0.ops, 256);
  EXPECT_EQ(a0.longest_chain, 256);
  ASSERT_EQ(a0.addresses.size(), 1u);
  // reduce1: one shared chain per block, one global atomic per block.
  const Trace t1 = simulate("epita.reduce1", make("ones", 1000), 256, 3).trace;  // last block: 232 elements
  EXPECT_EQ(atomic_stats(t1.steps[1]).longest_chain, 232);
  EXPECT_EQ(atomic_stats(t1.steps[2]).ops, 1);
  EXPECT_EQ(t1.block_result, 232.0);
  // reduce8_fixed: 32 shared atomics, one global; 32 passes of coalesced loads.
  const Trace t8 = simulate("epita.reduce8_fixed", make("ones", 4096), 32, 2).trace;
  ASSERT_EQ(t8.steps.size(), 35u);  // block_sum = 0, 32 passes, shared atomics, commit
  EXPECT_EQ(atomic_stats(t8.steps[33]).longest_chain, 32);
  EXPECT_EQ(t8.steps[1].ops[0].address, 2 * 1024);
  EXPECT_EQ(t8.block_result, 1024.0);
  // The slide's reduce8: block 2 starts at 64, not 2048.
  const Trace bug = simulate("epita.reduce8", make("ones", 4096), 32, 2).trace;
  EXPECT_EQ(bug.steps[1].ops[0].address, 64);
  // local_max: 256 local maxes, so a 512-thread block puts two atomics on each.
  const Trace lm = simulate("cs121.local_max", make("random", 4096), 512, 0).trace;
  ASSERT_EQ(lm.steps.size(), 3u);
  const AtomicStats al = atomic_stats(lm.steps[1]);
  EXPECT_EQ(al.addresses.size(), 256u);
  EXPECT_EQ(al.longest_chain, 2);
  EXPECT_EQ(atomic_stats(lm.steps[2]).ops, int(lm.steps[2].working_threads.size()));
}

TEST(SimCore, BlockReduceUsesShufflesThenOneLanePerWarp) {
  const Input in = make("sequence", 2048);
  const sim::SimOutput o = simulate("cs121.block_reduce", in, 512, 1);
  const Trace& t = o.trace;
  std::vector<std::string> labels;
  for (const Step& s : t.steps) labels.push_back(to_string(s.phase) + (":" + s.label));
  const std::vector<std::string> want = {"load:val = i < n ? in[i] : 0",
                                         "warp:offset 16",
                                         "warp:offset 8",
                                         "warp:offset 4",
                                         "warp:offset 2",
                                         "warp:offset 1",
                                         "combine:shared[wid] = val (lane 0 of each warp)",
                                         "combine:val = shared[lane] (threads < warps; others 0)",
                                         "warp:offset 16, first warp",
                                         "warp:offset 8, first warp",
                                         "warp:offset 4, first warp",
                                         "warp:offset 2, first warp",
                                         "warp:offset 1, first warp",
                                         "atomic:atomicAdd(sum, val) (thread 0)"};
  EXPECT_EQ(labels, want);
  const StepSummary shfl = summarize_step(t, t.steps[1]);
  EXPECT_EQ(shfl.activity.divergent_warps, 0);
  EXPECT_EQ(shfl.conflict_ways[0], 0) << "shuffles touch no shared memory";
  const StepSummary park = summarize_step(t, t.steps[6]);
  EXPECT_EQ(park.activity.divergent_warps, 16) << "lane 0 of each of the 16 warps";
  EXPECT_EQ(park.conflict_ways[3], 1);
  const StepSummary gather = summarize_step(t, t.steps[7]);
  EXPECT_EQ(gather.masks[0], 0xffffu) << "threads < 16 read the warp sums";
  EXPECT_EQ(t.block_result, (512.0 + 1023.0) * 512 / 2);  // block 1: 512 + 513 + ... + 1023
  // The upper lanes of a shuffle step read their own value (shfl_down past lane 31).
  const ThreadOp& lane31 = t.steps[1].ops[2 * 31];
  EXPECT_EQ(lane31.kind, OpKind::Shuffle);
  EXPECT_EQ(lane31.operand, 31);
  EXPECT_EQ(o.result, double(sequence_closed_form_sum(2048)));
}

TEST(SimCore, DeviceReduceTracesTheFirstLaunch) {
  const Input in = make("random", 100000);
  const sim::SimOutput o = simulate("cs121.device_reduce", in, 256, 5, 64);
  EXPECT_EQ(o.launches, 2);
  EXPECT_EQ(o.result, cpu_reference(ReduceOp::Sum, in));
  const Step& last = o.trace.steps.back();
  EXPECT_EQ(last.label, "out[blockIdx.x] = sum (thread 0)");
  ASSERT_EQ(last.ops.size(), 1u);
  EXPECT_EQ(last.ops[0].space, Space::Global);
  EXPECT_EQ(last.ops[0].buffer, 1);
  EXPECT_EQ(last.ops[0].address, 5);
}

TEST(SimCore, TracesAreWellFormedForEveryEpitaAndCs121Variant) {
  const std::set<TracePhase> phases = {TracePhase::Load, TracePhase::Tree, TracePhase::Warp, TracePhase::Combine,
                                       TracePhase::Atomic};
  for (const char* name : {"epita", "cs121"}) {
    for (const VariantInfo* v : lesson(name)) {
      if (!v->traceable) continue;
      const Input in = make("random", 4097);
      LaunchConfig launch;
      ASSERT_TRUE(launch_for(*v, in.n(), in.type, 0, launch));
      const int last = int(launch.grid - 1);
      const Trace t = sim::find_model(v->id)(*v, in, launch, PatternParams{}, last).trace;
      EXPECT_EQ(t.block_index, last);
      EXPECT_EQ(t.block_size, launch.block);
      EXPECT_EQ(t.variant, v->id);
      EXPECT_EQ(t.source, "sim");
      ASSERT_FALSE(t.steps.empty()) << v->id;
      for (std::size_t k = 0; k < t.steps.size(); ++k) {
        const Step& s = t.steps[k];
        EXPECT_EQ(s.index, int(k)) << v->id;
        EXPECT_TRUE(phases.count(s.phase)) << v->id << " " << s.phase;
        EXPECT_FALSE(s.label.empty());
        for (std::size_t i = 1; i < s.ops.size(); ++i)
          EXPECT_LE(s.ops[i - 1].thread, s.ops[i].thread) << v->id << " " << s.label;
        for (int th : s.working_threads) {
          EXPECT_GE(th, 0);
          EXPECT_LT(th, launch.block);
        }
      }
      EXPECT_THROW(sim::find_model(v->id)(*v, in, launch, PatternParams{}, int(launch.grid)), std::runtime_error)
          << v->id;
    }
  }
}

TEST(SimCore, BackendRunsThroughExecute) {
  RunRequest req;
  req.variant = "epita.reduce3";
  req.n = 5000;
  req.backend = BackendKind::Sim;
  RunResult r = execute(req, nullptr);
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.backend, BackendKind::Sim);
  EXPECT_FALSE(r.timed);
  EXPECT_TRUE(r.correct);
  EXPECT_EQ(r.launch.grid, 20);
  req.variant = "epita.race";
  r = execute(req, nullptr);
  EXPECT_EQ(r.status, RunStatus::Race) << r.message;
  req.variant = "epita.reduce8";
  r = execute(req, nullptr);
  EXPECT_EQ(r.status, RunStatus::SlideBug) << r.message;
  req.variant = "epita.reduce5";  // grid-stride: no device, so at most 1024 blocks
  req.n = std::int64_t(1) << 20;
  r = execute(req, nullptr);
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.launch.grid, 1024);
  req.variant = "amp.sequential";  // host variants run on the host whatever the backend
  r = execute(req, nullptr);
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.backend, BackendKind::Cpu);
}

TEST(SimCore, EveryModelTakesUnderTwoSecondsAt2To22) {
  const std::int64_t n = std::int64_t(1) << 22;
  const Input in = make("random", n);
  for (const auto& v : all_variants()) {
    if (v.cpu_only || v.pattern != PatternKind::Reduction ||
        !(v.lesson == "epita" || v.lesson == "cs121" || v.lesson == "cub"))
      continue;
    LaunchConfig launch;
    ASSERT_TRUE(launch_for(v, n, in.type, 0, launch)) << v.id;
    const auto t0 = std::chrono::steady_clock::now();
    const sim::SimOutput o = sim::find_model(v.id)(v, in, launch, PatternParams{}, 0);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(s, 2.0) << v.id;
    RecordProperty(v.id, std::to_string(s));
    std::printf("  %-22s %8.3f s  (block %d, grid %lld, %zu steps)\n", v.id.c_str(), s, launch.block,
                (long long)launch.grid, o.trace.steps.size());
  }
}
