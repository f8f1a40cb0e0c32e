// The GUI's RunWorker (what `warpscope --gpu ssh:HOST|slurm:ARGS` starts) through the real sshd and
// Slurm of scripts/local-cluster.sh: the snapshot names the far worker, a run that crashes it is marked
// faulted, and the queue goes on in a fresh worker there. The far worker runs in test mode with its
// `cuda` backend played by the sim model (this machine has no GPU).
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "remote_env.hpp"
#include "run_worker.hpp"

using namespace ws;
using namespace ws::controller;
using namespace std::chrono_literals;

namespace {

const char* kTestEnv = "WARPSCOPE_WORKER_TEST=1 WARPSCOPE_WORKER_TEST_SIM_AS_CUDA=1";

RunRequest req(const std::string& variant) {
  RunRequest r;
  r.variant = variant;
  r.n = 4096;
  r.backend = BackendKind::Cuda;
  return r;
}

class GuiRemote : public ::testing::TestWithParam<std::string> {};

TEST_P(GuiRemote, FarWorkerFaultCostsOneRunAndTheQueueGoesOn) {
  set_remote_test_env(WS_CLI_PATH);
  WorkerLaunch launch;
  WorkerClientOptions o;
  o.connect_timeout_s = 30;
  if (GetParam() == "ssh") {
    // ssh passes no environment: it goes in front of the remote command, which a shell runs.
    ASSERT_EQ(parse_gpu_spec("ssh:localhost", WS_CLI_PATH, launch, std::string("env ") + kTestEnv + " " + WS_CLI_PATH),
              "");
  } else {
    // srun hands the client's environment to the job step (--export=ALL, Slurm's default).
    ASSERT_EQ(parse_gpu_spec("slurm:-N1 -n1", WS_CLI_PATH, launch, WS_CLI_PATH), "");
    o.env = {{"WARPSCOPE_WORKER_TEST", "1"}, {"WARPSCOPE_WORKER_TEST_SIM_AS_CUDA", "1"}};
  }
  RunWorker w(launch, o);
  ASSERT_TRUE(w.wait_opened(40s));
  const RunWorker::Snapshot first = w.take();
  ASSERT_EQ(first.backend_name, "cuda") << first.open_error << " " << first.worker;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  EXPECT_NE(first.worker.find(std::string(" on ") + host + " (" + GetParam() + ":"), std::string::npos) << first.worker;
  w.submit({req("epita.reduce3"), req("__test_crash"), req("harris.impl6")});
  std::vector<RunResult> done;
  RunWorker::Snapshot snap;
  const auto end = std::chrono::steady_clock::now() + 60s;
  while (done.size() < 3 && std::chrono::steady_clock::now() < end) {
    snap = w.take();
    for (auto& r : snap.finished) done.push_back(r);
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(done[0].status, RunStatus::Ok) << done[0].message;
  EXPECT_EQ(done[1].status, RunStatus::Faulted);
  EXPECT_EQ(done[1].message.find('\n'), std::string::npos) << done[1].message;
  std::printf("[ fault    ] %s: '%s'\n", launch.where.c_str(), done[1].message.c_str());
  EXPECT_EQ(done[2].status, RunStatus::Ok) << done[2].message;  // in the fresh far worker
  EXPECT_EQ(done[2].result, done[2].expected);
  EXPECT_EQ(snap.worker_restarts, 1);
  EXPECT_EQ(snap.worker_fault, done[1].message);
  EXPECT_NE(snap.worker, first.worker);  // another process on the far side
}

/// `warpscope --gpu ssh:HOST` where HOST has no GPU, or refuses the key: the GUI learns why (the window
/// shows it as an error message) and keeps simulation and replay.
TEST(GuiRemoteStart, NoGpuThereOrRefusedKeyIsOneLine) {
  set_remote_test_env(WS_CLI_PATH);
  struct Case {
    std::string spec, reason;
  };
  for (const Case& k : {Case{"ssh:localhost", "(ssh:localhost) has no CUDA device"},
                        Case{"ssh:nobody@localhost", "Permission denied (publickey"}}) {
    WorkerLaunch launch;
    ASSERT_EQ(parse_gpu_spec(k.spec, WS_CLI_PATH, launch), "");
    WorkerClientOptions o;
    o.connect_timeout_s = 20;
    RunWorker w(launch, o);
    ASSERT_TRUE(w.wait_opened(30s));
    const RunWorker::Snapshot snap = w.take();
    EXPECT_FALSE(snap.device.available);
    EXPECT_EQ(snap.worker_where, k.spec);
    EXPECT_NE(snap.open_error.find(k.reason), std::string::npos) << snap.open_error;
    EXPECT_EQ(snap.open_error.find('\n'), std::string::npos) << snap.open_error;
    // Sim runs still run, here.
    RunRequest r = req("epita.reduce3");
    r.backend = BackendKind::Sim;
    w.submit({r});
    std::vector<RunResult> done;
    const auto end = std::chrono::steady_clock::now() + 20s;
    while (done.empty() && std::chrono::steady_clock::now() < end) {
      for (auto& x : w.take().finished) done.push_back(x);
      std::this_thread::sleep_for(10ms);
    }
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].status, RunStatus::Ok) << done[0].message;
  }
}

INSTANTIATE_TEST_SUITE_P(Gpu, GuiRemote, ::testing::Values("ssh", "slurm"),
                         [](const auto& info) { return info.param; });

}  // namespace
