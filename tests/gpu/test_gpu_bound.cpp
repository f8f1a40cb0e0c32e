// The bound search on the GPU ("Code Optimizations", J. Filipovic, slides "Code Modifications"): the hand-written
// original, memory-only and compute-only copies of epita.reduce3 and harris.impl1 (kernels/reduction/bound/) at
// n = 2^24, run as bound_requests makes them (users' kernels compiled with NVRTC, kBoundMetrics collected) on the
// in-process CUDA backend. The original must check ok; the copies' answers are wrong by design (bound_requests
// runs them like any kernel and format_bound reads only the original's check), so a copy only has to run
// without an error or a fault. The memory-only copy must move the original's DRAM bytes within 5 % (the slides:
// "check with profiler that the same amount of data are transferred"). The three times and the verdict are
// printed to be recorded, not asserted: they are the GPU's to say.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "bound_search.hpp"
#include "gpu_device.hpp"
#include "request.hpp"

using namespace ws;

namespace {

void search(const std::string& variant) {
  std::string original;
  ASSERT_TRUE(read_bound_file(PatternKind::Reduction, variant, "original", original)) << variant;
  const BoundCopies copies = make_bound_copies(variant, PatternKind::Reduction, original, true);
  ASSERT_TRUE(copies.hand_written) << variant;
  RunRequest base;
  base.n = std::int64_t(1) << 24;
  base.backend = BackendKind::Cuda;
  const std::vector<RunRequest> reqs = bound_requests(base, PatternKind::Reduction, variant, original, copies, variant);
  ASSERT_EQ(reqs.size(), 3u);
  std::vector<RunResult> runs;
  for (const RunRequest& r : reqs) runs.push_back(execute(r, &test::gpu()));
  ASSERT_EQ(runs[0].status, RunStatus::Ok) << variant << " original: " << runs[0].message;
  EXPECT_EQ(runs[0].result, runs[0].expected) << variant;
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_NE(runs[i].status, RunStatus::Error) << reqs[i].kernel.label << ": " << runs[i].message;
    EXPECT_NE(runs[i].status, RunStatus::Faulted) << reqs[i].kernel.label << ": " << runs[i].message;
    EXPECT_TRUE(runs[i].timed) << reqs[i].kernel.label;
  }
  const BoundMeasure o = bound_measure(runs[0]), m = bound_measure(runs[1]), c = bound_measure(runs[2]);
  ASSERT_GT(o.dram_bytes, 0) << variant << ": DRAM bytes not collected: " << runs[0].metrics.error;
  ASSERT_GT(m.dram_bytes, 0) << variant << " memory-only: DRAM bytes not collected: " << runs[1].metrics.error;
  EXPECT_LE(std::fabs(m.dram_bytes - o.dram_bytes), 0.05 * o.dram_bytes)
      << variant << ": memory-only moves " << m.dram_bytes << " B, the original " << o.dram_bytes << " B";
  const BoundReading reading = read_bound(o, m, c);
  std::printf("[ gpu      ] bound %s n=2^24 on %s:\n%s", variant.c_str(), runs[0].device.c_str(),
              format_bound(runs, reading).c_str());
  std::printf("[ gpu      ] bound %s: original %.4f ms, memory-only %.4f ms, compute-only %.4f ms; verdict: %s\n",
              variant.c_str(), o.ms, m.ms, c.ms, to_string(reading.verdict));
}

}  // namespace

TEST(GpuBound, Reduce3CopiesRunAndTheMemoryCopyMovesTheSameBytes) { search("epita.reduce3"); }

TEST(GpuBound, HarrisImpl1CopiesRunAndTheMemoryCopyMovesTheSameBytes) { search("harris.impl1"); }
