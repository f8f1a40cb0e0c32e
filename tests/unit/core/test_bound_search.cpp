// The slides' reading of a bound search ("Code Optimizations", Filipovic, Fall 2020, slides "Code Modifications")
// on made-up numbers: each rule, the tolerance, the fairness checks, and the
// copies and requests a search makes (no GPU, no compiler).
#include <gtest/gtest.h>

#include "bound_search.hpp"

using namespace ws;

namespace {

BoundMeasure t(double ms, double bytes = -1, double occ = -1) { return BoundMeasure{ms, bytes, occ}; }

BoundVerdict verdict(double o, double m, double c) { return read_bound(t(o), t(m), t(c)).verdict; }

const BoundCheck& check_named(const BoundReading& r, const std::string& prefix) {
  for (const BoundCheck& c : r.checks)
    if (c.name.rfind(prefix, 0) == 0) return c;
  static BoundCheck none;
  ADD_FAILURE() << "no check " << prefix;
  return none;
}

}  // namespace

TEST(BoundSearch, OneCopyCloseToTheOriginalBoundsIt) {
  EXPECT_EQ(verdict(1.0, 0.97, 0.30), BoundVerdict::Memory);
  EXPECT_EQ(verdict(1.0, 0.30, 0.95), BoundVerdict::Compute);
  EXPECT_EQ(verdict(1.0, 0.95, 0.05), BoundVerdict::Memory);  // a tiny compute part: no latency reading
  const BoundReading r = read_bound(t(2.0), t(1.9), t(0.4));
  EXPECT_NE(r.reason.find("0.95x"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("global memory bounds"), std::string::npos) << r.reason;
}

TEST(BoundSearch, SumCloseToTheOriginalIsLatency) {
  EXPECT_EQ(verdict(1.0, 0.55, 0.50), BoundVerdict::Latency);
  EXPECT_EQ(verdict(1.0, 0.70, 0.35), BoundVerdict::Latency);
  // Both readings fit (0.88 is ~1 and 0.88 + 0.2 is ~1): the nearer one wins.
  EXPECT_EQ(verdict(1.0, 0.88, 0.16), BoundVerdict::Latency);
  EXPECT_EQ(verdict(1.0, 0.98, 0.17), BoundVerdict::Memory);
}

TEST(BoundSearch, BothCloseToTheOriginalMeansOptimizeBoth) {
  EXPECT_EQ(verdict(1.0, 0.92, 0.90), BoundVerdict::Both);
  EXPECT_EQ(verdict(1.0, 1.1, 1.05), BoundVerdict::Both);
}

TEST(BoundSearch, TheToleranceIsFifteenPercent) {
  EXPECT_EQ(verdict(1.0, 0.86, 0.10), BoundVerdict::Memory);
  EXPECT_EQ(verdict(1.0, 0.84, 0.10), BoundVerdict::Unclear);
  BoundTolerance loose;
  loose.time = 0.2;
  EXPECT_EQ(read_bound(t(1.0), t(0.84), t(0.10), loose).verdict, BoundVerdict::Memory);
}

TEST(BoundSearch, NoRuleFitsSaysWhatLooksWrong) {
  BoundReading r = read_bound(t(1.0), t(1.6), t(0.2));
  EXPECT_EQ(r.verdict, BoundVerdict::Unclear);
  EXPECT_NE(r.reason.find("slower than the original"), std::string::npos) << r.reason;
  r = read_bound(t(1.0), t(0.4), t(0.3));
  EXPECT_EQ(r.verdict, BoundVerdict::Unclear);
  EXPECT_NE(r.reason.find("longer than both copies together"), std::string::npos) << r.reason;
  r = read_bound(t(1.0), t(0.7), t(0.6));
  EXPECT_EQ(r.verdict, BoundVerdict::Unclear);
  EXPECT_NE(r.reason.find("nearest is latency bound"), std::string::npos) << r.reason;
  EXPECT_EQ(verdict(1.0, 0.0, 0.5), BoundVerdict::NotTimed);
  EXPECT_EQ(verdict(-1, 0.5, 0.5), BoundVerdict::NotTimed);
}

TEST(BoundSearch, FairnessChecksBytesAndOccupancy) {
  // Fair: the memory-only copy moves the original's bytes (1 % more), the compute-only copy almost none,
  // and both keep the occupancy.
  BoundReading r = read_bound(t(1.0, 67.1e6, 90), t(0.97, 67.8e6, 88), t(0.3, 0.3e6, 93));
  EXPECT_TRUE(r.fair());
  EXPECT_EQ(check_named(r, "memory-only moves").state, BoundCheck::Passed);
  EXPECT_EQ(check_named(r, "compute-only moves").state, BoundCheck::Passed);
  EXPECT_EQ(check_named(r, "memory-only keeps").state, BoundCheck::Passed);
  EXPECT_EQ(check_named(r, "compute-only keeps").state, BoundCheck::Passed);
  // The compiler dropped half the loads; the compute-only copy still reads; occupancy rose by a third.
  r = read_bound(t(1.0, 67.1e6, 60), t(0.5, 33.6e6, 80), t(0.3, 20e6, 60));
  EXPECT_FALSE(r.fair());
  EXPECT_EQ(check_named(r, "memory-only moves").state, BoundCheck::Failed);
  EXPECT_NE(check_named(r, "memory-only moves").detail.find("-49.9 %"), std::string::npos);
  EXPECT_EQ(check_named(r, "compute-only moves").state, BoundCheck::Failed);
  EXPECT_EQ(check_named(r, "memory-only keeps").state, BoundCheck::Failed);
  EXPECT_NE(check_named(r, "memory-only keeps").detail.find("dummy shared array"), std::string::npos);
  EXPECT_EQ(check_named(r, "compute-only keeps").state, BoundCheck::Passed);
  // Without metrics nothing is failed, nothing passed.
  r = read_bound(t(1.0), t(0.9), t(0.2));
  EXPECT_TRUE(r.fair());
  for (const BoundCheck& c : r.checks) EXPECT_EQ(c.state, BoundCheck::Unknown) << c.name;
}

TEST(BoundSearch, MeasureOfARunAndTheTable) {
  RunResult o;
  o.variant = "harris.impl3 (bound: original)";
  o.timed = true;
  o.timing = summarize({0.05, 0.04, 0.06});
  o.status = RunStatus::Ok;
  o.metrics.values["dram__bytes_read.sum"] = 67.1e6;
  o.metrics.values["dram__bytes_write.sum"] = 0.3e6;
  o.metrics.values["sm__warps_active.avg.pct_of_peak_sustained_active"] = 91;
  const BoundMeasure m = bound_measure(o);
  EXPECT_DOUBLE_EQ(m.ms, 0.05);
  EXPECT_DOUBLE_EQ(m.dram_bytes, 67.1e6) << "reads only: writes carry the upload's dirty L2 lines";
  EXPECT_DOUBLE_EQ(m.occupancy_pct, 91);
  RunResult mem = o, comp = o;
  mem.status = comp.status = RunStatus::Wrong;
  comp.timing = summarize({0.01});
  comp.metrics.values["dram__bytes_read.sum"] = 0;
  const std::vector<RunResult> runs{o, mem, comp};
  const BoundReading r = read_bound(bound_measure(o), bound_measure(mem), bound_measure(comp));
  EXPECT_EQ(r.verdict, BoundVerdict::Memory);
  const std::string table = format_bound(runs, r);
  EXPECT_NE(table.find("memory-only       0.0500     1.00        67.10     91.0 %"), std::string::npos) << table;
  EXPECT_NE(table.find("verdict: memory bound"), std::string::npos) << table;
  EXPECT_NE(table.find("answer not checked"), std::string::npos) << table;
  const std::string json = bound_to_json(runs, r);
  EXPECT_NE(json.find("\"format\":\"warpscope-bound\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"verdict\":\"memory bound\""), std::string::npos) << json;
}

TEST(BoundSearch, CopiesAndRequests) {
  // Hand-written for the slides' variants; a starting point with the slides' steps as TODOs for the others.
  BoundCopies c = make_bound_copies("harris.impl3", PatternKind::Reduction, "ignored", true);
  EXPECT_TRUE(c.hand_written);
  EXPECT_NE(c.memory.find("// The tree, commented out:"), std::string::npos);
  EXPECT_NE(c.compute.find("n == 0xffffffffu"), std::string::npos);
  std::string original;
  EXPECT_TRUE(read_bound_file(PatternKind::Reduction, "harris.impl3", "original", original));
  EXPECT_FALSE(read_bound_file(PatternKind::Reduction, "../harris.impl3", "original", original));
  const std::string mine =
      "// warpscope: block=128\nextern \"C\" __global__ void kernel(const int* in, int* out, "
      "unsigned n) {}\n";
  c = make_bound_copies("harris.impl3", PatternKind::Reduction, mine, false);
  EXPECT_FALSE(c.hand_written);
  EXPECT_EQ(c.memory.rfind("// warpscope: block=128\n// Memory-only copy", 0), 0u) << c.memory;
  EXPECT_NE(c.compute.find("TODO"), std::string::npos);
  EXPECT_NE(c.compute.find(mine.substr(24)), std::string::npos);
  EXPECT_FALSE(make_bound_copies("amp.cascade", PatternKind::Reduction, mine, true).hand_written);

  RunRequest base;
  base.n = 1 << 24;
  const std::vector<RunRequest> q = bound_requests(base, PatternKind::Reduction, "harris.impl3", mine, c, "impl3");
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q[0].kernel.label, "harris.impl3 (bound: original)");
  EXPECT_EQ(q[1].kernel.label, "harris.impl3 (memory-only)");
  EXPECT_EQ(q[2].kernel.file, "impl3.compute.cu");
  for (const RunRequest& r : q) {
    EXPECT_EQ(r.n, 1 << 24);
    EXPECT_EQ(r.metrics, kBoundMetrics);
    EXPECT_EQ(r.kernel.like, "harris.impl3");
  }
  EXPECT_EQ(bound_labels("x")[2], "x (compute-only)");
}
