// The editor's "Find the bound" without a window (app/controller/bound_edit.hpp): the copies it makes of the
// editor's text (the hand-written pair where the variant has one, else the text with the slides' TODOs), the
// three requests it queues, and the reading of their results once all three came back as rows of the session.
// The panel itself is drawn by the gui_editor_bound* picture tests (tests/gui/CMakeLists.txt).
#include <gtest/gtest.h>

#include "bound_edit.hpp"
#include "kernel_copy.hpp"
#include "registry.hpp"

namespace ws::ui {

using controller::BoundEdit;
using controller::find_section;
using controller::KernelCopy;
using controller::make_kernel_copy;

namespace {

/// A timed run named `label`: `ms` per launch, `mb` of DRAM traffic, `occ` % achieved occupancy.
RunResult run_of(const std::string& label, double ms, double mb, double occ) {
  RunResult r;
  r.variant = label;
  r.status = RunStatus::Ok;
  r.timed = true;
  r.timing = summarize({ms, ms, ms});
  r.metrics.collected = true;
  r.metrics.values["dram__bytes_read.sum"] = mb * 1e6;
  r.metrics.values["dram__bytes_write.sum"] = 0;
  r.metrics.values["sm__warps_active.avg.pct_of_peak_sustained_active"] = occ;
  return r;
}

}  // namespace

TEST(BoundEdit, FindTheBoundMakesBothCopiesAndReadsTheThreeRuns) {
  const VariantInfo* v = find_variant("epita.reduce3");
  ASSERT_NE(v, nullptr);
  const KernelCopy copy = make_kernel_copy(*v, find_section(v->id));
  BoundEdit b;
  b.open(v->id, v->pattern, copy.text);
  EXPECT_TRUE(b.is_open());
  EXPECT_TRUE(b.hand_written());
  EXPECT_NE(b.memory.find("memory-only"), std::string::npos) << b.memory;
  EXPECT_NE(b.compute.find("compute-only"), std::string::npos) << b.compute;

  RunRequest base;
  base.n = 1 << 20;
  const std::vector<RunRequest> reqs = b.requests(base, copy.text);
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0].kernel.source, copy.text);
  EXPECT_EQ(reqs[1].kernel.source, b.memory);
  EXPECT_EQ(reqs[2].kernel.source, b.compute);
  EXPECT_EQ(reqs[1].metrics, kBoundMetrics);
  for (const RunRequest& r : reqs) EXPECT_EQ(r.n, BoundEdit::kBoundMinN) << "an input the L2 holds hides the loads";

  std::vector<RunResult> session = {run_of("epita.reduce3 (memory-only)", 5, 5, 5)};  // an earlier search's
  b.queued(session);
  EXPECT_TRUE(b.running());
  EXPECT_FALSE(b.take(session));
  const std::vector<std::string> labels = bound_labels(v->id);
  session.push_back(run_of(labels[0], 1.0, 67, 90));
  session.push_back(run_of(labels[1], 0.95, 67, 89));
  EXPECT_FALSE(b.take(session)) << "the compute-only run has not come back";
  session.push_back(run_of(labels[2], 0.3, 0.5, 90));
  ASSERT_TRUE(b.take(session));
  EXPECT_FALSE(b.running());
  ASSERT_NE(b.reading(), nullptr);
  EXPECT_EQ(b.reading()->verdict, BoundVerdict::Memory);
  EXPECT_EQ(b.runs()[1].timing.median_ms, 0.95);
  EXPECT_EQ(b.status(), "memory bound");
}

TEST(BoundEdit, AVariantWithoutHandWrittenCopiesGetsTheTextWithTodos) {
  const VariantInfo* v = find_variant("epita.reduce4");
  ASSERT_NE(v, nullptr);
  const KernelCopy copy = make_kernel_copy(*v, find_section(v->id));
  BoundEdit b;
  b.open(v->id, v->pattern, copy.text);
  EXPECT_FALSE(b.hand_written());
  EXPECT_NE(b.memory.find("TODO"), std::string::npos);
  EXPECT_NE(b.compute.find("TODO"), std::string::npos);
  b.cannot_run("Running the three needs an NVIDIA GPU (here, --gpu ssh:HOST or --gpu 'slurm:ARGS').");
  EXPECT_EQ(b.status(), "Running the three needs an NVIDIA GPU (here, --gpu ssh:HOST or --gpu 'slurm:ARGS').");
}

}  // namespace ws::ui
