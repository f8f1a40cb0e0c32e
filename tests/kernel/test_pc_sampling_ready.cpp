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
  setenv("SYNTH_PCS_FULL_FROM_N", "16777216", 1);  // the workers started from here inherit it
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

  // A run timed over warm launches too long for the ready worker's buffer gets a worker of its own with
  // CUPTI's default buffer; the ready one stays for the next run.
  RunResult long_run = timed_run(2.5);
  sample_pcs_in_fresh_worker(pc_request(), long_run);
  EXPECT_TRUE(says_fresh_worker(long_run));
  EXPECT_TRUE(sampled_with_buffer(long_run, 512));
  EXPECT_EQ(pc_sampling_worker_stats().from_ready, s0.from_ready + 2);
  EXPECT_EQ(pc_sampling_worker_stats().started, s0.started + 4);
  // A run of unknown length, and one timed by a single cold launch (its module's first load in it), are
  // tried in the ready worker.
  RunRequest cold = pc_request();
  cold.repeat = 1;
  cold.warmup = 0;
  RunResult cold_run = timed_run(1.6);
  cold_run.timing.samples_ms = {1.6};
  for (auto [req, r] : {std::pair{pc_request(), RunResult{}}, std::pair{cold, cold_run}}) {
    sample_pcs_in_fresh_worker(req, r);
    EXPECT_TRUE(says_fresh_worker(r));
    EXPECT_TRUE(sampled_with_buffer(r, 32));
  }
  EXPECT_EQ(pc_sampling_worker_stats().from_ready, s0.from_ready + 4);
  EXPECT_EQ(pc_sampling_worker_stats().started, s0.started + 6);
  // Its samples did not fit in 32 MiB (SYNTH_PCS_FULL_FROM_N): sampled again with 512, and said so.
  RunRequest big = cold;
  big.n = 1 << 24;
  RunResult big_run = cold_run;
  sample_pcs_in_fresh_worker(big, big_run);
  EXPECT_TRUE(sampled_with_buffer(big_run, 512));
  EXPECT_FALSE(sampled_with_buffer(big_run, 32));  // the first answer's words are not kept
  EXPECT_FALSE(big_run.metrics.pc_sampling.hardware_buffer_full);
  const auto& w = big_run.metrics.warnings;
  EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const std::string& s) {
    return s.find("sampled again in a worker with a 512 MiB hardware buffer: the first worker's 32 MiB filled") !=
           std::string::npos;
  }));
  const PcSamplingWorkerStats s3b = pc_sampling_worker_stats();
  EXPECT_EQ(s3b.from_ready, s0.from_ready + 5);
  EXPECT_EQ(s3b.started, s0.started + 8);  // the next ready one, and the one with 512 MiB
  RunResult r2b = timed_run(0.3);
  sample_pcs_in_fresh_worker(pc_request(), r2b);
  EXPECT_EQ(pc_sampling_worker_stats().from_ready, s0.from_ready + 6);
  EXPECT_TRUE(sampled_with_buffer(r2b, 32));
  wait_for_stopping_pc_sampling_workers();  // the used ones are gone: a metrics pass here may start

  // Released: the kept worker stops, and a request starts its own worker, as without prepare.
  release_pc_sampling_worker();
  RunResult r3 = timed_run(0.05);
  sample_pcs_in_fresh_worker(pc_request(), r3);
  EXPECT_TRUE(says_fresh_worker(r3));
  EXPECT_TRUE(sampled_with_buffer(r3, 32));  // started for it, a short run's buffer
  const PcSamplingWorkerStats s4 = pc_sampling_worker_stats();
  EXPECT_EQ(s4.from_ready, s0.from_ready + 6);
  EXPECT_EQ(s4.started, s0.started + 10);
  unsetenv("SYNTH_PCS_FULL_FROM_N");
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
