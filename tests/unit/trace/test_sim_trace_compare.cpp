// trace_from_events / compare_traces, on the CPU: a model trace flattened into the
// events an instrumented kernel would write must come back equal; any changed op, missing working
// thread or extra step must be reported; long cascading loops fold like the model's.
#include <gtest/gtest.h>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"
#include "trace/trace_compare.hpp"
#include "trace_points.hpp"

using namespace ws;

namespace {

/// The events a perfect recorder would write for `t`: per step, each thread's ops in program order,
/// then its working mark; threads interleaved in reverse order (the GPU's slot order is arbitrary
/// between threads).
std::vector<TraceEvent> events_of(const Trace& t) {
  std::vector<TraceEvent> ev;
  int file = -1;
  for (int f = 0; f < trace_points::kFileCount; ++f)
    if (t.source_file == trace_points::kFiles[f]) file = f;
  for (const Step& s : t.steps) {
    for (int thread = t.block_size - 1; thread >= 0; --thread) {
      int line = s.lines.empty() ? 0 : s.lines.front();  // a working mark's line: the thread's last statement
      for (const ThreadOp& o : s.ops) {
        if (o.thread != thread) continue;
        line = o.line;
        TraceEvent e{};
        e.line = o.line;
        e.file = file;
        e.step = s.index;
        e.thread = o.thread;
        e.kind = std::int8_t(o.kind);
        e.space = std::int8_t(o.space);
        e.access = std::int16_t(o.access);
        e.buffer = o.buffer;
        e.address = o.address;
        e.operand = o.operand;
        e.value = o.value;
        ev.push_back(e);
      }
      for (int w : s.working_threads)
        if (w == thread) {
          TraceEvent e{};
          e.step = s.index;
          e.thread = thread;
          e.kind = kTraceWork;
          e.line = line;
          e.file = line > 0 ? file : -1;
          ev.push_back(e);
        }
    }
  }
  return ev;
}

Trace model_trace(const std::string& id, std::int64_t n, int block, int traced_block = 0) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  Input in;
  EXPECT_EQ(make_input("random", n, DType::Int32, 5, in), "");
  LaunchConfig launch;
  EXPECT_EQ(resolve_launch(*v, n, DType::Int32, LaunchConfig{block, 0}, DeviceShape{}, launch), "");
  return sim::find_model(id)(*v, in, launch, PatternParams{}, traced_block).trace;
}

TEST(TraceCompare, FlattenedModelTracesComeBackEqual) {
  for (const char* id : {"epita.reduce1", "epita.reduce3", "epita.reduce6", "epita.reduce8_fixed", "harris.impl2",
                         "harris.impl5_shfl", "cs121.block_reduce", "amp.tiled_4"}) {
    const Trace m = model_trace(id, 5000, 0);
    const Trace g = trace_from_events(events_of(m), m, "Test GPU");
    EXPECT_EQ(compare_traces(m, g), "") << id;
    EXPECT_EQ(g.source, "Test GPU");
    ASSERT_EQ(g.steps.size(), m.steps.size()) << id;
    for (std::size_t i = 0; i < m.steps.size(); ++i) EXPECT_EQ(g.steps[i].label, m.steps[i].label) << id;
  }
}

TEST(TraceCompare, SharedArrayIsReplayedFromStores) {
  const Trace m = model_trace("epita.reduce3", 1000, 256);
  const Trace g = trace_from_events(events_of(m), m, "Test GPU");
  ASSERT_EQ(g.steps.size(), m.steps.size());
  for (std::size_t i = 0; i < m.steps.size(); ++i) {
    ASSERT_TRUE(g.steps[i].has_shared);
    EXPECT_EQ(g.steps[i].shared_after, m.steps[i].shared_after) << "step " << i;
  }
}

TEST(TraceCompare, ReportsAChangedValue) {
  const Trace m = model_trace("epita.reduce3", 1000, 256);
  auto ev = events_of(m);
  for (auto& e : ev)
    if (e.step == 2 && e.thread == 5 && e.kind == std::int8_t(OpKind::Store)) e.value += 1;
  const std::string diff = compare_traces(m, trace_from_events(ev, m, "Test GPU"));
  EXPECT_NE(diff.find("step 2"), std::string::npos) << diff;
  EXPECT_NE(diff.find("thread 5"), std::string::npos) << diff;
}

TEST(TraceCompare, RecordedLinesComeFromTheEvents) {
  const Trace m = model_trace("epita.reduce6", 1000, 256);
  ASSERT_EQ(m.source_file, "epita.cu");
  const Trace g = trace_from_events(events_of(m), m, "Test GPU");
  EXPECT_EQ(g.source_file, "epita.cu");
  for (std::size_t i = 0; i < m.steps.size(); ++i) EXPECT_EQ(g.steps[i].lines, m.steps[i].lines) << i;
  // A statement recorded at another line is a difference, named with both lines.
  auto ev = events_of(m);
  for (auto& e : ev)
    if (e.step == 2 && e.thread == 3) e.line += 1;
  const std::string diff = compare_traces(m, trace_from_events(ev, m, "Test GPU"));
  EXPECT_NE(diff.find("source lines differ"), std::string::npos) << diff;
}

// harris.naive at n = 4097, block 1024: the last block (2) holds only thread 2048, whose pair (4096,
// 4097) lies past n, and the later launches have no block 2, so the GPU records no event at all. The
// model then names no file either: the recording (nothing) and the model agree on lines and file, as
// the GPU test checks (GpuTrace.RecordedTraceEqualsTheModel/harris_naive).
TEST(TraceCompare, ABlockThatDoesNothingNamesNoFile) {
  const Trace m = model_trace("harris.naive", 4097, 1024, 2);
  ASSERT_EQ(m.steps.size(), 1u);
  EXPECT_TRUE(m.steps[0].ops.empty());
  EXPECT_FALSE(m.has_lines());
  EXPECT_EQ(m.source_file, "");
  const Trace g = trace_from_events({}, m, "Test GPU");
  EXPECT_EQ(compare_traces(m, g), "");
  EXPECT_EQ(g.source_file, m.source_file);
  EXPECT_EQ(g.has_lines(), m.has_lines());
  // Block 1 works in every launch that has it: both name harris.cu and its line.
  const Trace w = model_trace("harris.naive", 4097, 1024, 1);
  EXPECT_EQ(w.source_file, "harris.cu");
  EXPECT_EQ(trace_from_events(events_of(w), w, "Test GPU").source_file, "harris.cu");
}

TEST(TraceCompare, ReportsAMissingWorkingThread) {
  const Trace m = model_trace("epita.reduce3", 1000, 256);
  auto ev = events_of(m);
  std::vector<TraceEvent> kept;
  for (const auto& e : ev)
    if (!(e.step == 1 && e.thread == 7 && e.kind == kTraceWork)) kept.push_back(e);
  const std::string diff = compare_traces(m, trace_from_events(kept, m, "Test GPU"));
  EXPECT_NE(diff.find("working threads differ"), std::string::npos) << diff;
}

TEST(TraceCompare, ReportsAnExtraStep) {
  const Trace m = model_trace("epita.reduce3", 1000, 256);
  auto ev = events_of(m);
  TraceEvent extra{};
  extra.step = int(m.steps.size());
  extra.kind = kTraceWork;
  ev.push_back(extra);
  const std::string diff = compare_traces(m, trace_from_events(ev, m, "Test GPU"));
  EXPECT_NE(diff.find("steps"), std::string::npos) << diff;
}

TEST(TraceCompare, ProgramOrderWithinAThreadDoesNotMatter) {
  Trace m = model_trace("epita.reduce3", 1000, 256);
  auto ev = events_of(m);
  // Swap the two loads of thread 0 in the first tree step.
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < ev.size(); ++i)
    if (ev[i].step == 1 && ev[i].thread == 0 && ev[i].kind == std::int8_t(OpKind::Load)) idx.push_back(i);
  ASSERT_EQ(idx.size(), 2u);
  std::swap(ev[idx[0]], ev[idx[1]]);
  EXPECT_EQ(compare_traces(m, trace_from_events(ev, m, "Test GPU")), "");
}

TEST(TraceCompare, LongLoopsFoldLikeTheModel) {
  // A hand-made model: load, a folded loop step covering passes 1..40, a tree step. The "GPU" recorded
  // every pass as its own step (steps 1..40) and then the tree as step 41.
  Trace m;
  m.variant = "test";
  m.block_size = 32;
  m.steps.resize(3);
  m.steps[0] = Step{0, TracePhase::Load, "init", {}, {0}, false, {}, {}};
  m.steps[1] = Step{1, TracePhase::Load, "pass 1..40 (folded, ops not recorded)", {}, {0}, false, {}, {}};
  m.steps[2] = Step{2, TracePhase::Tree, "stride 16", {}, {0}, false, {}, {}};
  std::vector<TraceEvent> ev;
  for (int s = 0; s <= 41; ++s) {
    TraceEvent w{};
    w.step = s;
    w.kind = kTraceWork;
    ev.push_back(w);
    if (s >= 1 && s <= 40) {
      TraceEvent st{};
      st.step = s;
      st.kind = std::int8_t(OpKind::Store);
      st.space = std::int8_t(Space::Shared);
      st.address = 0;
      st.value = s;
      ev.push_back(st);
    }
  }
  const Trace g = trace_from_events(ev, m, "Test GPU");
  ASSERT_EQ(g.steps.size(), 3u);
  EXPECT_EQ(g.steps[1].label, m.steps[1].label);
  EXPECT_TRUE(g.steps[1].ops.empty());
  ASSERT_TRUE(g.steps[1].has_shared);
  EXPECT_EQ(g.steps[1].shared_after[0], 40);  // the last pass's store, replayed
  EXPECT_EQ(compare_traces(m, g), "");
}

}  // namespace

namespace {

TEST(TraceCompare, FloatToleranceAcceptsRoundingOnly) {
  const Trace m = model_trace("epita.reduce3", 1000, 256);
  auto ev = events_of(m);
  for (auto& e : ev)
    if (e.step == 2 && e.thread == 5 && e.kind == std::int8_t(OpKind::Store)) e.value *= 1 + 1e-7;
  EXPECT_NE(compare_traces(m, trace_from_events(ev, m, "GPU")), "");
  EXPECT_EQ(compare_traces(m, trace_from_events(ev, m, "GPU"), 1e-5), "");
  for (auto& e : ev)
    if (e.step == 2 && e.thread == 5 && e.kind == std::int8_t(OpKind::Store)) e.value += 10;
  EXPECT_NE(compare_traces(m, trace_from_events(ev, m, "GPU"), 1e-5), "");
}

}  // namespace

#include <cstdio>

#include "report.hpp"
#include "trace/trace_store.hpp"

namespace {

TEST(TraceStore, RoundTripIsLossless) {
  for (const char* id : {"epita.reduce6", "harris.impl5_shfl", "epita.reduce1"}) {
    Trace m = model_trace(id, 3000, 0);
    m.source = "NVIDIA Test";
    m.compared_with_model = true;
    m.model_difference = "step 1: example";
    const Trace back = trace_from_store_json(nlohmann::json::parse(trace_to_store_json(m).dump()));
    EXPECT_EQ(compare_traces(m, back), "") << id;
    EXPECT_EQ(back.source, m.source);
    EXPECT_EQ(back.launch.grid, m.launch.grid);
    EXPECT_EQ(back.block_size, m.block_size);
    EXPECT_EQ(back.interleaving, m.interleaving);
    EXPECT_TRUE(back.compared_with_model);
    EXPECT_EQ(back.model_difference, m.model_difference);
    ASSERT_EQ(back.steps.size(), m.steps.size());
    EXPECT_EQ(back.source_file, m.source_file);
    for (std::size_t i = 0; i < m.steps.size(); ++i) {
      EXPECT_EQ(back.steps[i].shared_after, m.steps[i].shared_after);
      EXPECT_EQ(back.steps[i].has_shared, m.steps[i].has_shared);
      EXPECT_EQ(back.steps[i].lines, m.steps[i].lines);
    }
  }
}

TEST(TraceStore, TracesStoredWithoutLinesStillLoad) {
  // The layout before traces carried lines: no source_file, no step lines, 8-element ops.
  Trace m = model_trace("epita.reduce3", 1000, 128);
  nlohmann::json j = trace_to_store_json(m);
  ASSERT_TRUE(j.contains("source_file"));
  j.erase("source_file");
  for (auto& s : j["steps"]) {
    s.erase("lines");
    for (auto& o : s["ops"]) o.erase(8);
  }
  const Trace back = trace_from_store_json(j);
  EXPECT_EQ(back.source_file, "");
  EXPECT_FALSE(back.has_lines());
  ASSERT_EQ(back.steps.size(), m.steps.size());
  for (const Step& s : back.steps)
    for (const ThreadOp& o : s.ops) EXPECT_EQ(o.line, 0);
  // With source_file, every op needs its line.
  nlohmann::json bad = trace_to_store_json(m);
  bad["steps"][1]["ops"][0].erase(8);
  EXPECT_THROW(trace_from_store_json(bad), std::runtime_error);
}

TEST(TraceStore, ReportsCarryTracesAndRejectBrokenOnes) {
  Report r = new_report("traces", DeviceInfo{});
  r.traces.push_back(model_trace("epita.reduce3", 1000, 128));
  const std::string path = ::testing::TempDir() + "ws_trace_report.json";
  save_report(r, path);
  const Report back = load_report(path);
  ASSERT_EQ(back.traces.size(), 1u);
  EXPECT_EQ(compare_traces(r.traces[0], back.traces[0]), "");
  nlohmann::json j = report_to_json(r);
  j["traces"][0]["steps"][1]["ops"][0] = {1, "teleport", "shared", 0, 0, -1, 0, 0};
  try {
    report_from_json(j);
    FAIL() << "a broken trace must not load";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("trace 0"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

}  // namespace

// A user's edit may end the kernel earlier than the model of the variant it is like (reduce3's copy whose loop
// stops at stride 32: the load, three strides, the commit). Not padded to the model's steps, the recording keeps
// its own count, so the step views and the comparison show where the edit ends (GpuEditedTrace.ALoopStopped...).
TEST(TraceCompare, AUsersRecordingIsNotPaddedToTheModelsSteps) {
  const Trace m = model_trace("epita.reduce3", 1000, 256);
  ASSERT_EQ(m.steps.size(), 10u);
  std::vector<TraceEvent> ev;
  for (const TraceEvent& e : events_of(m))
    if (e.step < 5) ev.push_back(e);
  EXPECT_EQ(trace_from_events(ev, m, "Test GPU").steps.size(), 10u) << "a built-in variant's recording is padded";
  const Trace user = trace_from_events(ev, m, "Test GPU", /*pad_to_model=*/false);
  ASSERT_EQ(user.steps.size(), 5u);
  EXPECT_EQ(user.steps[4].label, "step 4") << "step counts differ: no label of the model's";
  EXPECT_NE(compare_traces(m, user).find("the model has 10 steps, the GPU recorded 5"), std::string::npos);
}
