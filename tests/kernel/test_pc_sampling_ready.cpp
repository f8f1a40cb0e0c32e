// PC sampling's fresh worker kept ready (issue 31; pc_sampling_worker.hpp): after
// prepare_pc_sampling_worker(), the next request is served by a worker started in advance and another one
// is started for the request after it; after release_pc_sampling_worker() each request starts its own,
// as before. The worker here is ws_synthetic_kernel_worker (a `warpscope-cli worker` with a made-up "cuda"
// backend, no GPU): this checks the keeping and the hand-over, not CUPTI's samples (the device script
// scripts/device-metrics-warmup.sh measures those on the GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "pc_sampling_worker.hpp"
#include "run_types.hpp"

using namespace ws;

namespace {

RunRequest pc_request() {
  RunRequest req;
  req.variant = "epita.reduce1";
  req.n = 1 << 16;
  req.backend = BackendKind::Cuda;
  req.metrics = "default,pcsampling";
  return req;
}

/// What the serving worker's own run left before PC sampling: a timed run of `ms` per launch.
RunResult timed_run(double ms) {
  RunResult r;
  r.timed = true;
  r.timing.median_ms = ms;
  return r;
}

/// Whether the fresh worker that sampled `r` said its hardware buffer was `mib` MiB (the synthetic worker
/// says what WS_PC_SAMPLING_HW_MB it was started with).
bool sampled_with_buffer(const RunResult& r, int mib) {
  const std::string said = "hardware buffer " + std::to_string(mib) + " MiB";
  const auto& w = r.metrics.warnings;
  return std::any_of(w.begin(), w.end(), [&](const std::string& s) { return s.find(said) != std::string::npos; });
}

bool says_fresh_worker(const RunResult& r) {
  const auto& w = r.metrics.warnings;
  return std::any_of(w.begin(), w.end(), [](const std::string& s) {
    return s.find("PC sampling ran in a fresh worker process") != std::string::npos;
  });
}

}  // namespace

TEST(PcSamplingReadyWorker, ARequestAfterPrepareUsesTheWorkerStartedInAdvanceAndTheNextOneIsStarted) {
  setenv("WARPSCOPE_CLI", WS_SYNTHETIC_KERNEL_WORKER, 1);
  unsetenv("WS_NO_METRICS_WARMUP");
  const PcSamplingWorkerStats s0 = pc_sampling_worker_stats();

  prepare_pc_sampling_worker();
  prepare_pc_sampling_worker();  // twice: still one worker kept ready
  const PcSamplingWorkerStats s1 = pc_sampling_worker_stats();
  EXPECT_EQ(s1.started, s0.started + 1);
  EXPECT_EQ(s1.from_ready, s0.from_ready);

  RunResult r1 = timed_run(0.05);
  sample_pcs_in_fresh_worker(pc_request(), r1);
  EXPECT_TRUE(says_fresh_worker(r1)) << (r1.metrics.warnings.empty() ? "" : r1.metrics.warnings.front());
  EXPECT_TRUE(sampled_with_buffer(r1, 32));
  const PcSamplingWorkerStats s2 = pc_sampling_worker_stats();
  EXPECT_EQ(s2.from_ready, s0.from_ready + 1);  // served by the one started in advance
  EXPECT_EQ(s2.started, s0.started + 2);        // and the next one is starting

  RunResult r2 = timed_run(0.05);
  sample_pcs_in_fresh_worker(pc_request(), r2);
  EXPECT_TRUE(says_fresh_worker(r2));
  const PcSamplingWorkerStats s3 = pc_sampling_worker_stats();
  EXPECT_EQ(s3.from_ready, s0.from_ready + 2);
  EXPECT_EQ(s3.started, s0.started + 3);

  // A run too long for the ready worker's buffer (or not timed) gets a worker of its own; the ready one
  // stays for the next short run.
  for (RunResult r : {timed_run(2.5), RunResult{}}) {
    sample_pcs_in_fresh_worker(pc_request(), r);
    EXPECT_TRUE(says_fresh_worker(r));
    EXPECT_TRUE(sampled_with_buffer(r, 512));  // CUPTI's default: 32 MiB might not hold its samples
  }
  const PcSamplingWorkerStats s3b = pc_sampling_worker_stats();
  EXPECT_EQ(s3b.from_ready, s0.from_ready + 2);
  EXPECT_EQ(s3b.started, s0.started + 5);
  RunResult r2b = timed_run(0.3);
  sample_pcs_in_fresh_worker(pc_request(), r2b);
  EXPECT_EQ(pc_sampling_worker_stats().from_ready, s0.from_ready + 3);
  EXPECT_TRUE(sampled_with_buffer(r2b, 32));
  wait_for_stopping_pc_sampling_workers();  // the used ones are gone: a metrics pass here may start

  // Released: the kept worker stops, and a request starts its own worker, as without prepare.
  release_pc_sampling_worker();
  RunResult r3 = timed_run(0.05);
  sample_pcs_in_fresh_worker(pc_request(), r3);
  EXPECT_TRUE(says_fresh_worker(r3));
  EXPECT_TRUE(sampled_with_buffer(r3, 32));  // started for it, a short run's buffer
  const PcSamplingWorkerStats s4 = pc_sampling_worker_stats();
  EXPECT_EQ(s4.from_ready, s0.from_ready + 3);
  EXPECT_EQ(s4.started, s0.started + 7);
}

TEST(PcSamplingReadyWorker, TheWarmUpSwitchTurnsItOffAndAMissingCliIsNoError) {
  setenv("WS_NO_METRICS_WARMUP", "1", 1);
  setenv("WARPSCOPE_CLI", WS_SYNTHETIC_KERNEL_WORKER, 1);
  const PcSamplingWorkerStats s0 = pc_sampling_worker_stats();
  prepare_pc_sampling_worker();
  EXPECT_EQ(pc_sampling_worker_stats().started, s0.started);
  unsetenv("WS_NO_METRICS_WARMUP");
  setenv("WARPSCOPE_CLI", "/nonexistent/warpscope-cli", 1);
  prepare_pc_sampling_worker();  // nothing to start: no throw, and the request says why it did not sample
  RunResult r;
  sample_pcs_in_fresh_worker(pc_request(), r);
  ASSERT_FALSE(r.metrics.warnings.empty());
  EXPECT_NE(r.metrics.warnings.front().find("PC sampling: not collected"), std::string::npos)
      << r.metrics.warnings.front();
  release_pc_sampling_worker();
  unsetenv("WARPSCOPE_CLI");
}
