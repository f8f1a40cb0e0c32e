// Pure helpers of the step-through views: the tree layout, lanes -> banks per warp, the step player
// and compute_trace's messages. Hand-built traces, so these do not depend on the sim models.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "app_state.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "sim/sim.hpp"
#include "trace/trace_compare.hpp"
#include "trace/trace_store.hpp"
#include "trace_source.hpp"

namespace ws::ui {

using controller::adopt_model_lines;
using controller::AppState;
using controller::compute_trace;
using controller::describe_node;
using controller::format_value;
using controller::kMaxTraceBlocks;
using controller::kTracePassesShown;
using controller::TraceKey;
using controller::TraceState;
using controller::tree_layout;
using controller::tree_node_text;
using controller::TreeLayout;
using controller::TreeNode;
using controller::warp_shared_accesses;

namespace {

/// A sequential-addressing tree on `threads` shared words: load, then stride threads/2 .. 1.
Trace seq_tree(int threads) {
  Trace t;
  t.variant = "test.seq";
  t.block_size = threads;
  Step load;
  load.phase = TracePhase::Load;
  load.has_shared = true;
  for (int i = 0; i < threads; ++i) {
    load.ops.push_back(ThreadOp{i, OpKind::Store, Space::Shared, 0, i, -1, double(i), 0, 0});
    load.working_threads.push_back(i);
    load.shared_after.push_back(double(i));
  }
  t.steps.push_back(load);
  std::vector<double> s = load.shared_after;
  for (int stride = threads / 2; stride >= 1; stride /= 2) {
    Step st;
    st.index = int(t.steps.size());
    st.phase = TracePhase::Tree;
    st.label = "stride " + std::to_string(stride);
    st.has_shared = true;
    for (int tid = 0; tid < stride; ++tid) {
      const double r = s[tid] + s[tid + stride];
      st.ops.push_back(ThreadOp{tid, OpKind::Load, Space::Shared, 0, tid, -1, s[tid], 0, 0});
      st.ops.push_back(ThreadOp{tid, OpKind::Load, Space::Shared, 1, tid + stride, -1, s[tid + stride], 0, 0});
      st.ops.push_back(ThreadOp{tid, OpKind::Add, Space::Register, -1, -1, tid + stride, r, 0, 0});
      st.ops.push_back(ThreadOp{tid, OpKind::Store, Space::Shared, 2, tid, -1, r, 0, 0});
      st.working_threads.push_back(tid);
      s[tid] = r;
    }
    st.shared_after = s;
    t.steps.push_back(st);
  }
  return t;
}

TEST(TreeLayout, SequentialTreeHasOneRowPerStrideAndEdgesToBothOperands) {
  const Trace t = seq_tree(8);
  const TreeLayout L = tree_layout(t);
  ASSERT_TRUE(L.note.empty());
  EXPECT_EQ(L.slots, 8);
  EXPECT_EQ(L.row_step, (std::vector<int>{0, 1, 2, 3}));
  ASSERT_EQ(L.nodes.size(), 8u + 4 + 2 + 1);
  // Row 1, thread 1: s[1] += s[5] from leaves 1 and 5.
  const TreeNode& n = L.nodes[9];
  EXPECT_EQ(n.row, 1);
  EXPECT_EQ(n.thread, 1);
  EXPECT_EQ(n.slot, 1);
  EXPECT_EQ(n.from_self, 1);
  EXPECT_EQ(n.from_other, 5);
  EXPECT_EQ(n.value, 6);
  // The root reads row 2's nodes, not the leaves.
  const TreeNode& root = L.nodes.back();
  EXPECT_EQ(root.row, 3);
  EXPECT_EQ(root.value, 28);
  EXPECT_EQ(L.nodes[std::size_t(root.from_other)].row, 2);
  EXPECT_EQ(L.row_of_step(2), 2);
  EXPECT_EQ(L.row_of_step(99), -1);
}

TEST(TreeLayout, DescribesANodeAsTheIssueWritesIt) {
  TreeNode n;
  n.thread = 5;
  n.slot = 4;
  n.operand = 5;
  n.value = 12;
  EXPECT_EQ(describe_node(n, DType::Int32), "thread 5 (warp 0, lane 5): s[4] += s[5] -> 12");
  n.thread = 37;
  n.kind = OpKind::Max;
  EXPECT_EQ(describe_node(n, DType::Int32), "thread 37 (warp 1, lane 5): s[4] = max(s[4], s[5]) -> 12");
  EXPECT_EQ(format_value(0.5, DType::Float32), "0.5");
}

TEST(TreeLayout, UnusedSharedSlotsBeyondTheLoadAreDropped) {
  Trace t = seq_tree(4);
  t.steps[0].shared_after.resize(64, 0.0);  // a model sizing shared as 64 words for 4 threads
  const TreeLayout L = tree_layout(t);
  EXPECT_EQ(L.slots, 4);
  EXPECT_EQ(L.nodes.size(), 4u + 2 + 1);
}

TEST(TreeLayout, NoSharedArrayGivesANote) {
  Trace t;
  t.block_size = 32;
  t.steps.push_back(Step{});
  EXPECT_FALSE(tree_layout(t).note.empty());
}

TEST(Banks, StridedIndexGivesTwoWayAndSequentialIsFree) {
  Step st;
  for (int lane = 0; lane < 32; ++lane) {
    st.ops.push_back(ThreadOp{lane, OpKind::Load, Space::Shared, 0, 2 * lane, -1, 0, 0, 0});  // s[2 * tid]
    st.ops.push_back(ThreadOp{lane, OpKind::Load, Space::Shared, 1, lane, -1, 0, 0, 0});      // s[tid]
    st.ops.push_back(ThreadOp{32 + lane, OpKind::Load, Space::Shared, 0, 7, -1, 0, 0, 0});    // warp 1: broadcast
  }
  const auto a = warp_shared_accesses(st, 0);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].ways, 2);
  EXPECT_EQ(a[0].bank_words[0], 2);  // s[0] and s[32]
  EXPECT_EQ(a[0].bank_words[1], 0);
  EXPECT_EQ(a[1].ways, 1);
  const auto b = warp_shared_accesses(st, 1);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].ways, 1);
  EXPECT_EQ(b[0].bank_words[7], 1);
  EXPECT_TRUE(warp_shared_accesses(st, 2).empty());
}

TEST(Player, MovesClampsAndStopsAtTheEnd) {
  TraceState s;
  s.trace = seq_tree(8);  // 4 steps
  s.move(-3);
  EXPECT_EQ(s.step, 0);
  s.playing = true;
  s.speed = 2;
  s.tick(0.6);  // 1.2 steps
  EXPECT_EQ(s.step, 1);
  s.tick(10);
  EXPECT_EQ(s.step, 3);
  EXPECT_FALSE(s.playing);
}

TEST(ComputeTrace, SaysWhyWhenThereIsNoTrace) {
  VariantInfo v;
  v.id = "nosuch.variant";
  TraceKey k;
  k.variant = v.id;
  k.n = 1024;
  k.input = "ones";
  std::string why;
  EXPECT_FALSE(compute_trace(v, k, why));
  EXPECT_NE(why.find("no trace model for nosuch.variant"), std::string::npos) << why;
}

TEST(ComputeTrace, TracesOneBlockOfReduce3WhenItsModelExists) {
  const VariantInfo* v = find_variant("epita.reduce3");
  if (!v || !sim::find_model(v->id)) GTEST_SKIP() << "no epita.reduce3 model in this build";
  TraceKey k;
  k.variant = v->id;
  k.n = std::int64_t(1) << 20;
  k.block = 64;
  k.input = "ones";
  std::string why;
  const auto t = compute_trace(*v, k, why);
  ASSERT_TRUE(t) << why;
  EXPECT_EQ(t->n, 64);  // one block window, not the parameters' 2^20
  EXPECT_EQ(t->block_size, 64);
  const TreeLayout L = tree_layout(*t);
  EXPECT_EQ(L.slots, 64);
  EXPECT_EQ(L.row_step.size(), 7u);  // leaves + strides 32 .. 1
  EXPECT_EQ(L.nodes.back().value, 64);
}

/// The global input addresses the traced block's ops read (buffer 0), sorted, unique.
std::vector<std::int64_t> input_reads(const Trace& t) {
  std::set<std::int64_t> a;
  for (const Step& st : t.steps)
    for (const ThreadOp& op : st.ops)
      if (op.space == Space::Global && op.buffer == 0 && (op.kind == OpKind::Load || op.kind == OpKind::Atomic))
        a.insert(op.address);
  return {a.begin(), a.end()};
}

TEST(MultiBlockTrace, Reduce5CascadesOverASmallGrid) {
  const VariantInfo* v = find_variant("epita.reduce5");
  ASSERT_NE(v, nullptr);
  TraceKey k;
  k.variant = v->id;
  k.n = std::int64_t(1) << 20;
  k.block = 256;
  k.blocks = 4;
  k.block_index = 2;
  k.input = "random";
  std::string why;
  const auto t = compute_trace(*v, k, why);
  ASSERT_TRUE(t) << why;
  EXPECT_EQ(t->launch.grid, 4);
  EXPECT_EQ(t->n, 4 * 256 * kTracePassesShown);
  EXPECT_EQ(t->block_index, 2);
  int passes = 0;
  for (const Step& st : t->steps) passes += st.label.rfind("pass ", 0) == 0;
  EXPECT_EQ(passes, kTracePassesShown);
  // Block 2's thread t reads x = 2 * 256 + t + k * gridSize, gridSize = 4 * 256.
  const std::vector<std::int64_t> reads = input_reads(*t);
  ASSERT_EQ(reads.size(), std::size_t(256 * kTracePassesShown));
  EXPECT_EQ(reads.front(), 512);
  EXPECT_EQ(reads.back(), 512 + 255 + 3 * 1024);
}

TEST(MultiBlockTrace, MultipassAndPrivatizedHistogramTraceTheAskedBlock) {
  const VariantInfo* mp = find_variant("harris.multipass");
  ASSERT_NE(mp, nullptr);
  TraceKey k;
  k.variant = mp->id;
  k.n = 100000;
  k.block = 128;
  k.blocks = 3;
  k.block_index = 1;
  k.input = "random";
  std::string why;
  auto t = compute_trace(*mp, k, why);
  ASSERT_TRUE(t) << why;
  EXPECT_EQ(t->n, 3 * 128);
  EXPECT_EQ(t->launch.grid, 3);
  const std::vector<std::int64_t> reads = input_reads(*t);
  ASSERT_FALSE(reads.empty());
  EXPECT_EQ(reads.front(), 128);
  EXPECT_EQ(reads.back(), 255);
  // A block index outside the grid the trace covers: a reason, not a trace of another block.
  k.n = 128;
  EXPECT_FALSE(compute_trace(*mp, k, why));
  EXPECT_NE(why.find("has 1 block"), std::string::npos) << why;

  const VariantInfo* hist = find_variant("cs121.hist_shared");
  ASSERT_NE(hist, nullptr);
  TraceKey h;
  h.variant = hist->id;
  h.n = std::int64_t(1) << 20;
  h.blocks = 4;
  h.block_index = 3;
  h.input = "random";
  auto ht = compute_trace(*hist, h, why);
  ASSERT_TRUE(ht) << why;
  EXPECT_EQ(ht->block_index, 3);
  EXPECT_GE(ht->launch.grid, 4);
  EXPECT_LE(ht->launch.grid, kMaxTraceBlocks);
}

TEST(MultiBlockTrace, BracketKeysSwitchBlockAndGrowTheGrid) {
  const VariantInfo* v = find_variant("epita.reduce3");
  ASSERT_NE(v, nullptr);
  TraceState st;
  TraceKey k;
  k.variant = v->id;
  k.n = 1 << 20;
  k.block = 64;
  k.input = "random";
  std::string why;
  st.trace = compute_trace(*v, k, why);
  ASSERT_TRUE(st.trace) << why;
  EXPECT_FALSE(st.switch_block(-1, k.n));  // block 0 has no previous
  EXPECT_TRUE(st.switch_block(+1, k.n));   // past the one-block trace: the grid grows
  EXPECT_EQ(st.blocks, 2);
  EXPECT_EQ(st.block_index, 1);
  k.blocks = st.blocks;
  k.block_index = st.block_index;
  st.trace = compute_trace(*v, k, why);
  ASSERT_TRUE(st.trace) << why;
  EXPECT_EQ(st.trace->launch.grid, 2);
  EXPECT_EQ(st.trace->block_index, 1);
  EXPECT_TRUE(st.switch_block(-1, k.n));
  EXPECT_EQ(st.block_index, 0);
  EXPECT_EQ(st.blocks, 2);
  // n of one window: no further block to take.
  EXPECT_TRUE(st.switch_block(+1, k.n));
  EXPECT_FALSE(st.switch_block(+1, 128));
  // Never past kMaxTraceBlocks.
  st.blocks = kMaxTraceBlocks;
  st.block_index = kMaxTraceBlocks - 1;
  st.trace->launch.grid = kMaxTraceBlocks;
  EXPECT_FALSE(st.switch_block(+1, k.n));
}

TEST(TraceSourceChoice, ARecordingWithoutLinesTakesTheModelsLinesOnlyWhenItsOpsEqualTheModels) {
  // The H200 recordings were stored before traces carried source lines.
  const Report r = load_report(std::string(WS_GUI_TEST_DIR) + "/fixtures/traces_h200.json");
  for (const Trace& gpu : r.traces) {
    ASSERT_FALSE(gpu.has_lines()) << gpu.variant;
    const VariantInfo* v = find_variant(gpu.variant);
    ASSERT_NE(v, nullptr);
    Input in;
    ASSERT_EQ(make_input("ones", gpu.n, DType::Int32, 1, in), "");
    for (const Step& st : gpu.steps)
      for (const ThreadOp& op : st.ops)
        if (op.kind == OpKind::Load && op.space == Space::Global && op.buffer == 0 && op.address < gpu.n)
          in.i32[std::size_t(op.address)] = std::int32_t(op.value);
    const Trace model = sim::find_model(v->id)(*v, in, gpu.launch, PatternParams{}, gpu.block_index).trace;
    ASSERT_EQ(compare_traces(model, gpu), "") << gpu.variant;
    Trace adopted = gpu;
    adopt_model_lines(adopted, model);
    EXPECT_EQ(adopted.source_file, model.source_file);
    for (std::size_t i = 0; i < model.steps.size(); ++i) {
      EXPECT_EQ(adopted.steps[i].lines, model.steps[i].lines) << gpu.variant << " step " << i;
      for (const ThreadOp& o : adopted.steps[i].ops) EXPECT_EQ(o.line > 0, model.has_lines()) << gpu.variant;
    }
    // With its lines, the recording still equals the model, now line for line.
    EXPECT_EQ(compare_traces(model, adopted), "") << gpu.variant;
  }
}

TEST(TraceSourceChoice, ARecordedTraceInTheOpenReportWinsUntilSwitchedOff) {
  // A report holding a "recorded" trace of epita.reduce3 (here the model's, relabelled as a GPU's).
  const VariantInfo* v = find_variant("epita.reduce3");
  ASSERT_NE(v, nullptr);
  TraceKey key;
  key.variant = v->id;
  key.n = 512;
  key.block = 128;
  key.input = "random";
  std::string why;
  auto t = compute_trace(*v, key, why);
  ASSERT_TRUE(t.has_value()) << why;
  t->source = "NVIDIA Test GPU";
  t->compared_with_model = true;
  Report r = new_report("recorded", DeviceInfo{});
  r.traces.push_back(*t);
  const std::string path = ::testing::TempDir() + "ws_recorded_trace.json";
  save_report(r, path);

  AppState s;
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.params.block = 128;  // the recording's block; the default n (2^20) covers the same first window
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace.has_value());
  EXPECT_EQ(s.trace.origin, "sim");
  EXPECT_FALSE(s.trace.recorded_available);
  ASSERT_EQ(s.open_report(path), "");
  s.refresh_trace();
  EXPECT_TRUE(s.trace.recorded_available);
  EXPECT_EQ(s.trace.origin, "report");
  EXPECT_EQ(s.trace.trace->source, "NVIDIA Test GPU");
  EXPECT_NE(s.trace.origin_note.find("GPU recording of what is asked"), std::string::npos) << s.trace.origin_note;
  s.trace.use_recorded = false;
  s.refresh_trace();
  EXPECT_EQ(s.trace.origin, "sim");
  EXPECT_EQ(s.trace.trace->source, "sim");
  s.trace.use_recorded = true;
  s.params.block = 256;  // not what was recorded: the model runs, and the header says why
  s.refresh_trace();
  EXPECT_EQ(s.trace.origin, "sim");
  EXPECT_FALSE(s.trace.recorded_available);
  EXPECT_NE(s.trace.origin_note.find("block 128"), std::string::npos) << s.trace.origin_note;
  EXPECT_NE(s.trace.origin_note.find("you asked block 256"), std::string::npos) << s.trace.origin_note;

  // The same recording with one input element read as another number (another generator): refused.
  bool changed = false;
  for (Step& st : r.traces[0].steps)
    for (ThreadOp& o : st.ops)
      if (!changed && o.kind == OpKind::Load && o.space == Space::Global && o.buffer == 0) o.value += 1, changed = true;
  ASSERT_TRUE(changed);
  save_report(r, path);
  ASSERT_EQ(s.open_report(path), "");
  s.params.block = 128;
  s.refresh_trace();
  EXPECT_EQ(s.trace.origin, "sim");
  EXPECT_NE(s.trace.origin_note.find("input values of today's random generator"), std::string::npos)
      << s.trace.origin_note;
  std::remove(path.c_str());
}

TEST(TraceSourceChoice, SettingsAreHonouredWithTheDefaultReportOpen) {
  // The report the GUI opens at start without a GPU holds GPU-recorded traces (n = 1024, default
  // blocks, random seed 1). What the lecturer sets must be what the step-through views show, and a
  // recording is shown only when it read the very numbers asked for.
  AppState s;
  s.load(std::string(WS_GUI_ASSETS) + "/lessons");
  const std::string report = AppState::startup_report(std::string(WS_GUI_ASSETS) + "/reports");
  ASSERT_FALSE(report.empty());
  ASSERT_EQ(s.open_report(report), "");
  ASSERT_TRUE(s.select_variant("epita.reduce3"));
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
  EXPECT_EQ(s.trace.origin, "report") << s.trace.origin_note;  // defaults: the recording is of what is asked
  EXPECT_EQ(s.trace.trace->block_size, 256);

  // Block 16, n 16, the sequence, step 2: the model runs on exactly that, and says why.
  s.params.block = 16;
  s.params.set_n(16);
  ASSERT_EQ(s.set_input("sequence"), "");
  s.trace.pending_step = 2;
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
  EXPECT_EQ(s.trace.origin, "sim");
  EXPECT_NE(s.trace.origin_note.find("the recording is for n = 1,024, block 256"), std::string::npos)
      << s.trace.origin_note;
  EXPECT_NE(s.trace.origin_note.find("you asked block 16, input sequence"), std::string::npos) << s.trace.origin_note;
  EXPECT_EQ(s.trace.trace->block_size, 16);
  EXPECT_EQ(s.trace.trace->n, 16);
  EXPECT_EQ(s.trace.step, 2);
  const TreeLayout L = tree_layout(*s.trace.trace);
  ASSERT_EQ(L.slots, 16);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(L.nodes[std::size_t(i)].value, i) << "leaf " << i;  // 0..15, no repeat
  EXPECT_EQ(L.nodes.back().value, 120);

  // A report opening later (the GUI's first frame) keeps the asked step.
  ASSERT_EQ(s.open_report(report), "");
  s.replay->created += " again";
  s.refresh_trace();
  EXPECT_EQ(s.trace.step, 2);

  // Typed numbers: the slide's eight values on a block of 8.
  s.params.block = 8;
  ASSERT_EQ(s.set_input("3 1 7 0 4 1 6 3"), "");
  s.refresh_trace();
  ASSERT_TRUE(s.trace.trace.has_value()) << s.trace.why_none;
  EXPECT_EQ(s.trace.trace->n, 8);
  EXPECT_EQ(tree_layout(*s.trace.trace).nodes.back().value, 25);
  EXPECT_NE(s.set_input("3 x 7"), "");

  // Warp-synchronous code refuses 16 threads with the rule's reason instead of drawing something else.
  ASSERT_TRUE(s.select_variant("epita.reduce6"));
  s.params.block = 16;
  s.refresh_trace();
  EXPECT_FALSE(s.trace.trace.has_value());
  EXPECT_NE(s.trace.why_none.find("partialSum[tid + 32]"), std::string::npos) << s.trace.why_none;
}

TEST(TraceSourceChoice, TracesRecordedOnTheH200EqualTheModelHere) {
  // Recorded on an NVIDIA H200 by `warpscope-cli report --backend cuda --traces 1024` (block 0 of
  // n = 1024 random int32, seed 1, default block): the CPU model must reproduce them exactly.
  // The model runs on the values the GPU read: the input is taken from the recording's own global loads
  // of the input buffer (block 0 reads only those), so the check does not depend on the generator.
  const Report r = load_report(std::string(WS_GUI_TEST_DIR) + "/fixtures/traces_h200.json");
  ASSERT_EQ(r.traces.size(), 3u);
  for (const Trace& gpu : r.traces) {
    EXPECT_EQ(gpu.source, "NVIDIA H200");
    EXPECT_TRUE(gpu.compared_with_model);
    EXPECT_EQ(gpu.model_difference, "");
    Input in;
    ASSERT_EQ(make_input("ones", gpu.n, DType::Int32, 1, in), "");
    int loads = 0;
    for (const Step& st : gpu.steps)
      for (const ThreadOp& op : st.ops)
        if (op.kind == OpKind::Load && op.space == Space::Global && op.buffer == 0 && op.address < gpu.n) {
          in.i32[std::size_t(op.address)] = std::int32_t(op.value);
          ++loads;
        }
    EXPECT_GE(loads, gpu.block_size) << gpu.variant;  // every thread of block 0 read at least one element
    const VariantInfo* v = find_variant(gpu.variant);
    ASSERT_NE(v, nullptr);
    const Trace model = sim::find_model(v->id)(*v, in, gpu.launch, PatternParams{}, gpu.block_index).trace;
    EXPECT_EQ(compare_traces(model, gpu), "") << gpu.variant;
  }
}

TEST(StoredTraceLimits, EverySimTraceFitsWhatAReportMayHold) {
  // The loader's limits (trace/trace_store.hpp) must refuse hostile traces, never a real one: every
  // model's trace at its default block and at 1024 threads round-trips through the stored form.
  int traced = 0;
  for (const VariantInfo& v : all_variants()) {
    for (int block : {0, 1024}) {
      TraceKey k;
      k.variant = v.id;
      k.n = std::int64_t(1) << 20;
      k.block = block;
      k.input = "random";
      std::string why;
      const auto t = compute_trace(v, k, why);
      if (!t) continue;
      ++traced;
      try {
        const Trace back = trace_from_store_json(trace_to_store_json(*t));
        EXPECT_EQ(back.steps.size(), t->steps.size()) << v.id;
      } catch (const std::exception& e) { ADD_FAILURE() << v.id << " block " << block << ": " << e.what(); }
    }
  }
  EXPECT_GT(traced, 30);
}

}  // namespace
}  // namespace ws::ui

namespace ws::ui {
namespace {

TEST(TreeLayout, StepZeroShowsTheLeavesButNoFinalValue) {
  const Trace t = seq_tree(8);  // leaves 0..7, root 28
  const TreeLayout L = tree_layout(t);
  const TreeNode& root = L.nodes.back();
  EXPECT_EQ(tree_node_text(L, root, 0, false, DType::Int32), "");
  EXPECT_EQ(tree_node_text(L, L.nodes[7], 0, false, DType::Int32), "7");
  EXPECT_EQ(tree_node_text(L, L.nodes[8], 1, false, DType::Int32), "4");  // row 1 reached at step 1
  EXPECT_EQ(tree_node_text(L, root, 2, false, DType::Int32), "");         // one step before the root's
  EXPECT_EQ(tree_node_text(L, root, 3, false, DType::Int32), "28");
  EXPECT_EQ(tree_node_text(L, root, 0, true, DType::Int32), "28");  // the toggle brings them back
  EXPECT_EQ(L.last_row_reached(0), 0);
  EXPECT_EQ(L.last_row_reached(99), 3);
}

}  // namespace
}  // namespace ws::ui
