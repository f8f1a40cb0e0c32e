// The GUI's Live through a worker process (batches in flight, live_pipeline.hpp) against Live in
// this process, both on the synthetic fake backend (made-up times: plumbing, not measurements): the
// same points, a run queued meanwhile goes first, and switching Live off ends it.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "run_worker.hpp"
#include "synthetic_backend.hpp"

namespace {

using namespace ws;
using namespace ws::controller;
using namespace std::chrono_literals;

std::vector<RunRequest> live_requests() {
  RunRequest a;
  a.variant = "epita.reduce3";
  a.n = 1 << 12;
  a.repeat = 4;
  a.backend = BackendKind::Cuda;
  RunRequest b = a;
  b.variant = "harris.impl7";
  return {a, b};
}

/// Live's points of `w` until each variant has at least `want`, in order.
std::vector<LivePoint> collect(RunWorker& w, std::size_t want, LiveData& live) {
  std::vector<LivePoint> all;
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < end) {
    RunWorker::Snapshot s = w.take();
    live.add(s.live_points);
    for (const auto& r : s.live_results) live.add_result(r);
    all.insert(all.end(), s.live_points.begin(), s.live_points.end());
    if (live.series.size() == 2 && live.series.begin()->second.total() >= std::int64_t(want) &&
        std::next(live.series.begin())->second.total() >= std::int64_t(want))
      break;
    std::this_thread::sleep_for(2ms);
  }
  return all;
}

TEST(WorkerProcess, LiveThroughAWorkerShowsWhatInProcessLiveShows) {
  WorkerClientOptions o;
  o.connect_timeout_s = 20;
  RunWorker far(WorkerLaunch{{WS_SYNTHETIC_WORKER}, "local"}, o);
  RunWorker here([](std::string&) -> std::unique_ptr<Backend> { return std::make_unique<test::SyntheticBackend>(); });
  ASSERT_TRUE(far.wait_opened(20s));
  ASSERT_TRUE(here.wait_opened(5s));
  EXPECT_EQ(far.take().backend_name, "cuda");
  far.set_live(live_requests());
  here.set_live(live_requests());
  LiveData far_live, here_live;
  const std::vector<LivePoint> a = collect(far, 400, far_live), b = collect(here, 400, here_live);
  ASSERT_EQ(far_live.series.size(), 2u);
  for (const auto& [id, s] : far_live.series) {
    ASSERT_GE(s.total(), 400) << id;
    const LiveSeries& t = here_live.series.at(id);
    ASSERT_GE(t.total(), 400) << id;
    for (std::size_t i = 0; i < 400; ++i) {  // launch numbers, times and GB/s as in-process Live gives them
      EXPECT_EQ(s.launches()[i], double(i)) << id;
      EXPECT_EQ(s.launches()[i], t.launches()[i]) << id;
      EXPECT_EQ(s.ms()[i], t.ms()[i]) << id << " launch " << i;
      EXPECT_EQ(s.gbps()[i], t.gbps()[i]) << id << " launch " << i;
    }
    EXPECT_EQ(far_live.latest.at(id).status, RunStatus::Ok);
    EXPECT_EQ(far_live.latest.at(id).result, here_live.latest.at(id).result);
  }
  // A run queued while Live runs goes first (the batch in flight is cancelled), and Live goes on.
  RunRequest one = live_requests()[0];
  one.repeat = 2;
  const auto t0 = std::chrono::steady_clock::now();
  far.submit({one});
  std::vector<RunResult> done;
  while (done.empty() && std::chrono::steady_clock::now() - t0 < 10s) {
    for (auto& r : far.take().finished) done.push_back(r);
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].status, RunStatus::Ok) << done[0].message;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 1.0);
  const std::int64_t before = far_live.series.at("epita.reduce3").total();
  collect(far, std::size_t(before) + 100, far_live);
  EXPECT_GE(far_live.series.at("epita.reduce3").total(), before + 100);
  // Off: nothing more arrives once the batches in flight are gone.
  far.set_live({});
  std::this_thread::sleep_for(200ms);
  far.take();
  std::this_thread::sleep_for(100ms);
  const RunWorker::Snapshot off = far.take();
  EXPECT_FALSE(off.live);
  EXPECT_TRUE(off.live_points.empty());
  here.stop();
  far.stop();
}

}  // namespace
