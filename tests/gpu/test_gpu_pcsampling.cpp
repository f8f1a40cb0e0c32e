// GPU tests of the PC sampling pass (`--metrics pcsampling`): samples are taken, they land on the
// variant's own source lines, and the stall reasons are CUPTI's. 2^24 ints, 256 threads per block.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "backend_factory.hpp"
#include "pc_sampling_worker.hpp"
#include "request.hpp"
#include "stall_reasons.hpp"

using namespace ws;

namespace {

Backend* backend() {
  static std::unique_ptr<Backend> b;
  static std::string err;
  if (!b) b = open_cuda_backend(err);
  return b.get();
}

RunResult sampled(const std::string& variant, const std::string& metrics = "pcsampling") {
  RunRequest req;
  req.variant = variant;
  req.n = std::int64_t(1) << 24;
  req.launch.block = 256;
  req.repeat = 3;
  req.metrics = metrics;
  RunResult r = execute(req, backend());
  EXPECT_TRUE(r.status == RunStatus::Ok || r.status == RunStatus::Race) << variant << ": " << r.message;
  EXPECT_TRUE(r.metrics.error.empty()) << variant << ": " << r.metrics.error;
  for (const auto& w : r.metrics.warnings) std::printf("[ warning  ] %s: %s\n", variant.c_str(), w.c_str());
  return r;
}

/// Prints what was sampled (the numbers the notes quote) and returns the share on lines of `file`.
double report(const RunResult& r, const std::string& file) {
  const PcSampling& p = r.metrics.pc_sampling;
  double in_file = 0;
  for (const auto& k : p.kernels) {
    in_file += share_in_file(k, file) * k.samples;
    std::printf("[ gpu      ] %s: kernel %s, %.0f samples (%.0f without a line), %.1f %% on %s lines\n",
                r.variant.c_str(), k.kernel.c_str(), k.samples, k.unmapped_samples, 100 * share_in_file(k, file),
                file.c_str());
    for (std::size_t i = 0; i < k.reasons.size() && i < 6; ++i)
      std::printf("[ gpu      ]     %-20s %6.1f %%\n", k.reasons[i].reason.c_str(),
                  100 * k.reasons[i].samples / k.samples);
    for (const auto& l : k.lines)
      if (l.samples >= 0.02 * k.samples)
        std::printf("[ gpu      ]     %s:%d %.1f %% (top: %s)\n", l.file.c_str(), l.line, 100 * l.samples / k.samples,
                    l.reasons.empty() ? "-" : l.reasons[0].reason.c_str());
  }
  std::printf("[ gpu      ] %s: %.0f samples, CUPTI total %.0f, dropped %.0f\n", r.variant.c_str(), p.samples(),
              p.hardware_samples, p.dropped_samples);
  return p.samples() > 0 ? in_file / p.samples() : 0;
}

/// The 1-based line of the first `needle` after `marker` in kernels/reduction/`file`, or 0.
int line_of(const std::string& file, const std::string& marker, const std::string& needle) {
  std::ifstream in(std::string(WS_SOURCE_DIR) + "/kernels/reduction/" + file);
  std::string s;
  int line = 0;
  bool inside = false;
  while (std::getline(in, s)) {
    ++line;
    if (s.find(marker) != std::string::npos) inside = true;
    if (inside && s.find(needle) != std::string::npos) return line;
  }
  return 0;
}

double reason_samples(const PcSampling& p, const std::string& reason) {
  double s = 0;
  for (const auto& c : total_reasons(p))
    if (c.reason == reason) s += c.samples;
  return s;
}

}  // namespace

TEST(GpuPcSampling, HarrisImpl1SamplesLandOnItsOwnLinesAndWaitAtBarriers) {
  ASSERT_NE(backend(), nullptr);
  RunResult r = sampled("harris.impl1");
  const PcSampling& p = r.metrics.pc_sampling;
  ASSERT_TRUE(p.collected);
  ASSERT_GT(p.samples(), 0);
  EXPECT_DOUBLE_EQ(r.metrics.values.at("ws__pc_samples"), p.samples());
  EXPECT_GT(report(r, "harris.cu"), 0.9);
  // impl1 waits at __syncthreads() after every tree step: some of its samples must be barrier stalls.
  EXPECT_GT(reason_samples(p, "barrier"), 0);
  const auto total = total_reasons(p);
  for (std::size_t i = 0; i < total.size(); ++i)
    if (total[i].reason == "barrier")
      std::printf("[ gpu      ] harris.impl1: barrier is reason %zu of %zu\n", i + 1, total.size());
  std::printf("[ gpu      ] harris.impl1: its tree __syncthreads() is harris.cu:%d\n",
              line_of("harris.cu", "__global__ void impl1", "__syncthreads"));
  for (const auto& c : total)
    if (!find_stall_reason(c.reason)) std::printf("[ gpu      ] reason without an explanation: %s\n", c.reason.c_str());
  // The report replays: the JSON round trip keeps every count.
  EXPECT_EQ(pc_sampling_to_json(pc_sampling_from_json(pc_sampling_to_json(p))), pc_sampling_to_json(p));
}

TEST(GpuPcSampling, EpitaReduce2SamplesLandOnItsOwnLines) {
  ASSERT_NE(backend(), nullptr);
  RunResult r = sampled("epita.reduce2");
  ASSERT_TRUE(r.metrics.pc_sampling.collected);
  ASSERT_GT(r.metrics.pc_sampling.samples(), 0);
  EXPECT_GT(report(r, "epita.cu"), 0.9);
}

TEST(GpuPcSampling, SecondCollectionInOneProcess) {
  // The GUI's worker samples run after run in one process: enable and disable must work again.
  ASSERT_NE(backend(), nullptr);
  RunResult a = sampled("harris.impl1");
  RunResult b = sampled("harris.impl3");
  EXPECT_GT(a.metrics.pc_sampling.samples(), 0);
  EXPECT_GT(b.metrics.pc_sampling.samples(), 0);
  EXPECT_GT(report(b, "harris.cu"), 0.9);
  // The second collection of this process ran in a fresh worker process, and says so.
  bool said = false;
  for (const auto& w : b.metrics.warnings) said = said || w.find("fresh worker process") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(GpuPcSampling, AfterTheDefaultSetInTheSameRun) {
  // Range profiler and SASS patching first, then PC sampling: all three in one request.
  ASSERT_NE(backend(), nullptr);
  RunResult r = sampled("harris.impl2", "default,pcsampling");
  EXPECT_TRUE(r.metrics.values.count("gpu__time_duration.sum"));
  EXPECT_FALSE(r.metrics.lines.empty());
  ASSERT_TRUE(r.metrics.pc_sampling.collected);
  EXPECT_GT(r.metrics.pc_sampling.samples(), 0);
  EXPECT_GT(report(r, "harris.cu"), 0.9);
}

TEST(GpuPcSampling, AgainAfterTheRangeProfilerAndTheSassPass) {
  // The GUI's worker: a PC sampling run, a default-metrics run, then PC sampling again.
  ASSERT_NE(backend(), nullptr);
  RunResult a = sampled("harris.impl4");
  RunResult d = sampled("harris.impl5", "default");
  EXPECT_TRUE(d.metrics.values.count("gpu__time_duration.sum"));
  EXPECT_FALSE(d.metrics.lines.empty());
  RunResult b = sampled("epita.reduce3");
  EXPECT_GT(a.metrics.pc_sampling.samples(), 0);
  EXPECT_GT(b.metrics.pc_sampling.samples(), 0);
  EXPECT_GT(report(b, "epita.cu"), 0.9);
}

TEST(GpuPcSampling, TimedRunsAfterSamplingAreCheckedAndTimed) {
  // A PC sampling pass leaves the backend able to time: the next runs are correct and timed. Whether they
  // are as fast as before is a benchmark's question (bench/timing_after_profiling.cpp prints the ratio).
  ASSERT_NE(backend(), nullptr);
  auto timed = [](const std::string& metrics) {
    RunRequest req;
    req.variant = "epita.reduce6";
    req.n = std::int64_t(1) << 26;
    req.repeat = 30;
    req.metrics = metrics;
    RunResult r = execute(req, backend());
    EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
    EXPECT_EQ(r.result, r.expected);
    EXPECT_TRUE(r.timed);
    EXPECT_EQ(r.timing.samples_ms.size(), 30u);
    EXPECT_GT(r.timing.min_ms, 0);
    EXPECT_TRUE(r.metrics.values.empty());  // nothing of the sampling pass carried into a plain run
    return r.timing.median_ms;
  };
  const double before = timed("");
  sampled("epita.reduce6");
  const double after = timed("");
  std::printf("[ gpu      ] epita.reduce6 2^26: median %.4f ms before a PC sampling pass, %.4f ms after\n", before,
              after);
}

TEST(GpuPcSampling, AWorkerStartedInAdvanceDidItsSetUpBeforeTheRequest) {
  // prepare_pc_sampling_worker() (issue 31): the fresh worker kept ready ran the warm-up variant plainly
  // and enabled and configured PC sampling while it waited (CudaBackend::warm_up_pc_sampling); its one
  // collection must still hand out PC records on the variant's own lines, and this process's range
  // profiler must still get the hardware beside it. epita.reduce1 is the warm-up variant: its module was
  // loaded before the collection and must map to lines all the same.
  ASSERT_NE(backend(), nullptr);
  sampled("epita.reduce1", "default");  // this process has profiled: its PC sampling goes to a fresh worker
  const PcSamplingWorkerStats s0 = pc_sampling_worker_stats();
  prepare_pc_sampling_worker();
  RunResult a = sampled("harris.impl2", "default,pcsampling");
  EXPECT_EQ(pc_sampling_worker_stats().from_ready, s0.from_ready + 1);
  EXPECT_TRUE(a.metrics.values.count("gpu__time_duration.sum"));
  EXPECT_FALSE(a.metrics.lines.empty());
  EXPECT_GT(a.metrics.pc_sampling.samples(), 0);
  EXPECT_GT(report(a, "harris.cu"), 0.9);
  // The next one was started as that one was taken.
  RunResult b = sampled("epita.reduce1", "default,pcsampling");
  EXPECT_EQ(pc_sampling_worker_stats().from_ready, s0.from_ready + 2);
  EXPECT_TRUE(b.metrics.values.count("gpu__time_duration.sum"));
  EXPECT_GT(b.metrics.pc_sampling.samples(), 0);
  EXPECT_GT(report(b, "epita.cu"), 0);  // the rest is its atomicAdd's line in CUDA's header
  double unmapped = 0;
  for (const auto& k : b.metrics.pc_sampling.kernels) unmapped += k.unmapped_samples;
  EXPECT_EQ(unmapped, 0);
  release_pc_sampling_worker();
}
