// The worker protocol's "allreduce" request (docs/worker-protocol.md; the lesson "Reduction across GPUs",
// docs/collective.md): its messages round trip and refuse what is malformed, naming the field; a real
// `warpscope-cli worker` answers sim requests exactly as the in-process model does, answers a cuda request on a
// machine without a GPU with a result that was not run and says why, and goes on after refusals; a client
// talking to a worker whose hello lacks the capability gets one line naming it.
#include <gtest/gtest.h>

#include <string>

#include "collective/allreduce_json.hpp"
#include "collective/allreduce_sim.hpp"
#include "collective/link_model.hpp"
#include "worker_client.hpp"
#include "worker_protocol.hpp"

namespace ws {
namespace {

using collective::AllReduceResult;
using collective::Method;
using nlohmann::json;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// The message allreduce_ask_from_json throws for `j` ("" when it does not throw).
std::string refusal(const json& j) {
  try {
    allreduce_ask_from_json(j);
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

WorkerClientOptions test_options() {
  WorkerClientOptions o;
  o.connect_timeout_s = 20;
  return o;
}

WorkerLaunch local_worker() { return WorkerLaunch{{WS_CLI_PATH, "worker"}, "local"}; }

AllReduceAsk sim_ask(Method m, int gpus, std::int64_t length, const std::string& link = "nvlink4") {
  AllReduceAsk a;
  a.run.method = m;
  a.run.gpus = gpus;
  a.run.length = length;
  a.backend = BackendKind::Sim;
  a.link = link;
  return a;
}

TEST(WorkerProtocol, AllReduceAskRoundTrips) {
  AllReduceAsk a;
  a.run.method = Method::NcclTree;
  a.run.gpus = 4;
  a.run.length = 12345;
  a.run.warmup = 0;
  a.run.repeats = 7;
  a.backend = BackendKind::Cuda;
  a.link = "pcie5";
  const json j = allreduce_ask_to_json(a);
  EXPECT_EQ(j.at("method"), "nccl_tree");
  EXPECT_EQ(j.at("backend"), "cuda");
  const AllReduceAsk b = allreduce_ask_from_json(json::parse(j.dump()));
  EXPECT_EQ(allreduce_ask_to_json(b), j);
  EXPECT_EQ(b.run.method, Method::NcclTree);
  EXPECT_EQ(b.run.gpus, 4);
  EXPECT_EQ(b.run.length, 12345);
  EXPECT_EQ(b.run.warmup, 0);
  EXPECT_EQ(b.run.repeats, 7);
  EXPECT_EQ(b.backend, BackendKind::Cuda);
  EXPECT_EQ(b.link, "pcie5");
  // Missing fields take the defaults (the sim, the ring on every GPU, 2^26 elements, NVLink 4).
  const AllReduceAsk d = allreduce_ask_from_json(json::object());
  EXPECT_EQ(allreduce_ask_to_json(d), allreduce_ask_to_json(AllReduceAsk{}));
}

TEST(WorkerProtocol, AllReduceAskRefusesWhatIsMalformedNamingTheField) {
  EXPECT_TRUE(contains(refusal(json::array()), "not an object"));
  EXPECT_TRUE(contains(refusal({{"method", "butterfly"}}), "unknown method 'butterfly'"));
  EXPECT_TRUE(contains(refusal({{"method", 3}}), "field 'method'"));
  EXPECT_TRUE(contains(refusal({{"gpus", 9}}), "field 'gpus'"));
  EXPECT_TRUE(contains(refusal({{"gpus", -1}}), "field 'gpus'"));
  EXPECT_TRUE(contains(refusal({{"gpus", 1.5}}), "field 'gpus'"));
  EXPECT_TRUE(contains(refusal({{"gpus", "2"}}), "field 'gpus'"));
  EXPECT_TRUE(contains(refusal({{"length", 0}}), "field 'length'"));
  EXPECT_TRUE(contains(refusal({{"length", (std::int64_t(1) << 30) + 1}}), "field 'length'"));
  EXPECT_TRUE(contains(refusal({{"warmup", 1001}}), "field 'warmup'"));
  EXPECT_TRUE(contains(refusal({{"repeats", 0}}), "field 'repeats'"));
  EXPECT_TRUE(contains(refusal({{"backend", "tpu"}}), "unknown backend"));
  EXPECT_TRUE(contains(refusal({{"link", "infiniband"}}), "unknown link 'infiniband'"));
  EXPECT_TRUE(contains(refusal({{"link", true}}), "field 'link'"));
  for (const json& bad : {json{{"method", "butterfly"}}, json{{"gpus", 9}}, json{{"link", "x"}}})
    EXPECT_EQ(refusal(bad).find('\n'), std::string::npos) << bad;
}

TEST(WorkerProtocol, AllReduceAnswerRoundTrips) {
  const AllReduceResult r =
      collective::simulate_allreduce(sim_ask(Method::Ring, 4, 1000).run, collective::nvlink4_model());
  ASSERT_TRUE(r.ran) << r.error;
  int visible = -1;
  const AllReduceResult back = allreduce_answer_from_json(json::parse(allreduce_answer_to_json(r, 3).dump()), visible);
  EXPECT_EQ(visible, 3);
  EXPECT_EQ(collective::allreduce_result_to_json(back), collective::allreduce_result_to_json(r));
  // What the reader of a file refuses is refused here too, naming the field.
  json bad = allreduce_answer_to_json(r, 3);
  bad["result"]["step_ms"] = json::array({1.0});
  try {
    allreduce_answer_from_json(bad, visible);
    ADD_FAILURE() << "a ring's result with one step time was taken";
  } catch (const std::exception& e) {
    EXPECT_TRUE(contains(e.what(), "allreduce: result: field 'step_ms'")) << e.what();
  }
  EXPECT_THROW(allreduce_answer_from_json(json{{"visible_gpus", 1}}, visible), std::runtime_error);
  EXPECT_THROW(allreduce_answer_from_json(
                   json{{"result", collective::allreduce_result_to_json(r)}, {"visible_gpus", -2}}, visible),
               std::runtime_error);
}

TEST(WorkerProtocol, HelloOffersAllReduce) {
  const auto& types = worker_request_types();
  EXPECT_NE(std::find(types.begin(), types.end(), "allreduce"), types.end());
  WorkerHello h;
  h.host = "gpu7";
  h.version = "0.0.9 (abc1234)";
  h.capabilities = {"run", "sweep"};
  const std::string line = missing_capability_message(h, "allreduce");
  EXPECT_EQ(line,
            "the worker on gpu7 runs warpscope 0.0.9 (abc1234), which does not answer 'allreduce' requests (it "
            "answers run, sweep): install this warpscope version there");
}

TEST(WorkerClient, AllReduceInTheSimEqualsTheInProcessModel) {
  WorkerClient c(local_worker(), test_options());
  ASSERT_EQ(c.start(), "");
  EXPECT_TRUE(c.offers("allreduce"));
  for (Method m : {Method::HostAdd, Method::PeerToGpu0, Method::Ring, Method::Tree, Method::NcclRing, Method::NcclTree})
    for (int gpus : {1, 3, 8})
      for (const char* link : {"nvlink4", "pcie5"}) {
        const AllReduceAsk ask = sim_ask(m, gpus, 4099, link);
        collective::LinkModel model;
        ASSERT_TRUE(collective::link_model_by_name(link, model));
        const AllReduceResult here = collective::simulate_allreduce(ask.run, model);
        AllReduceResult far;
        int visible = -1;
        const WorkerReply reply = c.allreduce(ask, far, visible);
        ASSERT_TRUE(reply.ok()) << reply.text;
        EXPECT_GE(visible, 0);
        EXPECT_EQ(collective::allreduce_result_to_json(far), collective::allreduce_result_to_json(here))
            << collective::to_string(m) << " on " << gpus << " GPUs, " << link;
      }
  // A request the model cannot run comes back as a result that did not run, as in-process.
  AllReduceResult none;
  int visible = 0;
  ASSERT_TRUE(c.allreduce(sim_ask(Method::Ring, 0, 16), none, visible).ok());
  EXPECT_FALSE(none.ran);
  EXPECT_FALSE(none.error.empty());
  EXPECT_EQ(c.restarts(), 0);
}

TEST(WorkerClient, AllReduceRefusalsAreOneLineAndTheWorkerGoesOn) {
  WorkerClient c(local_worker(), test_options());
  ASSERT_EQ(c.start(), "");
  const long pid = c.hello().pid;
  struct Case {
    json body;
    std::string reason;
  };
  const Case cases[] = {
      {json::object(), "needs a \"request\" object"},
      {{{"request", 5}}, "needs a \"request\" object"},
      {{{"request", {{"method", "butterfly"}}}}, "unknown method 'butterfly'"},
      {{{"request", {{"gpus", 99}}}}, "field 'gpus'"},
      {{{"request", {{"length", "big"}}}}, "field 'length'"},
  };
  for (const Case& k : cases) {
    const WorkerReply r = c.call("allreduce", k.body, 1);
    EXPECT_EQ(r.kind, WorkerReply::Kind::Error) << k.body;
    EXPECT_TRUE(contains(r.text, k.reason)) << k.body << ": " << r.text;
    EXPECT_EQ(r.text.find('\n'), std::string::npos) << r.text;
  }
  AllReduceResult ok;
  int visible = 0;
  ASSERT_TRUE(c.allreduce(sim_ask(Method::Tree, 4, 64), ok, visible).ok());
  EXPECT_TRUE(ok.ran && ok.correct) << ok.error;
  EXPECT_EQ(c.hello().pid, pid);
  EXPECT_EQ(c.restarts(), 0);
}

TEST(WorkerClient, AllReduceOnCudaWithoutAGpuIsAResultThatSaysWhy) {
  WorkerClient c(local_worker(), test_options());
  ASSERT_EQ(c.start(), "");
  AllReduceAsk ask = sim_ask(Method::Ring, 2, 1024);
  ask.backend = BackendKind::Cuda;
  AllReduceResult r;
  int visible = -1;
  const WorkerReply reply = c.allreduce(ask, r, visible);
  ASSERT_TRUE(reply.ok()) << reply.text;
  if (visible > 0) GTEST_SKIP() << "the worker sees " << visible << " GPU(s)";
  EXPECT_FALSE(r.ran);
  EXPECT_FALSE(r.error.empty());
  EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
  EXPECT_EQ(r.method, Method::Ring);
  EXPECT_TRUE(c.running());
}

TEST(WorkerClient, AWorkerWithoutTheCapabilityIsOneLineNamingIt) {
  // An older worker: its hello names no "allreduce"; it reads requests and never answers them.
  WorkerHello old;
  old.host = "oldhost";
  old.pid = 1;
  old.version = "0.0.9 (old)";
  old.backends = {BackendKind::Sim};
  old.capabilities = {"run", "trace", "sweep", "live_batch", "cancel", "shutdown"};
  const std::string script = "echo '" + hello_to_json(old).dump() + "'; cat >/dev/null";
  WorkerClientOptions o = test_options();
  o.watchdog_s = 2;
  WorkerClient c(WorkerLaunch{{"sh", "-c", script}, "local"}, o);
  AllReduceResult r;
  int visible = 0;
  const WorkerReply reply = c.allreduce(sim_ask(Method::Ring, 2, 16), r, visible);
  EXPECT_EQ(reply.kind, WorkerReply::Kind::Error);
  EXPECT_TRUE(contains(reply.text,
                       "the worker on oldhost runs warpscope 0.0.9 (old), which does not answer "
                       "'allreduce' requests (it answers run, trace, sweep, live_batch, cancel, shutdown)"))
      << reply.text;
  EXPECT_EQ(reply.text.find('\n'), std::string::npos);
  EXPECT_FALSE(c.offers("allreduce"));
  EXPECT_TRUE(c.running()) << "nothing was sent: the worker stays for the requests it answers";
}

}  // namespace
}  // namespace ws
