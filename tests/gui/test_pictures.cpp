// The slides' pictures, checked against the models: the race as an interleaving timeline
// (race_timeline: its lost updates are exactly what the race costs), and a block scan's steps as the
// stacked ladder (scan_ladder: a row per step, an arrow per addition), after "Reduction Pattern",
// Carlinet and Chazalon, Fall 2023 ("Data Race") and "CS 677 Lecture 6", Mordohai ("A Kogge-Stone
// Parallel Scan Algorithm").
#include <gtest/gtest.h>

#include <numeric>
#include <string>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"
#include "views/race_timeline.hpp"
#include "views/scan_graph.hpp"

namespace ws::ui {
namespace {

struct SimRun {
  Trace trace;
  double expected = 0, got = 0;
};

/// One sim run of `id` on `kind` input of n elements with `block` threads per block; expected is the
/// input's sum (what a correct reduction returns).
SimRun run(const char* id, const char* kind, std::int64_t n, int block, std::uint64_t seed = 1) {
  Input in;
  EXPECT_EQ(make_input(kind, n, DType::Int32, seed, in), "");
  const VariantInfo* v = find_variant(id);
  LaunchConfig launch;
  EXPECT_EQ(resolve_launch(*v, in.n(), in.type, LaunchConfig{block, 0}, DeviceShape{}, launch), "");
  const sim::SimOutput o = sim::simulate(*v, in, launch, PatternParams{}, 0);
  SimRun r;
  r.trace = o.trace;
  r.got = o.result;
  r.expected = double(std::accumulate(in.i32.begin(), in.i32.end(), std::int64_t(0)));
  return r;
}

TEST(RaceTimeline, LostUpdatesAreExpectedMinusGotOnOnes) {
  // One block, input of ones: every lost write loses exactly 1, so the count is the whole shortfall.
  for (int block : {8, 16, 32, 64}) {
    SCOPED_TRACE(block);
    const SimRun r = run("epita.race", "ones", block, block);
    const RaceTimeline T = race_timeline(r.trace);
    ASSERT_EQ(T.note, "");
    EXPECT_EQ(double(T.lost_updates), r.expected - r.got);
    EXPECT_EQ(T.writes, block);
    EXPECT_EQ(T.threads, block);
    EXPECT_EQ(T.final_value, r.got);
    EXPECT_EQ(T.added, r.expected);
  }
}

TEST(RaceTimeline, LostValueIsExpectedMinusGotOnRandomInput) {
  // 40 threads in one block of 64: a full warp and a partial one; what the lost writes added is the shortfall.
  const SimRun r = run("epita.race", "random", 40, 64, 7);
  const RaceTimeline T = race_timeline(r.trace);
  ASSERT_EQ(T.note, "");
  EXPECT_EQ(T.writes, 40);
  EXPECT_EQ(T.lost_updates, 31 + 7);  // each warp keeps its last lane's write only
  EXPECT_DOUBLE_EQ(T.lost, r.expected - r.got);
}

TEST(RaceTimeline, EachLostWriteNamesTheWriteThatReplacedIt) {
  const SimRun r = run("epita.race", "ones", 64, 64);
  const RaceTimeline T = race_timeline(r.trace);
  ASSERT_EQ(T.note, "");
  int lost = 0;
  for (const RaceEvent& e : T.events) {
    if (e.kind != RaceEvent::Write || !e.lost) continue;
    ++lost;
    ASSERT_GE(e.overwritten_by, 0);
    const RaceEvent& by = T.events[std::size_t(e.overwritten_by)];
    EXPECT_EQ(by.kind, RaceEvent::Write);
    EXPECT_GT(by.column, e.column);
    EXPECT_EQ(by.thread, e.thread + 1);  // lock-step lanes: the next lane's write, in lane order
    EXPECT_EQ(e.thread / 32, by.thread / 32);
  }
  EXPECT_EQ(lost, 62);
  // Every thread has its load, read, add and write; a warp's reads share one column, its writes do not.
  int reads_of_warp0_col = -1;
  for (const RaceEvent& e : T.events)
    if (e.kind == RaceEvent::Read && e.thread < 32) {
      if (reads_of_warp0_col < 0) reads_of_warp0_col = e.column;
      EXPECT_EQ(e.column, reads_of_warp0_col);
    }
  EXPECT_EQ(T.events.size(), 64u * 4);
  EXPECT_EQ(T.columns, 2 * (3 + 32));
}

TEST(RaceTimeline, RowsAreCappedButCountsCoverTheBlock) {
  const SimRun r = run("epita.race", "ones", 256, 256);
  const RaceTimeline T = race_timeline(r.trace, 64);
  ASSERT_EQ(T.note, "");
  EXPECT_EQ(T.threads, 64);
  EXPECT_EQ(T.block_threads, 256);
  EXPECT_EQ(double(T.lost_updates), r.expected - r.got);
  for (const RaceEvent& e : T.events) EXPECT_LT(e.thread, 64);
}

TEST(RaceTimeline, Cs121CounterRaceLosesAllButOneIncrementPerWarp) {
  // `*d_a += 1` by 1000 x 1000 threads ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022, slide "Race
  // conditions"): the traced block's 1000 increments, of which each warp keeps one; the model's whole count
  // is 32 per block.
  const SimRun r = run("cs121.race", "ones", 1000000, 1000);
  const RaceTimeline T = race_timeline(r.trace);
  ASSERT_EQ(T.note, "");
  EXPECT_EQ(T.writes, 1000);
  EXPECT_EQ(T.block_threads, 1000);
  EXPECT_EQ(T.threads, 64);
  EXPECT_EQ(T.lost_updates, 1000 - r.trace.warps());
  EXPECT_EQ(T.final_value - T.first_value, r.got / 1000);  // every block adds the same
}

TEST(RaceTimeline, RefusesTracesThatAreNotRacyOrOutOfOrder) {
  EXPECT_NE(race_timeline(run("epita.reduce3", "ones", 16, 16).trace).note, "");
  // A read that does not return the latest write means the stated order is not what the model did.
  SimRun r = run("epita.race", "ones", 64, 64);
  for (Step& s : r.trace.steps)
    for (ThreadOp& o : s.ops)
      if (o.thread == 33 && o.kind == OpKind::Load && o.buffer == 2) o.value += 5;
  const RaceTimeline T = race_timeline(r.trace);
  EXPECT_NE(T.note.find("thread 33"), std::string::npos) << T.note;
  EXPECT_TRUE(T.events.empty());
}

TEST(ScanLadder, KoggeStoneHasARowPerStrideAndAnArrowPerAddition) {
  // The slide's 8 elements 3 1 7 0 4 1 6 3 as 8 threads: strides 1, 2, 4 add 7, 6 and 4 pairs.
  const SimRun r = run("stevens.kogge_stone", "sequence", 8, 8);
  const ScanGraph g = scan_graph(r.trace, 8);
  const std::vector<LadderRow> rows = scan_ladder(g, 32);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].label, "input");
  EXPECT_EQ(rows[0].values, (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(rows[1].edges.size(), 7u);
  EXPECT_EQ(rows[2].edges.size(), 6u);
  EXPECT_EQ(rows[3].edges.size(), 4u);
  for (std::size_t k = 1; k < rows.size(); ++k)
    for (const ScanEdge& e : rows[k].edges)
      EXPECT_EQ(e.to - e.from, std::int64_t(1) << (k - 1));  // x[i - stride] -> x[i]
  EXPECT_EQ(rows[3].values, (std::vector<double>{0, 1, 3, 6, 10, 15, 21, 28}));
}

TEST(ScanLadder, BrentKungUpSweepThenDownSweep) {
  const SimRun r = run("stevens.brent_kung", "sequence", 16, 16);
  const ScanGraph g = scan_graph(r.trace, 16);
  const std::vector<LadderRow> rows = scan_ladder(g, 32);
  ASSERT_EQ(rows.size(), 1u + 4 + 3);  // input, up-sweep strides 1 2 4 8, down-sweep 4 2 1
  std::size_t additions = 0;
  for (std::size_t k = 1; k <= 4; ++k) {
    EXPECT_EQ(rows[k].phase, TracePhase::UpSweep);
    EXPECT_EQ(rows[k].edges.size(), std::size_t(16 >> k));  // 8, 4, 2, 1: a tree
  }
  for (std::size_t k = 5; k < rows.size(); ++k) EXPECT_EQ(rows[k].phase, TracePhase::DownSweep);
  for (const LadderRow& row : rows) {
    EXPECT_EQ(row.values.size(), 16u);  // the section, not the whole shared array
    additions += row.edges.size();
  }
  EXPECT_EQ(std::int64_t(additions), g.additions);
  EXPECT_EQ(rows.back().values.back(), 120.0);
}

}  // namespace
}  // namespace ws::ui
