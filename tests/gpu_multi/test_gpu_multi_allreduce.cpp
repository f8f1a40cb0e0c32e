// GPU tests of the lesson "Reduction across GPUs" (issue 30; ctest label gpu-multi: a machine with two or
// more GPUs, never CI): every method of run_allreduce_on_gpus on 2 GPUs (and on 4 where the machine has
// them; fewer: skipped, saying why) is correct on awkward lengths; the hand-written ring's and tree's step
// times follow collective::make_schedule step for step; the host run of the same schedule
// (collective::apply_schedule) gives exactly the reference the GPUs are checked against; bandwidths follow
// from the median time as schedule.hpp defines them; the ring sent to a local worker (`warpscope-cli worker`,
// the "allreduce" request) runs on the worker's GPUs and answers what the in-process run answers; the GUI's
// RunWorker sends the All-reduce tab's four methods there and gets them back run, or refused in one line on a
// machine with one GPU (that case runs on one GPU too).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "collective/allreduce_json.hpp"
#include "collective/allreduce_run.hpp"
#include "collective/schedule.hpp"
#ifdef WS_WITH_CONTROLLER
#include "run_worker.hpp"
#endif
#include "worker_client.hpp"
#include "worker_protocol.hpp"

using namespace ws::collective;

namespace {

/// Skips the calling test when the machine shows fewer than `gpus` GPUs.
#define WS_NEED_GPUS(gpus)                                                           \
  do {                                                                               \
    const int visible_ = visible_gpu_count();                                        \
    if (visible_ < (gpus))                                                           \
      GTEST_SKIP() << "needs " << (gpus) << " GPUs; this machine shows " << visible_ \
                   << " (run on the multi-GPU machine: scripts/device-multi.sh)";    \
  } while (0)

AllReduceResult run(Method m, int gpus, std::int64_t length, int warmup = 1, int repeats = 3) {
  AllReduceRequest r;
  r.method = m;
  r.gpus = gpus;
  r.length = length;
  r.warmup = warmup;
  r.repeats = repeats;
  return run_allreduce_on_gpus(r);
}

bool is_nccl(Method m) { return m == Method::NcclRing || m == Method::NcclTree; }

/// The element-wise sum over GPUs of input_value, as the runs check it.
std::vector<float> reference(int gpus, std::int64_t length) {
  std::vector<float> ref(std::size_t(length), 0.0f);
  for (int g = 0; g < gpus; ++g)
    for (std::int64_t i = 0; i < length; ++i) ref[std::size_t(i)] += float(input_value(g, i));
  return ref;
}

class EveryMethod : public ::testing::TestWithParam<std::tuple<Method, int>> {};

TEST_P(EveryMethod, CorrectOnAwkwardLengths) {
  const auto [method, gpus] = GetParam();
  WS_NEED_GPUS(gpus);
  // One element (chunks of the ring empty on all but one GPU), not a multiple of the GPUs or of 4 floats,
  // and a few MiB.
  for (std::int64_t length :
       {std::int64_t(1), std::int64_t(1000), std::int64_t(3) * 1024 + 7, (std::int64_t(1) << 20) + 37}) {
    SCOPED_TRACE("length " + std::to_string(length));
    const AllReduceResult r = run(method, gpus, length);
    if (is_nccl(method) && !r.ran && r.error.find("NCCL") != std::string::npos) GTEST_SKIP() << r.error;
    ASSERT_TRUE(r.ran) << r.error;
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(r.correct) << r.detail;
    EXPECT_FALSE(r.simulated);
    EXPECT_EQ(r.method, method);
    EXPECT_EQ(r.gpus, gpus);
    EXPECT_EQ(r.length, length);
    EXPECT_EQ(int(r.device_names.size()), gpus);
    EXPECT_GT(r.median_ms, 0.0);
    // Bandwidths from the median over length * 4 bytes (nccl-tests' definitions, schedule.hpp).
    const std::int64_t bytes = length * 4;
    EXPECT_DOUBLE_EQ(r.algbw_gbs, algorithm_bandwidth_gbs(bytes, r.median_ms));
    EXPECT_DOUBLE_EQ(r.busbw_gbs, bus_bandwidth_gbs(bytes, r.median_ms, gpus));
    EXPECT_NEAR(r.busbw_gbs, r.algbw_gbs * 2.0 * (gpus - 1) / gpus, 1e-9 * r.algbw_gbs);
    EXPECT_GT(r.peer_gbs, 0.0);
    EXPECT_FALSE(r.link.empty());
    if (method == Method::Ring || method == Method::Tree) {
      const Schedule s = make_schedule(method == Method::Ring ? Algorithm::Ring : Algorithm::Tree, gpus);
      ASSERT_EQ(r.step_ms.size(), s.steps.size());
      for (double ms : r.step_ms) EXPECT_GE(ms, 0.0);
      // The steps split each repeat's time (start, barriers, stop): their medians add up to about the median.
      const double sum = std::accumulate(r.step_ms.begin(), r.step_ms.end(), 0.0);
      EXPECT_NEAR(sum, r.median_ms, 0.25 * r.median_ms + 0.05);
    } else {
      EXPECT_TRUE(r.step_ms.empty());
    }
  }
}

std::string method_name(const ::testing::TestParamInfo<std::tuple<Method, int>>& p) {
  return std::string(to_string(std::get<0>(p.param))) + "_" + std::to_string(std::get<1>(p.param)) + "gpus";
}

INSTANTIATE_TEST_SUITE_P(GpuMulti, EveryMethod,
                         ::testing::Combine(::testing::Values(Method::HostAdd, Method::PeerToGpu0, Method::Ring,
                                                              Method::Tree, Method::NcclRing, Method::NcclTree),
                                            ::testing::Values(2, 4)),
                         method_name);

// The reference the GPU runs are checked against is exactly what the schedule's host run computes (the sim's
// pictures): so a correct GPU ring or tree ends with the host run's vectors, bit for bit.
TEST(GpuMultiAllReduce, HostScheduleRunEqualsTheReference) {
  for (int gpus : {2, 4})
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree})
      for (std::int64_t length : {std::int64_t(1000), (std::int64_t(1) << 20) + 37}) {
        const Schedule s = make_schedule(a, gpus);
        std::vector<std::vector<float>> buffers(static_cast<std::size_t>(gpus),
                                                std::vector<float>(static_cast<std::size_t>(length)));
        for (int g = 0; g < gpus; ++g)
          for (std::int64_t i = 0; i < length; ++i) buffers[std::size_t(g)][std::size_t(i)] = float(input_value(g, i));
        apply_schedule(s, buffers);
        const std::vector<float> ref = reference(gpus, length);
        for (int g = 0; g < gpus; ++g) EXPECT_EQ(buffers[std::size_t(g)], ref) << to_string(a) << ", GPU " << g;
      }
}

// The lesson's default size, 256 MiB per GPU, on every visible GPU: the ring runs correct and its steps
// take about equal times (each moves one chunk of the same size).
TEST(GpuMultiAllReduce, RingAt256MiBOnEveryVisibleGpu) {
  WS_NEED_GPUS(2);
  const AllReduceResult r = run(Method::Ring, 0, std::int64_t(1) << 26, 2, 5);
  ASSERT_TRUE(r.ran) << r.error;
  EXPECT_TRUE(r.correct) << r.detail;
  EXPECT_EQ(r.gpus, std::min(visible_gpu_count(), kMaxGpus));
  EXPECT_GT(r.busbw_gbs, 0.0);
  std::printf("ring, %d GPUs, 256 MiB: %.3f ms, bus %.1f GB/s, peer copy %.1f GB/s, link %s (%.0f GB/s)\n", r.gpus,
              r.median_ms, r.busbw_gbs, r.peer_gbs, r.link.c_str(), r.link_gbs);
}

TEST(GpuMultiAllReduce, HostAddRunsOnOneGpu) {
  WS_NEED_GPUS(1);
  const AllReduceResult r = run(Method::HostAdd, 1, 12345);
  ASSERT_TRUE(r.ran) << r.error;
  EXPECT_TRUE(r.correct) << r.detail;
  EXPECT_EQ(r.busbw_gbs, 0.0);  // nothing crosses a link
  EXPECT_EQ(r.peer_gbs, 0.0);
}

TEST(GpuMultiAllReduce, RefusesWhatTheMachineCannotRun) {
  WS_NEED_GPUS(1);
  const int visible = visible_gpu_count();
  if (visible < kMaxGpus) {
    const AllReduceResult r = run(Method::Ring, visible + 1, 1024);
    EXPECT_FALSE(r.ran);
    EXPECT_NE(r.error.find("asks for " + std::to_string(visible + 1) + " GPUs"), std::string::npos) << r.error;
  }
  const AllReduceResult one = run(Method::Ring, 1, 1024);
  EXPECT_FALSE(one.ran);
  EXPECT_NE(one.error.find("at least 2 GPUs"), std::string::npos) << one.error;
  const AllReduceResult empty = run(Method::Tree, 0, 0);
  EXPECT_FALSE(empty.ran);
  EXPECT_NE(empty.error.find("length"), std::string::npos) << empty.error;
}

}  // namespace

// The ring through a local worker (the "allreduce" request, as `allreduce --gpu local` sends it): the worker
// runs it on every GPU it sees, correct, and its result's fields equal the in-process run's (times aside: each
// run measures its own). A single-GPU run request after it still runs in the same worker (on its device).
TEST(GpuMultiAllReduce, RingThroughALocalWorkerEqualsTheInProcessRun) {
  WS_NEED_GPUS(2);
  const int visible = visible_gpu_count();
  const int gpus = std::min(visible, kMaxGpus);
  const std::int64_t length = (std::int64_t(1) << 20) + 37;
  ws::WorkerClientOptions o;
  o.connect_timeout_s = 60;
  ws::WorkerClient worker(ws::WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}, o);
  ASSERT_EQ(worker.start(), "");
  ASSERT_TRUE(worker.offers("allreduce"));
  ws::AllReduceAsk ask;
  ask.run.method = Method::Ring;
  ask.run.gpus = 0;  // every GPU the worker sees
  ask.run.length = length;
  ask.run.warmup = 1;
  ask.run.repeats = 3;
  ask.backend = ws::BackendKind::Cuda;
  AllReduceResult far;
  int far_visible = 0;
  const ws::WorkerReply reply = worker.allreduce(ask, far, far_visible);
  ASSERT_TRUE(reply.ok()) << reply.text;
  EXPECT_EQ(far_visible, visible);
  ASSERT_TRUE(far.ran) << far.error;
  EXPECT_TRUE(far.correct) << far.detail;
  EXPECT_FALSE(far.simulated);
  EXPECT_GT(far.median_ms, 0.0);
  EXPECT_GT(far.busbw_gbs, 0.0);

  const AllReduceResult here = run(Method::Ring, gpus, length);
  ASSERT_TRUE(here.ran) << here.error;
  EXPECT_EQ(far.method, here.method);
  EXPECT_EQ(far.gpus, here.gpus);
  EXPECT_EQ(far.length, here.length);
  EXPECT_EQ(far.correct, here.correct);
  EXPECT_EQ(far.simulated, here.simulated);
  EXPECT_EQ(far.error, here.error);
  EXPECT_EQ(far.detail, here.detail);
  EXPECT_EQ(far.step_ms.size(), here.step_ms.size());
  EXPECT_EQ(far.link, here.link);
  EXPECT_DOUBLE_EQ(far.link_gbs, here.link_gbs);
  EXPECT_EQ(far.device_names, here.device_names);
  // The answer is the file's result object: it reads back as one.
  EXPECT_NO_THROW(allreduce_result_from_json(allreduce_result_to_json(far)));

  ws::RunRequest single;
  single.variant = "epita.reduce3";
  single.n = 1 << 20;
  single.backend = ws::BackendKind::Cuda;
  const ws::RunResult after = worker.run(single);
  EXPECT_EQ(after.status, ws::RunStatus::Ok) << after.message;
  EXPECT_EQ(after.device, worker.hello().device.name);
  EXPECT_EQ(worker.restarts(), 0);
}

#ifdef WS_WITH_CONTROLLER
// The GUI's path (app/controller/run_worker: submit_allreduce, as the All-reduce tab's "Run on the GPUs" asks):
// the tab's four methods on 2 GPUs through a local worker, whose hello says how many GPUs it sees. With two or
// more: every method ran, correct, with one step time per step for the ring and the tree. With one GPU: each
// comes back not run, with one line naming the GPUs asked for and seen.
TEST(GpuMultiAllReduce, TheGuisRunWorkerRunsTheTabsFourMethodsOrSaysWhy) {
  const int visible = visible_gpu_count();
  if (visible < 1) GTEST_SKIP() << "no GPU";
  ws::WorkerClientOptions o;
  o.connect_timeout_s = 60;
  ws::controller::RunWorker w(ws::WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}, o);
  ASSERT_TRUE(w.wait_opened(std::chrono::seconds(90)));
  ws::controller::RunWorker::Snapshot snap = w.take();
  ASSERT_TRUE(snap.device.available) << snap.open_error;
  EXPECT_EQ(snap.visible_gpus, visible) << "the worker's hello counts the GPUs";
  std::vector<ws::AllReduceAsk> asks;
  for (Method m : {Method::Ring, Method::Tree, Method::NcclRing, Method::NcclTree}) {
    ws::AllReduceAsk a;
    a.run.method = m;
    a.run.gpus = 2;
    a.run.length = (std::int64_t(1) << 20) + 37;
    a.run.warmup = 1;
    a.run.repeats = 3;
    a.backend = ws::BackendKind::Cuda;
    asks.push_back(a);
  }
  w.submit_allreduce(asks);
  std::vector<ws::controller::AllReduceDone> done;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (done.size() < asks.size() && std::chrono::steady_clock::now() < end) {
    snap = w.take();
    for (auto& d : snap.allreduces) done.push_back(d);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(done.size(), asks.size());
  for (std::size_t i = 0; i < done.size(); ++i) {
    const AllReduceResult& r = done[i].result;
    SCOPED_TRACE(to_string(asks[i].run.method));
    EXPECT_EQ(done[i].error, "") << "the worker answered";
    EXPECT_EQ(done[i].visible_gpus, visible);
    EXPECT_EQ(r.method, asks[i].run.method);
    if (visible >= 2) {
      ASSERT_TRUE(r.ran) << r.error;
      EXPECT_TRUE(r.correct) << r.detail;
      EXPECT_FALSE(r.simulated);
      EXPECT_GT(r.median_ms, 0.0);
      if (r.method == Method::Ring || r.method == Method::Tree)
        EXPECT_EQ(r.step_ms.size(),
                  make_schedule(r.method == Method::Ring ? Algorithm::Ring : Algorithm::Tree, 2).steps.size());
      std::printf("GUI path, %s on 2 GPUs, %lld floats: %.3f ms, bus %.1f GB/s\n", to_string(r.method),
                  (long long)r.length, r.median_ms, r.busbw_gbs);
    } else {
      EXPECT_FALSE(r.ran);
      EXPECT_NE(r.error.find("this machine shows " + std::to_string(visible)), std::string::npos) << r.error;
      EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
      std::printf("GUI path on one GPU, %s: %s\n", to_string(r.method), r.error.c_str());
    }
  }
}
#endif  // WS_WITH_CONTROLLER
