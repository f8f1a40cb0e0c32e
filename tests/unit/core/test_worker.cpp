// The worker protocol and its client, against the real `warpscope-cli worker` (sim backend) and its
// test-only requests (WARPSCOPE_WORKER_TEST=1): crashes, hangs, garbage and sticky errors cost one
// request, and the next one runs in a fresh worker.
#include <gtest/gtest.h>

#include <signal.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "live_pipeline.hpp"
#include "live_runner.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "request.hpp"
#include "worker_client.hpp"
#include "worker_protocol.hpp"

namespace ws {
namespace {

/// A run's JSON without its host times (wall-clock phases differ from run to run and process to process).
nlohmann::json without_host_times(const RunResult& r) {
  nlohmann::json j = run_to_json(r);
  j.erase("host_ms");
  return j;
}

WorkerLaunch local_worker() { return WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}; }

WorkerClientOptions test_options() {
  WorkerClientOptions o;
  o.env = {{"WARPSCOPE_WORKER_TEST", "1"}};
  o.connect_timeout_s = 20;
  return o;
}

RunRequest sim_request(const std::string& variant, std::int64_t n) {
  RunRequest r;
  r.variant = variant;
  r.n = n;
  r.backend = BackendKind::Sim;
  return r;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(WorkerProtocol, RequestRoundTrips) {
  RunRequest r;
  r.variant = "stevens.conv1d_tiled";
  r.n = 12345;
  r.launch = LaunchConfig{128, 77};
  r.repeat = 3;
  r.warmup = 1;
  r.type = DType::Float32;
  r.input = "sequence";
  r.seed = 42;
  r.backend = BackendKind::Sim;
  r.params.mask = "gauss";
  r.params.mask_width = 9;
  r.params.exclusive = true;
  r.params.keep_fraction = 0.25;
  r.metrics = "default";
  const RunRequest b = request_from_json(nlohmann::json::parse(request_to_json(r).dump()));
  EXPECT_EQ(request_to_json(b), request_to_json(r));
  EXPECT_EQ(b.launch.grid, 77);
  EXPECT_EQ(b.params.mask_width, 9);
  EXPECT_THROW(request_from_json(nlohmann::json{{"type", "int64"}}), std::runtime_error);
  EXPECT_THROW(request_from_json(nlohmann::json{{"n", "many"}}), std::runtime_error);
}

TEST(WorkerProtocol, WireRunKeepsOutputsLongerThanAReport) {
  RunResult r = execute(sim_request("stevens.kogge_stone", 1024), nullptr);
  ASSERT_EQ(r.status, RunStatus::Ok) << r.message;
  r.output.resize(kMaxJsonOutput + 10, 7);  // longer than a report stores
  EXPECT_FALSE(run_to_json(r).contains("output"));
  const RunResult back = run_from_wire(nlohmann::json::parse(run_to_wire(r).dump()));
  EXPECT_EQ(back.output, r.output);
  EXPECT_EQ(run_to_json(back), run_to_json(r));
}

// A worker's run carries its per-line memory counters to the GUI (the editor's margin draws them).
TEST(WorkerProtocol, WireRunKeepsPerLineMemoryCounters) {
  RunResult r;
  r.variant = "reduce_bank2.cu (your kernel)";
  r.status = RunStatus::Ok;
  r.metrics.asked = "lines";
  r.metrics.collected = true;
  LineMetrics l{"reduce_bank2.cu", 9, 8192, 8192 * 32};
  l.shared_stores = 8192;
  l.shared_wavefronts = 16384;
  l.global_loads = 10;
  l.global_sectors = 40;
  r.metrics.lines = {l};
  const RunResult back = run_from_wire(nlohmann::json::parse(run_to_wire(r).dump()));
  ASSERT_EQ(back.metrics.lines.size(), 1u);
  EXPECT_DOUBLE_EQ(back.metrics.lines[0].wavefronts_per_shared_instruction(), 2.0);
  EXPECT_DOUBLE_EQ(back.metrics.lines[0].sectors_per_request(), 4.0);
}

TEST(WorkerProtocol, HelloAndOneLine) {
  WorkerHello h;
  h.host = "gpu7";
  h.pid = 99;
  h.device.available = true;
  h.device.name = "NVIDIA H200";
  h.backends = {BackendKind::Sim, BackendKind::Cuda};
  h.capabilities = worker_request_types();
  const WorkerHello b = hello_from_json(hello_to_json(h));
  EXPECT_EQ(b.host, "gpu7");
  EXPECT_EQ(b.device.name, "NVIDIA H200");
  EXPECT_EQ(b.backends, h.backends);
  EXPECT_FALSE(b.device.context_lost);
  EXPECT_FALSE(hello_to_json(h)["device"].contains("context_lost")) << "written only when true";
  h.device.available = false;
  h.device.context_lost = true;
  h.device.error = "the CUDA context was lost when epita.reduce3 faulted (an illegal memory access)";
  EXPECT_TRUE(hello_from_json(hello_to_json(h)).device.context_lost);
  EXPECT_THROW(hello_from_json(nlohmann::json{{"type", "result"}}), std::runtime_error);
  EXPECT_EQ(one_line("first\nsecond"), "first");
  EXPECT_EQ(one_line(std::string(300, 'x'), 10), "xxxxxxxxxx...");
}

TEST(WorkerProtocol, GpuSpecs) {
  WorkerLaunch l;
  EXPECT_EQ(parse_gpu_spec("local", "/opt/ws/bin/warpscope-cli", l), "");
  EXPECT_EQ(l.argv, (std::vector<std::string>{"/opt/ws/bin/warpscope-cli", "worker"}));
  EXPECT_EQ(parse_gpu_spec("ssh:gpu.example.org", "x", l, "/opt/ws/bin/warpscope-cli"), "");
  EXPECT_EQ(l.argv.front(), "ssh");
  EXPECT_TRUE(contains(nlohmann::json(l.argv).dump(), "BatchMode=yes"));
  EXPECT_TRUE(contains(nlohmann::json(l.argv).dump(), "ConnectTimeout="));
  EXPECT_EQ(l.argv[l.argv.size() - 2], "/opt/ws/bin/warpscope-cli");
  EXPECT_EQ(parse_gpu_spec("slurm:--partition=gpu --gres=gpu:1", "x", l, "warpscope-cli"), "");
  EXPECT_EQ(l.argv, (std::vector<std::string>{"srun", "--unbuffered", "--partition=gpu", "--gres=gpu:1",
                                              "warpscope-cli", "worker"}));
  EXPECT_TRUE(contains(parse_gpu_spec("cluster", "x", l), "not local, ssh:HOST or slurm:ARGS"));
  EXPECT_TRUE(contains(parse_gpu_spec("ssh:", "x", l), "needs a host"));
  EXPECT_TRUE(contains(parse_gpu_spec("ssh:-oProxyCommand=x", "x", l), "needs a host"));
}

TEST(WorkerClient, HelloNamesTheMachineAndRunsEqualInProcessRuns) {
  WorkerClient c(local_worker(), test_options());
  ASSERT_EQ(c.start(), "");
  EXPECT_EQ(c.hello().protocol, kWorkerProtocolVersion);
  EXPECT_FALSE(c.hello().host.empty());
  EXPECT_GT(c.hello().pid, 0);
  EXPECT_NE(std::find(c.hello().backends.begin(), c.hello().backends.end(), BackendKind::Sim),
            c.hello().backends.end());
  for (const char* id :
       {"epita.reduce3", "stevens.brent_kung", "cs121.histogram_private", "stevens.conv1d_tiled", "epita.race"}) {
    const RunRequest req = sim_request(id, 1000);
    const RunResult local = execute(req, nullptr);
    const RunResult remote = c.run(req);
    EXPECT_EQ(remote.status, local.status) << id << ": " << remote.message;
    EXPECT_EQ(without_host_times(remote), without_host_times(local)) << id;
  }
  // A bad request is an ordinary error run, and the worker goes on.
  const long pid = c.hello().pid;
  const RunResult bad = c.run(sim_request("epita.nope", 1000));
  EXPECT_EQ(bad.status, RunStatus::Error);
  EXPECT_TRUE(contains(bad.message, "unknown variant")) << bad.message;
  const WorkerReply unknown = c.call("teleport", {}, 1);
  EXPECT_EQ(unknown.kind, WorkerReply::Kind::Error);
  EXPECT_TRUE(contains(unknown.text, "unknown request type 'teleport'")) << unknown.text;
  EXPECT_EQ(c.run(sim_request("epita.reduce3", 100)).status, RunStatus::Ok);
  EXPECT_EQ(c.hello().pid, pid);
  EXPECT_EQ(c.restarts(), 0);
}

/// Drives the worker into a fault with a test request, checks the one-line reason, then checks that
/// the next request runs (correctly) in a fresh worker and that the old process group is gone.
void expect_fault_then_recovery(const std::string& hook, const std::string& reason, double watchdog_s = 0) {
  WorkerClientOptions o = test_options();
  if (watchdog_s > 0) o.watchdog_s = watchdog_s;
  WorkerClient c(local_worker(), o);
  ASSERT_EQ(c.start(), "");
  const long first = c.hello().pid;
  const auto t0 = std::chrono::steady_clock::now();
  const WorkerReply r = c.call(hook, {}, 1);
  EXPECT_EQ(r.kind, WorkerReply::Kind::Faulted) << hook << ": " << r.text;
  EXPECT_TRUE(contains(r.text, reason)) << hook << ": " << r.text;
  EXPECT_EQ(r.text.find('\n'), std::string::npos);
  EXPECT_EQ(c.last_fault(), r.text);
  EXPECT_FALSE(c.running());
  EXPECT_NE(::kill(pid_t(first), 0), 0) << "the faulted worker " << first << " still runs";
  const RunResult next = c.run(sim_request("epita.reduce3", 4096));
  EXPECT_EQ(next.status, RunStatus::Ok) << next.message;
  EXPECT_EQ(next.result, next.expected);
  EXPECT_NE(c.hello().pid, first);
  EXPECT_EQ(c.restarts(), 1);
  std::printf("[ fault    ] %s: '%s', recovered in %.2f s\n", hook.c_str(), r.text.c_str(), seconds_since(t0));
}

TEST(WorkerClient, CrashCostsOneRequest) { expect_fault_then_recovery("__test_crash", "died from signal 11"); }

TEST(WorkerClient, HangIsKilledByTheWatchdog) {
  const auto t0 = std::chrono::steady_clock::now();
  expect_fault_then_recovery("__test_hang", "killed after 1 s without an answer", 1);
  EXPECT_LT(seconds_since(t0), 8);
}

TEST(WorkerClient, GarbageOnStdoutIsAFault) {
  expect_fault_then_recovery("__test_garbage", "the worker wrote garbage: 'Segmentation fault?");
}

TEST(WorkerClient, StickyDeviceErrorIsAFault) { expect_fault_then_recovery("__test_sticky", "illegal memory access"); }

TEST(WorkerClient, KilledWorkerMarksTheRunFaulted) {
  // Killed while it works on a request (from outside: an OOM killer, a lost node).
  WorkerClient c(local_worker(), test_options());
  ASSERT_EQ(c.start(), "");
  const long pid = c.hello().pid;
  std::thread killer([pid] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(pid_t(pid), SIGKILL);
  });
  const WorkerReply hung = c.call("__test_hang", {}, 1);
  killer.join();
  EXPECT_EQ(hung.kind, WorkerReply::Kind::Faulted);
  EXPECT_TRUE(contains(hung.text, "died from signal 9")) << hung.text;
  // Killed between requests: the next run is marked faulted with the reason, the one after runs.
  ASSERT_EQ(c.start(), "");
  ::kill(pid_t(c.hello().pid), SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const RunResult r = c.run(sim_request("epita.reduce1", 1000));
  EXPECT_EQ(r.status, RunStatus::Faulted);
  EXPECT_TRUE(contains(r.message, "died from signal 9")) << r.message;
  EXPECT_EQ(r.variant, "epita.reduce1");
  EXPECT_EQ(c.run(sim_request("epita.reduce1", 1000)).status, RunStatus::Ok);
  EXPECT_EQ(c.restarts(), 2);
}

TEST(WorkerClient, StartFailuresAreOneLineAndQuick) {
  struct Case {
    std::vector<std::string> argv;
    std::string where, reason;
    std::vector<std::pair<std::string, std::string>> env;
  };
  const std::vector<Case> cases = {
      {{WS_CLI_PATH, "worker"},
       "local",
       "speaks protocol 99, this warpscope speaks " + std::to_string(kWorkerProtocolVersion),
       {{"WARPSCOPE_WORKER_TEST", "1"}, {"WARPSCOPE_WORKER_TEST_PROTOCOL", "99"}}},
      // A worker of the protocol before this one (its live_batch answered every run): refused too.
      {{WS_CLI_PATH, "worker"},
       "local",
       "speaks protocol " + std::to_string(kWorkerProtocolVersion - 1) + ", this warpscope speaks " +
           std::to_string(kWorkerProtocolVersion),
       {{"WARPSCOPE_WORKER_TEST", "1"},
        {"WARPSCOPE_WORKER_TEST_PROTOCOL", std::to_string(kWorkerProtocolVersion - 1)}}},
      {{"sh", "-c", "echo 'Permission denied (publickey).' >&2; exit 255"},
       "ssh:gpu",
       "exited with code 255: Permission denied (publickey).",
       {}},
      {{"sh", "-c", "echo 'srun: error: Unable to allocate resources: Invalid partition name specified' >&2; exit 1"},
       "slurm:-p nope",
       "Unable to allocate resources: Invalid partition name",
       {}},
      {{"sh", "-c", "echo Welcome to the cluster; sleep 10"},
       "ssh:gpu",
       "did not answer as a warpscope worker: 'Welcome to the cluster'",
       {}},
      {{"sleep", "30"}, "ssh:slow", "no answer from the worker (ssh:slow) within 0.5 s", {}},
      {{"/nonexistent/warpscope-cli", "worker"}, "local", "cannot start '/nonexistent/warpscope-cli'", {}},
  };
  for (const auto& k : cases) {
    WorkerClientOptions o;
    o.connect_timeout_s = 0.5;
    if (k.reason.find("protocol") != std::string::npos) o.connect_timeout_s = 20;
    o.env = k.env;
    WorkerClient c(WorkerLaunch{k.argv, k.where}, o);
    const auto t0 = std::chrono::steady_clock::now();
    const std::string err = c.start();
    EXPECT_TRUE(contains(err, k.reason)) << k.where << ": " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
    EXPECT_FALSE(c.running());
    EXPECT_LT(seconds_since(t0), 15) << err;
    // A request through a client that cannot start is an error run, not a hang.
    const RunResult r = c.run(sim_request("epita.reduce3", 100));
    EXPECT_EQ(r.status, RunStatus::Error);
    EXPECT_TRUE(contains(r.message, k.reason)) << r.message;
  }
}

TEST(WorkerClient, SweepStreamsProgressAndCancels) {
  WorkerClient c(local_worker(), test_options());
  SweepSpec spec;
  spec.variants = {"epita.reduce3", "harris.impl6"};
  spec.from_log2 = 8;
  spec.to_log2 = 11;
  spec.backend = BackendKind::Sim;
  int seen = 0;
  std::string err;
  const Sweep s = c.sweep(
      spec, "two", nullptr, [&](const SweepProgress& p) { seen = p.done; }, err);
  ASSERT_EQ(err, "");
  ASSERT_EQ(s.runs.size(), 8u);
  EXPECT_EQ(seen, 8);
  EXPECT_EQ(s.title, "two");
  const Sweep local = run_sweep(spec, nullptr, "", nullptr, {});
  for (std::size_t i = 0; i < s.runs.size(); ++i)
    EXPECT_EQ(without_host_times(s.runs[i]), without_host_times(local.runs[i]));

  spec.from_log2 = 10;
  spec.to_log2 = 22;
  std::atomic<bool> cancel{false};
  const Sweep cut = c.sweep(
      spec, "cut", &cancel, [&](const SweepProgress&) { cancel = true; }, err);
  ASSERT_EQ(err, "");
  EXPECT_TRUE(cut.cancelled);
  EXPECT_LT(cut.runs.size(), std::size_t(spec.total_runs()));
  EXPECT_EQ(c.run(sim_request("epita.reduce3", 100)).status, RunStatus::Ok);  // the same worker goes on
}

TEST(WorkerClient, LiveBatchAndTrace) {
  WorkerClient c(local_worker(), test_options());
  nlohmann::json reqs = nlohmann::json::array(
      {request_to_json(sim_request("epita.reduce3", 5000)), request_to_json(sim_request("harris.impl6", 5000))});
  const WorkerReply live = c.call("live_batch", {{"requests", reqs}, {"rounds", 3}}, 5);
  ASSERT_TRUE(live.ok()) << live.text;
  const LiveBatch b = live_batch_from_json(live.message);
  EXPECT_EQ(b.rounds, 3);
  EXPECT_FALSE(b.failed);
  ASSERT_EQ(b.requests.size(), 2u);
  for (const auto& r : b.requests) {
    EXPECT_EQ(r.runs, 3);
    EXPECT_TRUE(r.times_ms.empty());  // the sim model is untimed
    ASSERT_TRUE(r.last.has_value());
    EXPECT_EQ(r.last->status, RunStatus::Ok);
  }
  // The same rounds in this process give the same newest runs.
  LiveRunner here({sim_request("epita.reduce3", 5000), sim_request("harris.impl6", 5000)});
  const LiveBatch local = here.batch(nullptr, "", 0, 3);
  ASSERT_EQ(local.requests.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(local.requests[i].runs, 3);
    EXPECT_EQ(without_host_times(*local.requests[i].last), without_host_times(*b.requests[i].last));
  }
  RunRequest t = sim_request("epita.reduce3", 512);
  const WorkerReply tr = c.call("trace", {{"request", request_to_json(t)}, {"block_index", 1}}, 5);
  ASSERT_TRUE(tr.ok()) << tr.text;
  EXPECT_EQ(tr.message["trace"]["block_index"], 1);
  EXPECT_FALSE(tr.message["trace"]["steps"].empty());
  const WorkerReply cuda = c.call("trace", {{"request", request_to_json(RunRequest{})}}, 5);
  EXPECT_EQ(cuda.kind, WorkerReply::Kind::Error);
  // A trace the request refuses says its TraceStatus beside the words (WorkerTraceBackend reads it, not them).
  const WorkerReply host =
      c.call("trace", {{"request", request_to_json(sim_request("stevens.scan_sequential", 512))}}, 5);
  ASSERT_EQ(host.kind, WorkerReply::Kind::Error);
  EXPECT_EQ(host.text, "stevens.scan_sequential runs on the host CPU: it has no GPU threads to trace");
  EXPECT_EQ(host.message.value("trace_status", std::string()), "bad_request");
}

TEST(WorkerClient, RequestsInFlightAreAnsweredToTheirOwnWait) {
  WorkerClient c(local_worker(), test_options());
  WorkerReply failure;
  const std::int64_t a = c.send("run", {{"request", request_to_json(sim_request("epita.reduce3", 1000))}}, 5, failure);
  const std::int64_t b = c.send("run", {{"request", request_to_json(sim_request("harris.impl6", 3000))}}, 5, failure);
  ASSERT_GE(a, 0) << failure.text;
  ASSERT_GE(b, 0) << failure.text;
  EXPECT_EQ(c.in_flight(), 2u);
  // Waiting for the second first: the first's answer arrives before it and is kept for its own wait.
  const WorkerReply second = c.wait(b);
  ASSERT_TRUE(second.ok()) << second.text;
  EXPECT_EQ(run_from_wire(second.message.at("run")).variant, "harris.impl6");
  const WorkerReply first = c.wait(a);
  ASSERT_TRUE(first.ok()) << first.text;
  EXPECT_EQ(run_from_wire(first.message.at("run")).variant, "epita.reduce3");
  EXPECT_EQ(c.in_flight(), 0u);
  EXPECT_EQ(c.wait(a).kind, WorkerReply::Kind::Error);  // answered once
}

TEST(LiveRunner, StopsAtARunThatFails) {
  LiveRunner live(
      {sim_request("epita.reduce3", 4096), sim_request("epita.nope", 4096), sim_request("harris.impl6", 4096)});
  const LiveBatch b = live.batch(nullptr, "", 10, 5);
  EXPECT_TRUE(b.failed);
  EXPECT_EQ(b.rounds, 1);
  ASSERT_EQ(b.requests.size(), 3u);
  EXPECT_EQ(b.requests[0].runs, 1);
  ASSERT_TRUE(b.requests[1].last.has_value());
  EXPECT_EQ(b.requests[1].last->status, RunStatus::Error);
  EXPECT_TRUE(contains(b.requests[1].last->message, "unknown variant")) << b.requests[1].last->message;
  EXPECT_EQ(b.requests[2].runs, 0);  // never reached
  EXPECT_FALSE(b.requests[2].last.has_value());
  // A batch by time runs whole rounds until its time is up.
  LiveRunner timed({sim_request("epita.reduce3", 1024)});
  const LiveBatch t = timed.batch(nullptr, "", 0.05, 1000000);
  EXPECT_GT(t.rounds, 1);
  EXPECT_EQ(t.requests[0].runs, t.rounds);
  std::atomic<bool> cancel{true};
  EXPECT_TRUE(timed.batch(nullptr, "", 1, 10, &cancel).cancelled);
}

TEST(LivePipeline, TwoBatchesInFlight) {
  WorkerClient c(local_worker(), test_options());
  LivePipeline p(c, {sim_request("epita.reduce3", 2048), sim_request("harris.impl6", 2048)}, 0.02, 2);
  const RunResult want = execute(sim_request("harris.impl6", 2048), nullptr);
  for (int k = 0; k < 4; ++k) {
    const LivePipeline::Reply r = p.next();
    ASSERT_EQ(r.kind, WorkerReply::Kind::Ok) << r.text;
    ASSERT_FALSE(r.dropped);
    ASSERT_EQ(r.batch.requests.size(), 2u);
    EXPECT_GE(r.batch.rounds, 1);
    EXPECT_EQ(r.batch.requests[1].runs, r.batch.rounds);
    ASSERT_TRUE(r.batch.requests[1].last.has_value());
    EXPECT_EQ(without_host_times(*r.batch.requests[1].last), without_host_times(want));
    // The next batch was sent before this one was read: the worker never waits for the client.
    EXPECT_EQ(p.in_flight(), 1u);
    EXPECT_EQ(c.in_flight(), 1u);
  }
  EXPECT_EQ(c.restarts(), 0);
}

TEST(LivePipeline, CancelWithOneInFlight) {
  WorkerClient c(local_worker(), test_options());
  // The worker is started first: under ASan on a loaded machine its start alone took over 300 ms, the cancel
  // then came before the second batch was sent and before the first had run anything (CI, 2026-11-28).
  ASSERT_EQ(c.run(sim_request("epita.reduce3", 1000)).status, RunStatus::Ok);
  LivePipeline p(c, {sim_request("epita.reduce3", 2048)}, 4.0, 2);  // batches of 4 s: cancelled long before
  std::atomic<bool> interrupt{false};
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    interrupt = true;  // what RunWorker does when a run is queued or Live changes
  });
  const auto t0 = std::chrono::steady_clock::now();
  const LivePipeline::Reply first = p.next(&interrupt);
  later.join();
  ASSERT_EQ(first.kind, WorkerReply::Kind::Ok) << first.text;
  EXPECT_TRUE(first.batch.cancelled);
  EXPECT_GT(first.batch.requests[0].runs, 0);  // what it ran before the cancel still counts
  EXPECT_EQ(p.in_flight(), 1u);                // the second batch, queued in the worker
  const std::vector<LivePipeline::Reply> rest = p.drain();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].kind, WorkerReply::Kind::Ok) << rest[0].text;
  EXPECT_TRUE(rest[0].dropped || rest[0].batch.cancelled);
  EXPECT_LT(seconds_since(t0), 3.0);  // well before one 4-s batch would end
  EXPECT_EQ(p.in_flight(), 0u);
  EXPECT_EQ(c.in_flight(), 0u);
  const RunResult after = c.run(sim_request("epita.reduce3", 1000));  // the same worker goes on
  EXPECT_EQ(after.status, RunStatus::Ok) << after.message;
  EXPECT_EQ(c.restarts(), 0);
}

TEST(LivePipeline, FaultWithOneInFlight) {
  WorkerClient c(local_worker(), test_options());
  LivePipeline p(c, {sim_request("epita.reduce3", 2048)}, 0.5, 2);
  ASSERT_EQ(p.next().kind, WorkerReply::Kind::Ok);
  ASSERT_EQ(p.in_flight(), 1u);
  const long pid = c.hello().pid;
  std::thread killer([pid] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ::kill(pid_t(pid), SIGKILL);  // an OOM killer, a lost node: the worker dies with two batches in flight
  });
  const LivePipeline::Reply dead = p.next();
  killer.join();
  EXPECT_EQ(dead.kind, WorkerReply::Kind::Faulted);
  EXPECT_TRUE(contains(dead.text, "died from signal 9")) << dead.text;
  EXPECT_EQ(p.in_flight(), 0u);  // the other batch died with it: nothing waits for an answer that cannot come
  EXPECT_EQ(c.in_flight(), 0u);
  const LivePipeline::Reply again = p.next();  // a fresh worker
  EXPECT_EQ(again.kind, WorkerReply::Kind::Ok) << again.text;
  EXPECT_GT(again.batch.requests[0].runs, 0);
  EXPECT_NE(c.hello().pid, pid);
  EXPECT_EQ(c.restarts(), 1);
}

}  // namespace
}  // namespace ws
