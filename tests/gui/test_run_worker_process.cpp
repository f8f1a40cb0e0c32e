// The GUI's RunWorker with GPU work in a worker process (warpscope-cli worker in test mode, its "cuda"
// backend played by the sim model): a run that crashes its worker is marked faulted, a fresh worker
// takes the next run, sim runs stay in-process, and the snapshot says which worker runs and why it
// restarted.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "collective/allreduce_sim.hpp"
#include "collective/link_model.hpp"
#include "run_worker.hpp"

using namespace ws;
using namespace ws::controller;
using namespace std::chrono_literals;

namespace {

WorkerClientOptions test_worker() {
  WorkerClientOptions o;
  o.env = {{"WARPSCOPE_WORKER_TEST", "1"}, {"WARPSCOPE_WORKER_TEST_SIM_AS_CUDA", "1"}};
  o.connect_timeout_s = 20;
  return o;
}

RunRequest req(const std::string& variant, BackendKind backend) {
  RunRequest r;
  r.variant = variant;
  r.n = 4096;
  r.backend = backend;
  return r;
}

}  // namespace

TEST(WorkerProcess, FaultCostsOneRunAndTheQueueGoesOn) {
  RunWorker w(WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}, test_worker());
  ASSERT_TRUE(w.wait_opened(20s));
  RunWorker::Snapshot first = w.take();
  EXPECT_EQ(first.backend_name, "cuda") << first.open_error;
  EXPECT_NE(first.worker.find("(local)"), std::string::npos) << first.worker;
  w.submit({req("epita.reduce3", BackendKind::Cuda), req("__test_crash", BackendKind::Cuda),
            req("harris.impl6", BackendKind::Cuda), req("epita.reduce3", BackendKind::Sim)});
  std::vector<RunResult> done;
  RunWorker::Snapshot snap;
  const auto end = std::chrono::steady_clock::now() + 30s;
  while (done.size() < 4 && std::chrono::steady_clock::now() < end) {
    snap = w.take();
    for (auto& r : snap.finished) done.push_back(r);
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(done.size(), 4u);
  EXPECT_EQ(done[0].status, RunStatus::Ok) << done[0].message;
  EXPECT_EQ(done[1].status, RunStatus::Faulted);
  EXPECT_NE(done[1].message.find("died from signal 11"), std::string::npos) << done[1].message;
  EXPECT_EQ(done[2].status, RunStatus::Ok) << done[2].message;  // in the fresh worker
  EXPECT_EQ(done[2].result, done[2].expected);
  EXPECT_EQ(done[3].status, RunStatus::Ok);
  EXPECT_EQ(done[3].backend, BackendKind::Sim);
  EXPECT_EQ(snap.worker_restarts, 1);
  EXPECT_NE(snap.worker_fault.find("signal 11"), std::string::npos) << snap.worker_fault;
  EXPECT_NE(snap.worker, first.worker);  // another process
}

TEST(WorkerProcess, LiveAndSweepGoThroughTheWorker) {
  RunWorker w(WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}, test_worker());
  ASSERT_TRUE(w.wait_opened(20s));
  SweepSpec spec;
  spec.variants = {"epita.reduce3"};
  spec.from_log2 = 8;
  spec.to_log2 = 10;
  spec.backend = BackendKind::Cuda;
  ASSERT_TRUE(w.submit_sweep(spec));
  std::vector<Sweep> sweeps;
  const auto end = std::chrono::steady_clock::now() + 30s;
  while (sweeps.empty() && std::chrono::steady_clock::now() < end) {
    for (auto& s : w.take().sweeps_finished) sweeps.push_back(s);
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(sweeps.size(), 1u);
  EXPECT_EQ(sweeps[0].runs.size(), 3u);
  EXPECT_FALSE(sweeps[0].cancelled);
  // Live: the sim model is untimed, so the batch comes back with results but no launch times, and
  // Live stops rather than spin (as in-process Live does on an untimed backend).
  w.set_live({req("epita.reduce3", BackendKind::Cuda)});
  std::vector<RunResult> live;
  bool stopped = false;
  const auto end2 = std::chrono::steady_clock::now() + 30s;
  while (!stopped && std::chrono::steady_clock::now() < end2) {
    RunWorker::Snapshot s = w.take();
    for (auto& r : s.live_results) live.push_back(r);
    stopped = !s.live && !live.empty();
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_FALSE(live.empty());
  EXPECT_EQ(live[0].status, RunStatus::Ok) << live[0].message;
  EXPECT_TRUE(stopped);
}

// The soak's sim mode (scripts/device-soak.sh): a test worker whose runs carry the model's host time as
// launch times (WARPSCOPE_WORKER_TEST_SIM_TIMED), so Live keeps running and plots points without a GPU.
TEST(WorkerProcess, TimedTestWorkerKeepsLiveRunning) {
  WorkerClientOptions o = test_worker();
  o.env.push_back({"WARPSCOPE_WORKER_TEST_SIM_TIMED", "1"});
  RunWorker w(WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}, o);
  ASSERT_TRUE(w.wait_opened(20s));
  w.set_live({req("epita.reduce3", BackendKind::Cuda), req("harris.impl6", BackendKind::Cuda)});
  std::vector<LivePoint> points;
  std::vector<RunResult> runs;
  const auto end = std::chrono::steady_clock::now() + 30s;
  bool still_live = false;
  while (points.size() < 40 && std::chrono::steady_clock::now() < end) {
    RunWorker::Snapshot s = w.take();
    points.insert(points.end(), s.live_points.begin(), s.live_points.end());
    for (auto& r : s.live_results) runs.push_back(r);
    still_live = s.live;
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_GE(points.size(), 40u);
  EXPECT_TRUE(still_live);
  bool both = false;
  for (const LivePoint& p : points) {
    EXPECT_GT(p.ms, 0.0) << p.variant;
    both |= p.variant == "harris.impl6";
  }
  EXPECT_TRUE(both) << "every live request plots";
  for (const RunResult& r : runs) EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  w.set_live({});
}

// The All-reduce tab's asks (submit_allreduce): a cuda one goes to the worker, which answers for its machine's
// GPUs (here, without two GPUs, a result that did not run and says why; with two or more, a correct one); a sim
// one runs here and equals the model.
TEST(WorkerProcess, AllReducesGoToTheWorkerAndSimOnesRunHere) {
  RunWorker w(WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}, test_worker());
  ASSERT_TRUE(w.wait_opened(20s));
  AllReduceAsk gpu;
  gpu.run.method = collective::Method::Ring;
  gpu.run.gpus = 2;
  gpu.run.length = 4096;
  gpu.run.warmup = 0;
  gpu.run.repeats = 1;
  gpu.backend = BackendKind::Cuda;
  AllReduceAsk sim = gpu;
  sim.backend = BackendKind::Sim;
  sim.run.gpus = 4;
  w.submit_allreduce({gpu, sim});
  std::vector<AllReduceDone> done;
  RunWorker::Snapshot snap;
  const auto end = std::chrono::steady_clock::now() + 30s;
  while (done.size() < 2 && std::chrono::steady_clock::now() < end) {
    snap = w.take();
    for (auto& d : snap.allreduces) done.push_back(d);
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[0].error, "") << "the worker answers";
  EXPECT_EQ(done[0].ask.backend, BackendKind::Cuda);
  EXPECT_EQ(done[0].result.method, collective::Method::Ring);
  if (done[0].visible_gpus >= 2) {
    EXPECT_TRUE(done[0].result.ran && done[0].result.correct) << done[0].result.error << done[0].result.detail;
  } else {
    EXPECT_FALSE(done[0].result.ran);
    EXPECT_FALSE(done[0].result.error.empty()) << "a result that did not run says why";
    EXPECT_EQ(done[0].result.error.find('\n'), std::string::npos) << "one line";
  }
  const collective::AllReduceResult model = collective::simulate_allreduce(sim.run, collective::nvlink4_model());
  EXPECT_EQ(done[1].error, "");
  EXPECT_TRUE(done[1].result.simulated);
  EXPECT_TRUE(done[1].result.correct);
  EXPECT_EQ(done[1].result.gpus, 4);
  EXPECT_DOUBLE_EQ(done[1].result.median_ms, model.median_ms);
  EXPECT_EQ(done[1].result.step_ms, model.step_ms);
  EXPECT_FALSE(snap.busy);
}
