// The scan view's model (scan_graph): edges, active lanes and work counts from the sim traces of the
// slides' Kogge-Stone and Brent-Kung scans ("CS 677 Lecture 6", Mordohai), and from the app's trace source.
#include <gtest/gtest.h>

#include "launch_rules.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"
#include "trace_source.hpp"
#include "views/scan_graph.hpp"

namespace ws::ui {

using controller::compute_trace;
using controller::TraceKey;

namespace {

Trace slide_trace(const char* id, int block) {
  Input in;
  in.type = DType::Int32;
  in.kind = "slide";
  in.i32 = {3, 1, 7, 0, 4, 1, 6, 3};
  const VariantInfo* v = find_variant(id);
  LaunchConfig launch;
  EXPECT_EQ(resolve_launch(*v, in.n(), in.type, LaunchConfig{block, 0}, DeviceShape{}, launch), "");
  return sim::simulate(*v, in, launch, PatternParams{}, 0).trace;
}

}  // namespace

TEST(ScanGraph, KoggeStoneEdgesAndWork) {
  const ScanGraph g = scan_graph(slide_trace("stevens.kogge_stone", 32), 8);
  ASSERT_EQ(g.steps.size(), 5u);  // load, strides 1 2 4, store
  EXPECT_EQ(g.additions, 17);
  EXPECT_EQ(g.sequential, 7);
  EXPECT_EQ(work_summary(g), "17 additions (sequential: 7) = 2.43x the work");
  const ScanStepView& s2 = g.steps[2];  // stride 2: threads 2..7 add T[j-2] into T[j]
  ASSERT_EQ(s2.edges.size(), 6u);
  EXPECT_EQ(s2.edges[0].thread, 2);
  EXPECT_EQ(s2.edges[0].from, 0);
  EXPECT_EQ(s2.edges[0].to, 2);
  EXPECT_EQ(s2.additions, 6);
  EXPECT_EQ(s2.additions_so_far, 13);
  EXPECT_EQ(s2.active_lanes, (std::vector<int>{6}));
  EXPECT_EQ(std::vector<double>(s2.after.begin(), s2.after.begin() + 8),
            (std::vector<double>{3, 4, 11, 11, 12, 12, 11, 14}));
  EXPECT_EQ(s2.before, g.steps[1].after);
}

TEST(ScanGraph, BrentKungUpAndDownSweep) {
  const ScanGraph g = scan_graph(slide_trace("stevens.brent_kung", 32), 8);
  EXPECT_EQ(g.additions, 11);
  // up-sweep stride 4: thread 0 adds T[3] into T[7]; down-sweep stride 2: thread 0 adds T[3] into T[5].
  ASSERT_EQ(g.steps[3].edges.size(), 1u);
  EXPECT_EQ(g.steps[3].edges[0].from, 3);
  EXPECT_EQ(g.steps[3].edges[0].to, 7);
  EXPECT_EQ(g.steps[3].edges[0].value, 25);
  ASSERT_EQ(g.steps[4].edges.size(), 1u);
  EXPECT_EQ(g.steps[4].edges[0].to, 5);
  EXPECT_EQ(g.steps[4].phase, TracePhase::DownSweep);
}

TEST(ScanGraph, TraceSourceGivesTheScanTraceAndCubHasNone) {
  TraceKey k;
  k.variant = "stevens.kogge_stone_db";
  k.n = 64;
  k.block = 64;
  k.type = DType::Int32;
  k.input = "ones";
  std::string why;
  auto t = compute_trace(*find_variant(k.variant), k, why);
  ASSERT_TRUE(t.has_value()) << why;
  const ScanGraph g = scan_graph(*t, 64);
  EXPECT_EQ(g.additions, 64 * 6 - 63);         // n log2 n - (n - 1)
  EXPECT_EQ(g.steps.back().after.back(), 64);  // scan of ones
  k.exclusive = true;
  t = compute_trace(*find_variant(k.variant), k, why);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(scan_graph(*t, 64).steps.back().after.back(), 63);
  k.variant = "cub.scan";
  k.exclusive = false;
  EXPECT_FALSE(compute_trace(*find_variant(k.variant), k, why).has_value());
  EXPECT_NE(why.find("result only"), std::string::npos) << why;
  EXPECT_FALSE(scan_graph(Trace{}, 8).note.empty());
}

// The naive scan keeps no shared array: the view shows the input x (global) above the threads' running
// sums, each step an edge from x[j] to every thread still adding; the last sums are the slide's output.
TEST(ScanGraph, NaiveScanShowsTheInputAndEachThreadsSum) {
  const ScanGraph g = scan_graph(slide_trace("stevens.scan_naive", 8), 8);
  ASSERT_TRUE(g.note.empty());
  EXPECT_TRUE(g.registers);
  EXPECT_EQ(g.top, "x");
  ASSERT_GE(g.steps.size(), 8u);  // j = 0 .. 7, then the store
  const std::vector<double> x{3, 1, 7, 0, 4, 1, 6, 3};
  EXPECT_EQ(g.steps[0].before, x);
  EXPECT_EQ(g.steps[0].after, std::vector<double>(8, 3));  // j = 0: every thread starts its sum at x[0]
  EXPECT_EQ(g.steps[0].edges.size(), 8u);
  const ScanStepView& j1 = g.steps[1];  // threads 1..7 read x[1] and add it to x[0]
  ASSERT_EQ(j1.edges.size(), 7u);
  for (const ScanEdge& e : j1.edges) EXPECT_EQ(e.from, 1);
  EXPECT_EQ(j1.after, (std::vector<double>{3, 4, 4, 4, 4, 4, 4, 4}));
  EXPECT_EQ(g.steps[7].after, (std::vector<double>{3, 4, 11, 11, 15, 16, 22, 25}));
  EXPECT_EQ(g.steps[7].edges.size(), 1u);  // only thread 7 still adds at j = 7
}

}  // namespace ws::ui
