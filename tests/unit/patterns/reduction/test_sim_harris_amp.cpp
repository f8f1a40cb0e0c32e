// Sim models of the Harris ("Code Optimizations", Filipovic, Fall 2020) and C++ AMP ("Parallel Reduction
// using C++ AMP", MSDN) reductions: results against the CPU reference, and trace facts derived by hand from the slides.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
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

/// The model of `id` from the two tables under test (not through find_model, which helper code owns).
sim::SimModel model_of(const std::string& id) {
  for (auto table : {sim::harris_models(), sim::amp_models()})
    for (const auto& e : table)
      if (id == e.id) return e.model;
  return nullptr;
}

/// Every variant of the harris and amp lessons, from the registry.
std::vector<const VariantInfo*> harris_amp_variants() {
  std::vector<const VariantInfo*> out;
  for (const auto& v : all_variants())
    if (v.lesson == "harris" || v.lesson == "amp") out.push_back(&v);
  return out;
}

Input random_input(std::int64_t n, DType type, std::uint64_t seed = 7) {
  Input in;
  const std::string err = make_input("random", n, type, seed, in);
  EXPECT_EQ(err, "");
  return in;
}

/// Runs variant `id` on `in` with `block` threads per block (0 = default), tracing block `trace_block`.
sim::SimOutput run(const std::string& id, const Input& in, int block = 0, int trace_block = 0) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  LaunchConfig launch;
  const std::string err = resolve_launch(*v, in.n(), in.type, LaunchConfig{block, 0}, DeviceShape{}, launch);
  EXPECT_EQ(err, "") << id;
  sim::SimModel model = model_of(id);
  EXPECT_NE(model, nullptr) << id;
  return model(*v, in, launch, PatternParams{}, trace_block);
}

/// The steps of a trace with this phase and label.
const Step* step_labelled(const Trace& t, TracePhase phase, const std::string& label) {
  for (const auto& s : t.steps)
    if (s.phase == phase && s.label == label) return &s;
  return nullptr;
}

std::vector<const Step*> steps_of_phase(const Trace& t, TracePhase phase) {
  std::vector<const Step*> out;
  for (const auto& s : t.steps)
    if (s.phase == phase) out.push_back(&s);
  return out;
}

/// Working lanes per warp in a step.
std::vector<int> active_lanes(const Step& s, int warps) {
  std::vector<int> count(std::size_t(warps), 0);
  for (int t : s.working_threads) ++count[std::size_t(t / 32)];
  return count;
}

/// Warps with some but not all lanes working.
int divergent_warps(const Step& s, int warps) {
  int d = 0;
  for (int c : active_lanes(s, warps)) d += c > 0 && c < 32;
  return d;
}

/// The n-way bank conflict of each warp in a step: for each warp-wide shared access (same warp,
/// same `access`), the lanes' word addresses grouped by bank = address % 32; n = the most distinct
/// words in one bank (lanes reading the same word do not conflict); the warp's figure is its worst
/// access, 0 when it makes no shared access.
std::vector<int> bank_ways(const Step& s, int warps) {
  std::map<std::pair<int, int>, std::map<int, std::set<std::int64_t>>> words;  // (warp, access) -> bank -> words
  for (const auto& op : s.ops)
    if (op.space == Space::Shared) words[{op.thread / 32, op.access}][int(op.address % 32)].insert(op.address);
  std::vector<int> ways(std::size_t(warps), 0);
  for (const auto& [key, banks] : words)
    for (const auto& [bank, set] : banks)
      ways[std::size_t(key.first)] = std::max(ways[std::size_t(key.first)], int(set.size()));
  return ways;
}

int max_of(const std::vector<int>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Results

TEST(SimHarrisAmp, EveryVariantHasAModel) {
  const auto variants = harris_amp_variants();
  EXPECT_EQ(variants.size(), 18u);  // 10 harris + 8 amp
  for (const VariantInfo* v : variants) EXPECT_NE(model_of(v->id), nullptr) << v->id;
  EXPECT_EQ(sim::harris_models().size(), 10u);
  EXPECT_EQ(sim::amp_models().size(), 8u);
}

TEST(SimHarrisAmp, Int32ResultsEqualTheReferenceForAwkwardSizesAndBlocks) {
  const std::vector<std::int64_t> sizes = {1, 31, 1000, 4097, (1 << 20) + 7};
  for (const VariantInfo* v : harris_amp_variants()) {
    for (std::int64_t n : sizes) {
      const Input in = random_input(n, DType::Int32, 11 + std::uint64_t(n));
      const double expected = cpu_reference(v->op, in);
      // Every block the rules take on small inputs; the default and the largest on the big one.
      const std::vector<int> blocks =
          n < 5000 ? std::vector<int>{32, 64, 96, 128, 256, 512, 1024} : std::vector<int>{0, 1024};
      for (int block : blocks) {
        LaunchConfig launch;
        if (!resolve_launch(*v, n, in.type, LaunchConfig{block, 0}, DeviceShape{}, launch).empty()) continue;
        const sim::SimOutput out = model_of(v->id)(*v, in, launch, PatternParams{}, 0);
        EXPECT_EQ(out.result, expected) << v->id << " n = " << n << " block = " << launch.block;
      }
    }
  }
}

TEST(SimHarrisAmp, Float32ResultsMatchTheReference) {
  for (const VariantInfo* v : harris_amp_variants()) {
    for (std::int64_t n : {std::int64_t(1), std::int64_t(4097), std::int64_t(1 << 20) + 7}) {
      const Input in = random_input(n, DType::Float32, 5);
      const sim::SimOutput out = run(v->id, in, 0, 0);
      EXPECT_TRUE(results_match(DType::Float32, out.result, cpu_reference(v->op, in), in))
          << v->id << " n = " << n << ": " << out.result << " vs " << cpu_reference(v->op, in);
    }
  }
}

TEST(SimHarrisAmp, SameTreeSameFloatBits) {
  // float32 additions do not associate, so variants agree bit for bit only when they add the same
  // pairs in the same order. By hand: Implementation 2 only renumbers Implementation 1's threads;
  // Implementations 5, 5-shuffle and 6 add exactly Implementation 4's pairs (lane 0's chain in the
  // last warp reads what the tree would have: lock-step reads, shuffle sources); the guarded load of
  // the multi-pass scheme reads the zeros the padding holds; with one window per block, Implementation
  // 7's grid-stride loop is Implementation 6's load (0 + x == x). A wrong order or a lane reading a
  // value written in the same line would change the bits.
  const Input in = random_input((1 << 20) + 7, DType::Float32, 9);
  auto bits = [&](const char* id, int block, std::int64_t grid = 0) {
    const VariantInfo* v = find_variant(id);
    LaunchConfig l;
    EXPECT_EQ(resolve_launch(*v, in.n(), in.type, LaunchConfig{block, grid}, DeviceShape{}, l), "") << id;
    return model_of(id)(*v, in, l, PatternParams{}, 0).result;
  };
  for (int block : {64, 256, 1024}) {
    EXPECT_EQ(bits("harris.impl1", block), bits("harris.impl2", block)) << block;
    EXPECT_EQ(bits("harris.multipass", block), bits("harris.impl3", block)) << block;
    const double impl4 = bits("harris.impl4", block);
    EXPECT_EQ(bits("harris.impl5", block), impl4) << block;
    EXPECT_EQ(bits("harris.impl5_shfl", block), impl4) << block;
    EXPECT_EQ(bits("harris.impl6", block), impl4) << block;
    EXPECT_EQ(bits("harris.impl7", block, (in.n() + 2 * block - 1) / (2 * block)), impl4) << block;
    EXPECT_EQ(bits("amp.tiled_1", block), bits("amp.tiled_2", block)) << block;
  }
  // And the orders do differ. 64 floats at 64 threads: x[0] = 2^24, x[1] = 1, x[32] = -2^24, zeros
  // elsewhere. Interleaved addressing first adds x[0] + x[1] = 2^24 + 1, which rounds to 2^24 (the
  // 1 is lost), and later cancels: 0. Sequential addressing first adds x[0] + x[32] = 0 and keeps the 1.
  Input edge;
  edge.type = DType::Float32;
  edge.f32.assign(64, 0.0f);
  edge.f32[0] = 16777216.0f;
  edge.f32[1] = 1.0f;
  edge.f32[32] = -16777216.0f;
  EXPECT_EQ(run("harris.impl1", edge, 64).result, 0.0);
  EXPECT_EQ(run("harris.impl2", edge, 64).result, 0.0);
  EXPECT_EQ(run("harris.impl3", edge, 64).result, 1.0);
  EXPECT_EQ(run("amp.tiled_1", edge, 64).result, 0.0);
  EXPECT_EQ(run("amp.tiled_3", edge, 64).result, 1.0);
}

TEST(SimHarrisAmp, Int32SumsWrapModulo2To32) {
  Input in;
  in.type = DType::Int32;
  in.i32.assign(4097, 2000000000);  // the sum passes 2^31 many times over
  for (const VariantInfo* v : harris_amp_variants())
    EXPECT_EQ(run(v->id, in).result, cpu_reference(ReduceOp::Sum, in)) << v->id;
}

// ---------------------------------------------------------------------------------------------
// Launch counts (derived from the launchers)

TEST(SimHarrisAmp, LaunchCounts) {
  const Input in1000 = random_input(1000, DType::Int32);
  // harris.naive: strides 1, 2, ..., 512 < 1000: ten launches ("log2 n kernel invocations").
  EXPECT_EQ(run("harris.naive", in1000).launches, 10);
  // harris.multipass at block 32: 1000 -> 32 sums -> 1: two launches.
  EXPECT_EQ(run("harris.multipass", in1000, 32).launches, 2);
  // amp.simple_1: m = 1000, 500, 250, 125, 62, 31, 15, 7, 3 halve to 1: nine dispatches.
  EXPECT_EQ(run("amp.simple_1", in1000).launches, 9);
  // amp.simple_2: m = 1000, 125, 15 each divide by 8 (s = 125, 15, 1): three dispatches.
  EXPECT_EQ(run("amp.simple_2", in1000).launches, 3);
  // amp.tiled_3 at tile 256: 2^20 + 7 -> 4097 partials -> 17 <= 256: two dispatches.
  EXPECT_EQ(run("amp.tiled_3", random_input((1 << 20) + 7, DType::Int32)).launches, 2);
  // amp.cascade: a single dispatch; amp.sequential none.
  EXPECT_EQ(run("amp.cascade", in1000).launches, 1);
  EXPECT_EQ(run("amp.sequential", in1000).launches, 0);
  // n = 1: no pairs, nothing to launch for the in-place variants.
  EXPECT_EQ(run("harris.naive", random_input(1, DType::Int32)).launches, 0);
}

// ---------------------------------------------------------------------------------------------
// Trace facts derived by hand from the slides

TEST(SimHarrisAmp, Impl1ModuloMakesEveryWarpDivergeAtStride1) {
  // Slide "Implementation 1": tid % 2 == 0 at s = 1, so every warp of a 256-thread block runs with
  // its 16 even lanes: 8 divergent warps, none idle.
  const sim::SimOutput out = run("harris.impl1", random_input(4096, DType::Int32), 256, 1);
  const Step* s1 = step_labelled(out.trace, TracePhase::Tree, "stride 1");
  ASSERT_NE(s1, nullptr);
  EXPECT_EQ(active_lanes(*s1, 8), std::vector<int>(8, 16));
  EXPECT_EQ(divergent_warps(*s1, 8), 8);
  // s = 32: tid % 64 == 0, one lane in every other warp.
  const Step* s32 = step_labelled(out.trace, TracePhase::Tree, "stride 32");
  ASSERT_NE(s32, nullptr);
  EXPECT_EQ(active_lanes(*s32, 8), (std::vector<int>{1, 0, 1, 0, 1, 0, 1, 0}));
}

TEST(SimHarrisAmp, Impl2BankConflictsDoubleEachStepUntil32Way) {
  // Slide "Implementation 2" at 1024 threads: index = 2*s*tid, so the working threads are tid < 512/s
  // and a warp's lanes touch words 2s apart. While all 32 lanes work (s = 1..16) those words fall in
  // 32/(2s) banks, 2s words each: 2, 4, 8, 16, 32-way. From s = 32 on only 512/s < 32 lanes of warp 0
  // work, every word in bank 0: 16, 8, 4, 2-way, then 1 (a single lane).
  const sim::SimOutput out = run("harris.impl2", random_input(1 << 12, DType::Int32), 1024, 2);
  const auto tree = steps_of_phase(out.trace, TracePhase::Tree);
  ASSERT_EQ(tree.size(), 10u);
  std::vector<int> worst;
  for (const Step* s : tree) worst.push_back(max_of(bank_ways(*s, 32)));
  EXPECT_EQ(worst, (std::vector<int>{2, 4, 8, 16, 32, 16, 8, 4, 2, 1}));
  // Stride 1: the 16 working warps (tid < 512) are all 2-way, the other 16 make no shared access.
  std::vector<int> first(32, 0);
  std::fill(first.begin(), first.begin() + 16, 2);
  EXPECT_EQ(bank_ways(*tree[0], 32), first);
  // The strided index keeps the working threads consecutive: no divergence until fewer than 32 work.
  for (int i = 0; i < 5; ++i) EXPECT_EQ(divergent_warps(*tree[std::size_t(i)], 32), 0) << tree[std::size_t(i)]->label;
  for (int i = 5; i < 10; ++i) EXPECT_EQ(divergent_warps(*tree[std::size_t(i)], 32), 1) << tree[std::size_t(i)]->label;
}

TEST(SimHarrisAmp, Impl3SequentialAddressingHasNoBankConflicts) {
  // Slide "Implementation 3": "No divergence and no conflicts". At 1024 threads the first five tree
  // steps (s = 512..32) have no divergent warp and the last five (s = 16..1) one each (warp 0).
  const sim::SimOutput out = run("harris.impl3", random_input(1 << 12, DType::Int32), 1024, 3);
  for (const auto& s : out.trace.steps) EXPECT_LE(max_of(bank_ways(s, 32)), 1) << s.phase << " " << s.label;
  const auto tree = steps_of_phase(out.trace, TracePhase::Tree);
  ASSERT_EQ(tree.size(), 10u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(divergent_warps(*tree[std::size_t(i)], 32), 0) << tree[std::size_t(i)]->label;
  for (int i = 5; i < 10; ++i) EXPECT_EQ(divergent_warps(*tree[std::size_t(i)], 32), 1) << tree[std::size_t(i)]->label;
}

TEST(SimHarrisAmp, TiledKernelsShowThePostsPatterns) {
  // The post's tiled_1 is Implementation 1 (divergence), tiled_2 Implementation 2 (conflicts),
  // tiled_3 Implementation 3 (neither).
  const Input in = random_input(1 << 12, DType::Int32);
  const sim::SimOutput t1 = run("amp.tiled_1", in, 256, 0);
  EXPECT_EQ(divergent_warps(*step_labelled(t1.trace, TracePhase::Tree, "stride 1"), 8), 8);
  const sim::SimOutput t2 = run("amp.tiled_2", in, 1024, 0);
  std::vector<int> worst;
  for (const Step* s : steps_of_phase(t2.trace, TracePhase::Tree)) worst.push_back(max_of(bank_ways(*s, 32)));
  EXPECT_EQ(worst, (std::vector<int>{2, 4, 8, 16, 32, 16, 8, 4, 2, 1}));
  const sim::SimOutput t3 = run("amp.tiled_3", in, 1024, 0);
  for (const auto& s : t3.trace.steps) EXPECT_LE(max_of(bank_ways(s, 32)), 1) << s.label;
}

TEST(SimHarrisAmp, StepSequencesFollowTheSlides) {
  const Input in = random_input(1 << 12, DType::Int32);
  auto labels = [](const Trace& t) {
    std::vector<std::string> out;
    for (const auto& s : t.steps) out.push_back(to_string(s.phase) + (":" + s.label));
    return out;
  };
  // Implementation 5 at 256 threads: tree steps while s > 32, then six last-warp lines.
  EXPECT_EQ(labels(run("harris.impl5", in, 256).trace),
            (std::vector<std::string>{"load:sv[tid] = v[i] + v[i + blockDim.x]", "tree:stride 128", "tree:stride 64",
                                      "warp:offset 32", "warp:offset 16", "warp:offset 8", "warp:offset 4",
                                      "warp:offset 2", "warp:offset 1", "combine:out[blockIdx.x] = sv[0]"}));
  // Implementation 6 at 64 threads: no tree step at all, only the last warp.
  EXPECT_EQ(steps_of_phase(run("harris.impl6", in, 64).trace, TracePhase::Tree).size(), 0u);
  EXPECT_EQ(steps_of_phase(run("harris.impl6", in, 64).trace, TracePhase::Warp).size(), 6u);
  // harris.naive: one pass step per launch.
  const sim::SimOutput naive = run("harris.naive", random_input(1000, DType::Int32));
  ASSERT_EQ(naive.trace.steps.size(), 10u);
  EXPECT_EQ(naive.trace.steps[0].label, "launch 0, stride 1");
  EXPECT_EQ(naive.trace.steps[9].label, "launch 9, stride 512");
  // Step indices are positions.
  for (std::size_t i = 0; i < naive.trace.steps.size(); ++i) EXPECT_EQ(naive.trace.steps[i].index, int(i));
}

TEST(SimHarrisAmp, LastWarpRunsAll32LanesWithoutDivergence) {
  // Slide "Implementation 5": "condition if (tid < s) does not spare any computation": in the
  // unrolled last warp (and its shuffle form) all 32 lanes of warp 0 work in every line.
  const Input in = random_input(1 << 12, DType::Int32);
  for (const char* id : {"harris.impl5", "harris.impl5_shfl", "harris.impl6", "harris.impl7"}) {
    const sim::SimOutput out = run(id, in, 256, 0);
    const auto warp = steps_of_phase(out.trace, TracePhase::Warp);
    ASSERT_EQ(warp.size(), 6u) << id;
    for (const Step* s : warp)
      EXPECT_EQ(active_lanes(*s, 8), (std::vector<int>{32, 0, 0, 0, 0, 0, 0, 0})) << id << " " << s->label;
  }
  // The shuffle form: offsets 16..1 touch no shared memory; lane 31 at offset 16 reads its own value.
  const sim::SimOutput shfl = run("harris.impl5_shfl", in, 256, 0);
  const Step* o16 = step_labelled(shfl.trace, TracePhase::Warp, "offset 16");
  ASSERT_NE(o16, nullptr);
  EXPECT_FALSE(o16->has_shared);
  bool seen = false;
  for (const auto& op : o16->ops)
    if (op.thread == 31 && op.kind == OpKind::Shuffle) {
      EXPECT_EQ(op.operand, 31);
      seen = true;
    }
  EXPECT_TRUE(seen);
  // The volatile warp models lock-step execution and says so.
  EXPECT_NE(run("harris.impl5", in, 256).trace.interleaving.find("lock-step"), std::string::npos);
  EXPECT_FALSE(run("harris.impl5", in, 256).trace.racy_model);
}

TEST(SimHarrisAmp, TracedBlockAddsUpItsWindow) {
  // Block 2 of Implementation 4 at 128 threads covers elements [512, 768); its block result, the
  // value thread 0 stores, and sv[0] after the last tree step are that window's sum.
  const Input in = random_input(4097, DType::Int32);
  const sim::SimOutput out = run("harris.impl4", in, 128, 2);
  std::uint32_t sum = 0;
  for (int i = 512; i < 768; ++i) sum += std::uint32_t(in.i32[std::size_t(i)]);
  EXPECT_EQ(out.trace.block_result, double(std::int32_t(sum)));
  const auto tree = steps_of_phase(out.trace, TracePhase::Tree);
  ASSERT_FALSE(tree.empty());
  EXPECT_EQ(tree.back()->shared_after.at(0), out.trace.block_result);
  const Step& combine = out.trace.steps.back();
  EXPECT_EQ(combine.phase, TracePhase::Combine);
  ASSERT_EQ(combine.ops.size(), 2u);
  EXPECT_EQ(combine.ops[1].space, Space::Global);
  EXPECT_EQ(combine.ops[1].address, 2);
  EXPECT_EQ(combine.ops[1].value, out.trace.block_result);
  // Trace header.
  EXPECT_EQ(out.trace.variant, "harris.impl4");
  EXPECT_EQ(out.trace.block_index, 2);
  EXPECT_EQ(out.trace.block_size, 128);
  EXPECT_EQ(out.trace.source, "sim");
  // Load step: thread t reads elements 512 + t and 640 + t (access 0 and 1), coalesced.
  const Step& load = out.trace.steps.front();
  EXPECT_EQ(load.ops[0].address, 512);
  EXPECT_EQ(load.ops[1].address, 640);
}

TEST(SimHarrisAmp, GridStrideLoopsGetOneStepPerIteration) {
  // harris.impl7 at 64 threads on 4 blocks: gridSize = 64 * 2 * 4 = 512, so block 1 (first index 128)
  // iterates ceil((5000 - 128) / 512) = 10 times; in the last one i = 4736 + tid < 5000 for all 64
  // threads. Load steps: the zero store, then iterations 0..9.
  const Input in = random_input(5000, DType::Int32);
  const VariantInfo* impl7 = find_variant("harris.impl7");
  ASSERT_NE(impl7, nullptr);
  const sim::SimOutput out = model_of("harris.impl7")(*impl7, in, LaunchConfig{64, 4}, PatternParams{}, 1);
  EXPECT_EQ(out.result, cpu_reference(ReduceOp::Sum, in));
  const auto load = steps_of_phase(out.trace, TracePhase::Load);
  ASSERT_EQ(load.size(), 11u);
  EXPECT_EQ(load[0]->label, "sv[tid] = 0");
  EXPECT_EQ(load[1]->label, "iteration 0");
  EXPECT_EQ(load[10]->label, "iteration 9");
  EXPECT_EQ(load[10]->working_threads.size(), 64u);
  // Thread 0 of block 1 adds v[128 + 512k] + v[192 + 512k]: its accesses 0 and 1 in iteration k.
  EXPECT_EQ(load[3]->ops[0].address, 128 + 2 * 512);
  EXPECT_EQ(load[3]->ops[1].address, 192 + 2 * 512);
  // amp.cascade at 32 threads on 8 tiles (stride 256), n = 1000, tile 7: first index 224, iterations
  // i = 224 + tid, 480 + tid, 736 + tid, 992 + tid: the last has 1000 - 992 = 8 working threads.
  const VariantInfo* cascade = find_variant("amp.cascade");
  ASSERT_NE(cascade, nullptr);
  const Input in1000 = random_input(1000, DType::Int32);
  const sim::SimOutput c = model_of("amp.cascade")(*cascade, in1000, LaunchConfig{32, 8}, PatternParams{}, 7);
  EXPECT_EQ(c.result, cpu_reference(ReduceOp::Sum, in1000));
  const auto cl = steps_of_phase(c.trace, TracePhase::Load);
  ASSERT_EQ(cl.size(), 5u);
  EXPECT_EQ(cl[4]->working_threads, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Many iterations fold after kit::kMaxLoopSteps (32) steps: 100000 elements over 16 blocks of 64
  // (gridSize 2048) are 49 iterations for block 0: 31 own steps and one folded step.
  const Input big = random_input(100000, DType::Int32);
  const sim::SimOutput f = model_of("harris.impl7")(*impl7, big, LaunchConfig{64, 16}, PatternParams{}, 0);
  EXPECT_EQ(f.result, cpu_reference(ReduceOp::Sum, big));
  EXPECT_EQ(steps_of_phase(f.trace, TracePhase::Load).size(), 1u + 32u);
}

TEST(SimHarrisAmp, AgreesWithTheTraceAnalyses) {
  // The hand-written counts above equal helper analyses' (app/core/trace/analyses.hpp) on the same traces.
  const Input in = random_input(1 << 12, DType::Int32);
  for (const char* id : {"harris.impl1", "harris.impl2", "harris.impl3", "harris.impl5", "amp.tiled_2"}) {
    const sim::SimOutput out = run(id, in, 1024, 0);
    for (const auto& s : out.trace.steps) {
      EXPECT_EQ(step_bank_conflicts(out.trace, s), bank_ways(s, 32)) << id << " " << s.label;
      EXPECT_EQ(warp_activity(out.trace, active_masks(out.trace, s)).divergent_warps, divergent_warps(s, 32))
          << id << " " << s.label;
    }
  }
  // Implementation 4's load is coalesced: each warp request of 32 consecutive words touches the
  // minimum of 4 sectors, for both of its loads (v[i] and v[i + blockDim.x]).
  const sim::SimOutput impl4 = run("harris.impl4", in, 256, 1);
  const auto requests = global_load_sectors(impl4.trace, impl4.trace.steps.front());
  ASSERT_EQ(requests.size(), 16u);  // 8 warps x 2 loads
  for (const auto& r : requests) {
    EXPECT_EQ(r.sectors, 4);
    EXPECT_EQ(r.min_sectors, 4);
  }
}

TEST(SimHarrisAmp, TracesAreWellFormed) {
  // Ops grouped by thread in increasing order, threads inside the block, working threads sorted,
  // shared arrays of blockDim.x words, memory ops with an address, register ops with access -1.
  const Input in = random_input(5000, DType::Int32);
  for (const VariantInfo* v : harris_amp_variants()) {
    const sim::SimOutput out = run(v->id, in, 0, 1);
    const Trace& t = out.trace;
    EXPECT_FALSE(t.steps.empty()) << v->id;
    for (const auto& s : t.steps) {
      for (std::size_t i = 1; i < s.ops.size(); ++i)
        EXPECT_LE(s.ops[i - 1].thread, s.ops[i].thread) << v->id << " " << s.label;
      for (const auto& op : s.ops) {
        EXPECT_GE(op.thread, 0);
        EXPECT_LT(op.thread, t.block_size) << v->id;
        if (op.space == Space::Register)
          EXPECT_EQ(op.access, -1) << v->id;
        else
          EXPECT_GE(op.address, 0) << v->id;
      }
      EXPECT_TRUE(std::is_sorted(s.working_threads.begin(), s.working_threads.end())) << v->id;
      if (s.has_shared) EXPECT_EQ(int(s.shared_after.size()), t.block_size) << v->id << " " << s.label;
    }
  }
}

TEST(SimHarrisAmp, PaddingIsReadAsZero) {
  // n = 31 at 64 threads: Implementation 1's block reads v[31..63] past n (zero padding); the tree
  // still gives the sum, and the load step shows those reads returning 0.
  const Input in = random_input(31, DType::Int32);
  const sim::SimOutput out = run("harris.impl1", in, 64, 0);
  EXPECT_EQ(out.result, cpu_reference(ReduceOp::Sum, in));
  for (const auto& op : out.trace.steps.front().ops)
    if (op.space == Space::Global && op.address >= 31) EXPECT_EQ(op.value, 0);
  // harris.multipass guards its load instead: only the 31 threads with i < n load (and work).
  const sim::SimOutput mp = run("harris.multipass", in, 64, 0);
  EXPECT_EQ(mp.trace.steps.front().working_threads.size(), 31u);
}

TEST(SimHarrisAmp, RejectsWhatTheLaunchersReject) {
  const Input in = random_input(1000, DType::Int32);
  const VariantInfo* impl6 = find_variant("harris.impl6");
  ASSERT_NE(impl6, nullptr);
  // A block the template is not instantiated for, and a grid that does not match the windows.
  EXPECT_THROW(model_of("harris.impl6")(*impl6, in, LaunchConfig{96, 6}, PatternParams{}, 0), std::runtime_error);
  EXPECT_THROW(model_of("harris.impl6")(*impl6, in, LaunchConfig{256, 3}, PatternParams{}, 0), std::runtime_error);
  // A traced block outside the first launch's grid.
  EXPECT_THROW(model_of("harris.impl6")(*impl6, in, LaunchConfig{256, 2}, PatternParams{}, 2), std::runtime_error);
  // No trace: no steps.
  EXPECT_TRUE(model_of("harris.impl6")(*impl6, in, LaunchConfig{256, 2}, PatternParams{}, -1).trace.steps.empty());
}

TEST(SimHarrisAmp, EveryModelRuns2To22UnderTwoSeconds) {
  const Input in = random_input(1 << 22, DType::Int32, 3);
  const double expected = cpu_reference(ReduceOp::Sum, in);
  for (const VariantInfo* v : harris_amp_variants()) {
    const auto t0 = std::chrono::steady_clock::now();
    const sim::SimOutput out = run(v->id, in, 0, 0);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(out.result, expected) << v->id;
    EXPECT_LT(s, 2.0) << v->id;
    RecordProperty(v->id, std::to_string(s));
    std::printf("  %-20s n = 2^22: %.3f s\n", v->id.c_str(), s);
  }
}
