// Faults on the GPU cost one request: a worker (ws_gpu_fault_worker: warpscope-cli's worker loop plus
// test-only fault kernels) is driven through an illegal address, a trap, an endless kernel and an
// allocation larger than the device; after each, epita.reduce3 runs (checked) in the fresh worker, and
// the time from the fault's answer to that checked result is printed.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "worker_client.hpp"

using namespace ws;

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

RunRequest reduce3() {
  RunRequest r;
  r.variant = "epita.reduce3";
  r.n = 1 << 24;
  r.backend = BackendKind::Cuda;
  return r;
}

void expect_checked_reduce3(WorkerClient& c) {
  const RunResult r = c.run(reduce3());
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.backend, BackendKind::Cuda);
  EXPECT_TRUE(r.timed);
  EXPECT_EQ(r.result, r.expected);
}

/// `then`: "" = the fault kernel answers for itself; a variant = it runs right after the fault kernel
/// without waiting, so the worker's CUDA backend meets the lost context.
void fault_then_recover(const std::string& kind, const std::string& then, const std::string& reason,
                        double watchdog_s = 0) {
  WorkerClientOptions o;
  if (watchdog_s > 0) o.watchdog_s = watchdog_s;
  WorkerClient c(WorkerLaunch{{WS_GPU_FAULT_WORKER, "worker"}, "local"}, o);
  ASSERT_EQ(c.start(), "");
  ASSERT_TRUE(c.hello().device.available) << c.hello().device.error;
  expect_checked_reduce3(c);
  const long first = c.hello().pid;
  nlohmann::json body = {{"kind", kind}};
  if (!then.empty()) body["then"] = then;
  const auto asked = std::chrono::steady_clock::now();
  const WorkerReply f = c.call("__fault", body, 1);
  const double to_answer = since(asked);
  EXPECT_EQ(f.kind, WorkerReply::Kind::Faulted) << kind << ": " << f.text;
  EXPECT_NE(f.text.find(reason), std::string::npos) << kind << ": " << f.text;
  const auto t0 = std::chrono::steady_clock::now();
  expect_checked_reduce3(c);
  const double recovery = since(t0);
  EXPECT_NE(c.hello().pid, first);
  EXPECT_EQ(c.restarts(), 1);
  std::printf("[ fault    ] %s%s: '%s' after %.2f s; checked epita.reduce3 in a fresh worker %.2f s after the fault\n",
              kind.c_str(), then.empty() ? "" : (" then " + then).c_str(), f.text.c_str(), to_answer, recovery);
}

}  // namespace

TEST(GpuWorkerFaults, IllegalAddress) { fault_then_recover("oob_write", "", "illegal memory access"); }

TEST(GpuWorkerFaults, IllegalAddressMetByTheBackend) {
  fault_then_recover("oob_write", "epita.reduce3", "the CUDA context was lost");
}

TEST(GpuWorkerFaults, Trap) { fault_then_recover("trap", "", ""); }

TEST(GpuWorkerFaults, EndlessKernelIsKilledByTheWatchdog) {
  fault_then_recover("endless", "", "killed after 5 s without an answer", 5);
}

TEST(GpuWorkerFaults, AllocationLargerThanTheDeviceIsAnErrorNotAFault) {
  WorkerClient c(WorkerLaunch{{WS_GPU_FAULT_WORKER, "worker"}, "local"});
  ASSERT_EQ(c.start(), "");
  const long pid = c.hello().pid;
  const WorkerReply f = c.call("__fault", {{"kind", "huge_alloc"}}, 1);
  EXPECT_EQ(f.kind, WorkerReply::Kind::Error) << f.text;
  EXPECT_NE(f.text.find("out of memory"), std::string::npos) << f.text;
  expect_checked_reduce3(c);  // the same worker goes on
  EXPECT_EQ(c.hello().pid, pid);
  EXPECT_EQ(c.restarts(), 0);
}

TEST(GpuWorker, CliWorkerRunsOnTheGpu) {
  WorkerClient c(WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"});
  ASSERT_EQ(c.start(), "");
  ASSERT_TRUE(c.hello().device.available) << c.hello().device.error;
  EXPECT_NE(std::find(c.hello().backends.begin(), c.hello().backends.end(), BackendKind::Cuda),
            c.hello().backends.end());
  expect_checked_reduce3(c);
  std::printf("[ worker   ] %s on %s\n", c.hello().device.name.c_str(), c.hello().host.c_str());
}
