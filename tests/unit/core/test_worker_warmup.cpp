// The worker's metrics warm-up at start (issue 31; Backend::warm_up_metrics, CudaBackend's on a GPU): it
// runs once, after the hello and before the first request, and its failure never ends the worker. A stand-in
// backend here (no GPU); the GPU test GpuMetrics.ValuesAfterTheWorkerWarmUpEqualValuesWithoutIt checks the
// values.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "worker_protocol.hpp"
#include "worker_server.hpp"

using namespace ws;
using nlohmann::json;

namespace {

/// A "GPU" whose warm-up counts its calls, or throws.
class WarmingBackend final : public Backend {
 public:
  /// `step_fd`: where each prepare step writes one byte as it is made (-1: nowhere), so a test can wait for it.
  WarmingBackend(bool fail, int step_fd) : fail_(fail), step_fd_(step_fd) {
    dev_.available = true;
    dev_.name = "stand-in GPU";
  }
  std::string name() const override { return "cuda"; }
  const DeviceInfo& device() const override { return dev_; }
  RunResult run(const VariantInfo&, const RunRequest&, const Input&, const LaunchConfig&) override {
    RunResult r;
    r.status = RunStatus::Error;
    r.message = "stand-in backend";
    return r;
  }
  std::string warm_up_metrics() override {
    ++warm_ups;
    if (fail_) throw std::runtime_error("CUPTI said no");
    return "stand-in warm-up";
  }
  /// One step to make, then nothing until a request used it (as CudaBackend's Start made while idle).
  std::string prepare_next_metrics() override {
    if (prepared) return "";
    ++prepares;
    if (step_fd_ >= 0 && write(step_fd_, "p", 1) != 1) std::_Exit(3);
    if (fail_) throw std::runtime_error("CUPTI said not now");
    prepared = true;
    return "stand-in start";
  }
  int warm_ups = 0;
  int prepares = 0;       ///< prepare_next_metrics calls that had a step to make
  bool prepared = false;  ///< made, not yet used by a request

 private:
  bool fail_;
  int step_fd_;
  DeviceInfo dev_;
};

struct Answers {
  std::string out, err;
  pid_t pid = 0;
};

/// A worker in a child process with a WarmingBackend: `requests` on its stdin, which then ends. With `paced`,
/// each line is written after the answer to the one before has come and the worker has made its idle step
/// (after the warm-up for the first line; waited for up to 5 s, so a worker that makes none still ends the test).
Answers worker_with(bool fail, const std::string& requests, bool paced = false) {
  char err_path[] = "/tmp/ws_warmup_stderr_XXXXXX";
  const int err_fd = mkstemp(err_path);
  int to_worker[2], from_worker[2], steps[2];
  if (err_fd < 0 || pipe(to_worker) != 0 || pipe(from_worker) != 0 || pipe(steps) != 0) return {"pipe failed", ""};
  const pid_t pid = fork();
  if (pid == 0) {
    close(to_worker[1]);
    close(from_worker[0]);
    close(steps[0]);
    dup2(err_fd, 2);
    WorkerServerOptions o;
    const int step_fd = paced ? steps[1] : -1;
    o.open_cuda = [fail, step_fd](std::string&) -> std::unique_ptr<Backend> {
      return std::make_unique<WarmingBackend>(fail, step_fd);
    };
    o.extra = [](const json& req, Backend* cuda, json& response) {
      const std::string type = req.value("type", "");
      if (type != "warm_ups" && type != "prepares") return false;
      auto* b = dynamic_cast<WarmingBackend*>(cuda);
      response = worker_response(req.value("id", 0LL), type,
                                 {{"n", !b                   ? -1
                                        : type == "warm_ups" ? b->warm_ups
                                                             : b->prepares}});
      if (b) b->prepared = false;  // this request used what was made
      return true;
    };
    std::_Exit(run_worker_server(to_worker[0], from_worker[1], o));
  }
  close(to_worker[0]);
  close(from_worker[1]);
  close(steps[1]);
  Answers a;
  a.pid = pid;
  char buf[4096];
  if (paced) {
    std::size_t lines_in = 1;  // the hello
    for (std::size_t at = 0; at < requests.size();) {
      while (std::size_t(std::count(a.out.begin(), a.out.end(), '\n')) < lines_in) {
        const ssize_t got = read(from_worker[0], buf, sizeof buf);
        if (got <= 0) break;
        a.out.append(buf, std::size_t(got));
      }
      pollfd step{steps[0], POLLIN, 0};
      if (poll(&step, 1, 5000) == 1 && read(steps[0], buf, 1) != 1) a.out += "step pipe closed";
      const std::size_t nl = requests.find('\n', at);
      const std::string line = requests.substr(at, nl + 1 - at);
      if (write(to_worker[1], line.data(), line.size()) != ssize_t(line.size())) a.out += "write failed";
      at = nl + 1;
      ++lines_in;
    }
  } else if (write(to_worker[1], requests.data(), requests.size()) != ssize_t(requests.size())) {
    a.out = "write failed";
  }
  close(to_worker[1]);
  for (ssize_t got; (got = read(from_worker[0], buf, sizeof buf)) > 0;) a.out.append(buf, std::size_t(got));
  close(from_worker[0]);
  close(steps[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  std::ifstream in(err_path);
  std::stringstream s;
  s << in.rdbuf();
  a.err = s.str();
  close(err_fd);
  std::remove(err_path);
  return a;
}

const char* kRequests = R"({"id": 1, "type": "warm_ups"})"
                        "\n"
                        R"({"id": 2, "type": "warm_ups"})"
                        "\n"
                        R"({"id": 3, "type": "shutdown"})"
                        "\n";

}  // namespace

TEST(WorkerWarmUp, RunsOnceBeforeTheFirstRequestAndLogsIt) {
  const Answers a = worker_with(false, kRequests);
  // The hello first (the warm-up runs after it), then the answers, each after the one warm-up.
  EXPECT_NE(a.out.substr(0, a.out.find('\n')).find(R"("type":"hello")"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find(R"("id":1,"n":1)"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find(R"("id":2,"n":1)"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find(R"("bye")"), std::string::npos) << a.out;
  // "warpscope worker PID: ...": WorkerClient's stderr tail skips it as it skips the start-up line.
  EXPECT_NE(a.err.find("warpscope worker " + std::to_string(long(a.pid)) + ": metrics warm-up "), std::string::npos)
      << a.err;
  EXPECT_NE(a.err.find(" ms: stand-in warm-up\n"), std::string::npos) << a.err;
}

TEST(WorkerWarmUp, AFailedWarmUpIsOneLineAndTheWorkerGoesOn) {
  const Answers a = worker_with(true, kRequests);
  EXPECT_NE(a.out.find(R"("id":1,"n":1)"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find(R"("bye")"), std::string::npos) << a.out;
  EXPECT_NE(a.err.find("warpscope worker " + std::to_string(long(a.pid)) +
                       ": metrics warm-up failed (the worker goes on): CUPTI said no\n"),
            std::string::npos)
      << a.err;
}

// Between requests the worker makes the next metrics request's set-up, step by step until there is none left
// (Backend::prepare_next_metrics; on a GPU the kept range-profiler session's Start, and the session again after
// a PC sampling request: GpuMetrics.AStartMadeWhileIdleCountsOnlyTheNextRequest). Asked one at a time, each
// request written once the worker made its idle step, request k finds exactly k steps made (after the warm-up,
// then after each answer), never the same step twice; a failure is one line and the worker goes on.
TEST(WorkerWarmUp, PreparesTheNextMetricsRequestWhileIdle) {
  std::string paced;
  for (int id = 1; id <= 3; ++id) paced += R"({"id": )" + std::to_string(id) + R"(, "type": "prepares"})" + "\n";
  paced += R"({"id": 4, "type": "shutdown"})"
           "\n";
  for (bool fail : {false, true}) {
    const Answers a = worker_with(fail, paced, true);
    for (int id = 1; id <= 3; ++id)
      EXPECT_NE(a.out.find(R"("id":)" + std::to_string(id) + R"(,"n":)" + std::to_string(id) + ","), std::string::npos)
          << a.out;
    EXPECT_NE(a.out.find(R"("bye")"), std::string::npos) << a.out;
    const std::string failed = "warpscope worker " + std::to_string(long(a.pid)) +
                               ": preparing the next metrics request failed (it sets up again): CUPTI said not now\n";
    EXPECT_EQ(a.err.find(failed) != std::string::npos, fail) << a.err;
  }
}
