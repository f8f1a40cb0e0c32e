// `--gpu ssh:HOST` and `--gpu slurm:ARGS` through a real OpenSSH server and a real Slurm cluster on this
// machine (scripts/local-cluster.sh up; ctest label `remote`, run by .ci/run). The far side is this
// build's warpscope-cli ($WARPSCOPE_REMOTE_CLI) serving the sim backend: run, report and sweep must give
// what the same command gives in-process; a worker killed on the far side costs one request with a
// one-line reason, and the next request runs in a fresh worker; unreachable hosts, refused keys and
// rejected jobs are one line, quickly.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "remote_env.hpp"
#include "worker_client.hpp"
#include "worker_protocol.hpp"

namespace ws {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// Where the remote tests send their workers: ssh:localhost and a one-task Slurm job step, or what
/// $WS_REMOTE_SSH / $WS_REMOTE_SLURM name.
std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

class RemoteEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { set_remote_test_env(WS_CLI_PATH); }
};
const auto* const kEnv = ::testing::AddGlobalTestEnvironment(new RemoteEnvironment);

struct CliResult {
  int code = -1;
  std::string out, err;
};

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/// Runs warpscope-cli with `args` (already shell-quoted), capturing stdout and stderr.
CliResult cli(const std::string& args) {
  const std::string err_path = (fs::temp_directory_path() / ("ws_remote_err_" + std::to_string(::getpid()))).string();
  const std::string cmd = std::string(WS_CLI_PATH) + " " + args + " 2>" + err_path;
  CliResult r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[65536];
  for (std::size_t k; (k = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, k);
  const int status = ::pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err_path);
  fs::remove(err_path);
  return r;
}

/// Drops what differs between two runs of the same request: wall-clock host phases and creation times.
void strip_clock(json& j) {
  if (j.is_object()) {
    j.erase("host_ms");
    j.erase("created");
    for (auto& [k, v] : j.items()) strip_clock(v);
  } else if (j.is_array()) {
    for (auto& v : j) strip_clock(v);
  }
}

json parse_stripped(const std::string& text) {
  json j = json::parse(text);
  strip_clock(j);
  return j;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

class Remote : public ::testing::TestWithParam<std::string> {
 protected:
  /// The --gpu spec of this instance: ssh or slurm.
  std::string spec() const {
    return GetParam() == "ssh" ? env_or("WS_REMOTE_SSH", "ssh:localhost")
                               : env_or("WS_REMOTE_SLURM", "slurm:-N1 -n1 --time=00:05:00");
  }
  std::string gpu() const { return " --gpu " + quoted(spec()); }
  /// A worker client as the CLI makes one, started; fails the test with its one line otherwise.
  std::unique_ptr<WorkerClient> client() const {
    WorkerLaunch launch;
    EXPECT_EQ(parse_gpu_spec(spec(), WS_CLI_PATH, launch), "");
    WorkerClientOptions o;
    o.connect_timeout_s = 30;
    auto c = std::make_unique<WorkerClient>(launch, o);
    const std::string err = c->start();
    EXPECT_EQ(err, "") << spec() << " did not start (is `bash scripts/local-cluster.sh up` running?)";
    return err.empty() ? std::move(c) : nullptr;
  }
};

TEST_P(Remote, RunEqualsInProcess) {
  for (const char* args :
       {"--variant epita.reduce3 --n 100000", "--variant stevens.brent_kung --n 2048 --exclusive",
        "--variant cs121.hist_shared --n 65536 --input sequence",
        "--variant stevens.conv1d_tiled --n 5000 --mask gauss", "--variant epita.race --n 4096 --input ones"}) {
    const std::string common = std::string("run ") + args + " --backend sim --json";
    const CliResult local = cli(common);
    const CliResult far = cli(common + gpu());
    ASSERT_EQ(local.code, 0) << args << ": " << local.err;
    EXPECT_EQ(far.code, local.code) << args << ": " << far.err;
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    EXPECT_TRUE(contains(far.err, std::string(" on ") + host + ": no CUDA device"))
        << "stderr names the worker's machine: " << far.err;
    EXPECT_EQ(parse_stripped(far.out), parse_stripped(local.out)) << args;
  }
  // A bad request is refused the same way through the worker: one line, exit 2, before any connection.
  const CliResult bad = cli("run --variant epita.nope --backend sim" + gpu());
  EXPECT_EQ(bad.code, 2);
  EXPECT_TRUE(contains(bad.err, "unknown variant")) << bad.err;
}

TEST_P(Remote, ReportEqualsInProcess) {
  const fs::path dir = fs::temp_directory_path() / ("ws_remote_report_" + GetParam() + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string common = " --variants epita --backend sim --n 2^14 --traces 256";
  const CliResult local = cli("report --force --out " + (dir / "local.json").string() + common);
  const CliResult far = cli("report --force --out " + (dir / "far.json").string() + common + gpu());
  ASSERT_EQ(local.code, 0) << local.err;
  EXPECT_EQ(far.code, 0) << far.err;
  const json a = parse_stripped(read_file((dir / "local.json").string()));
  const json b = parse_stripped(read_file((dir / "far.json").string()));
  EXPECT_GE(a.at("runs").size(), 10u);
  EXPECT_FALSE(a.at("traces").empty());
  EXPECT_EQ(b, a);
  fs::remove_all(dir);
}

TEST_P(Remote, SweepEqualsInProcess) {
  const std::string common =
      "sweep --variants epita.reduce3,stevens.kogge_stone,cs121.filter_warp_agg --from 8 --to 12 --backend sim --json";
  const CliResult local = cli(common);
  const CliResult far = cli(common + gpu());
  ASSERT_EQ(local.code, 0) << local.err;
  EXPECT_EQ(far.code, 0) << far.err;
  const json a = parse_stripped(local.out), b = parse_stripped(far.out);
  EXPECT_EQ(a.at("runs").size(), 15u);
  EXPECT_EQ(b, a);
}

// allreduce --gpu: one "allreduce" request per method and size to the worker on the far side (the sim there,
// as CI's cluster has no GPU); the table and the JSON are what the same command prints in-process.
TEST_P(Remote, AllReduceEqualsInProcess) {
  for (const char* args : {"--method ring,tree --gpus 4 --bytes 1MiB --json", "--gpus 2 --bytes 64KiB",
                           "--method ring,tree --gpus 4 --sweep 4KiB:64KiB"}) {
    const std::string common = std::string("allreduce --backend sim ") + args;
    const CliResult local = cli(common);
    const CliResult far = cli(common + gpu());
    ASSERT_EQ(local.code, 0) << args << ": " << local.err;
    EXPECT_EQ(far.code, 0) << args << ": " << far.err;
    EXPECT_FALSE(far.out.empty()) << args;
    EXPECT_EQ(far.out, local.out) << args;
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    EXPECT_TRUE(contains(far.err, std::string(" on ") + host + ": "))
        << "stderr names the worker's machine: " << far.err;
  }
  // The cuda methods on the far side without a GPU: its one line, exit 3.
  if (cli("device").code == 0) return;  // a GPU here, so there too (the far side is this machine)
  const CliResult cuda = cli("allreduce --backend cuda --method ring --gpus 2" + gpu());
  EXPECT_EQ(cuda.code, 3) << cuda.err;
  EXPECT_TRUE(contains(cuda.err, "warpscope-cli: the worker on ")) << cuda.err;
  EXPECT_EQ(cuda.out, "");
}

TEST_P(Remote, WorkerKilledOnTheFarSideCostsOneRequest) {
  auto c = client();
  ASSERT_TRUE(c);
  EXPECT_TRUE(contains(c->launch().where, GetParam()));
  RunRequest req;
  req.variant = "epita.reduce3";
  req.n = 4096;
  req.backend = BackendKind::Sim;
  ASSERT_EQ(c->run(req).status, RunStatus::Ok);
  // Killed mid-request: a sweep loses the worker after its first point. The far side is this machine,
  // so the pid in the worker's hello is a local process (for ssh: under sshd; for Slurm: under slurmstepd).
  const long first = c->hello().pid;
  SweepSpec sweep;
  sweep.variants = {"epita.reduce3", "epita.reduce6", "stevens.kogge_stone"};
  sweep.from_log2 = 10;
  sweep.to_log2 = 22;
  sweep.backend = BackendKind::Sim;
  sweep.repeat = 1;
  std::string error;
  int seen = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const Sweep s = c->sweep(
      sweep, "killed", nullptr,
      [&](const SweepProgress&) {
        if (seen++ == 0) ::kill(pid_t(first), SIGKILL);
      },
      error);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  // ssh reports the far side's death as exit 255, srun as 128 + the signal: the line says which.
  EXPECT_TRUE(
      contains(error, GetParam() == "ssh" ? "the worker died from a signal on " : "killed by signal 9 (Killed) on "))
      << error;
  EXPECT_TRUE(s.cancelled);
  EXPECT_GE(s.runs.size(), 1u);
  EXPECT_LT(s.runs.size(), 39u);
  EXPECT_LT(seconds_since(t0), 20) << error;
  std::printf("[ fault    ] %s: '%s'\n", spec().c_str(), error.c_str());
  // The next request starts a fresh worker on the far side and runs.
  const RunResult next = c->run(req);
  EXPECT_EQ(next.status, RunStatus::Ok) << next.message;
  EXPECT_EQ(next.result, next.expected);
  EXPECT_NE(c->hello().pid, first);
  EXPECT_EQ(c->restarts(), 1);
  // Killed between requests: the next run is marked faulted with the reason, the one after runs.
  ::kill(pid_t(c->hello().pid), SIGKILL);
  const RunResult lost = c->run(req);
  EXPECT_EQ(lost.status, RunStatus::Faulted);
  EXPECT_EQ(lost.message.find('\n'), std::string::npos) << lost.message;
  std::printf("[ fault    ] %s: '%s'\n", spec().c_str(), lost.message.c_str());
  EXPECT_EQ(c->run(req).status, RunStatus::Ok);
  EXPECT_EQ(c->restarts(), 2);
}

TEST(RemoteSlurm, HungWorkerIsKilledWithItsJobStep) {
  // A worker that stops answering (a kernel that never ends) is killed by the watchdog; through srun
  // the client ends the job step, not just srun, so nothing keeps holding the node's GPU.
  WorkerLaunch launch;
  ASSERT_EQ(parse_gpu_spec(env_or("WS_REMOTE_SLURM", "slurm:-N1 -n1 --time=00:05:00"), WS_CLI_PATH, launch), "");
  WorkerClientOptions o;
  o.connect_timeout_s = 30;
  o.watchdog_s = 1;
  o.env = {{"WARPSCOPE_WORKER_TEST", "1"}};  // srun hands the environment to the job step
  WorkerClient c(launch, o);
  ASSERT_EQ(c.start(), "");
  const long far = c.hello().pid;
  const WorkerReply r = c.call("__test_hang", {}, 1);
  EXPECT_EQ(r.kind, WorkerReply::Kind::Faulted);
  EXPECT_TRUE(contains(r.text, "killed after 1 s without an answer")) << r.text;
  const auto t0 = std::chrono::steady_clock::now();
  while (::kill(pid_t(far), 0) == 0 && seconds_since(t0) < 10)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_NE(::kill(pid_t(far), 0), 0) << "the hung worker " << far << " still runs in its job step";
}

INSTANTIATE_TEST_SUITE_P(Gpu, Remote, ::testing::Values("ssh", "slurm"), [](const auto& info) { return info.param; });

/// Bad remotes: each one line naming the cause, no hang.
TEST(RemoteStart, FailuresAreOneLineAndQuick) {
  struct Case {
    std::string spec, reason;
  };
  const std::vector<Case> cases = {
      {"ssh:warpscope-no-such-host.invalid", "Could not resolve hostname"},
      {"ssh:nobody@localhost", "Permission denied (publickey"},
      {"slurm:--partition=warpscope-no-such-partition", "Invalid partition name"},
  };
  for (const auto& k : cases) {
    const auto t0 = std::chrono::steady_clock::now();
    const CliResult r =
        cli("run --variant epita.reduce3 --n 1024 --backend sim --connect-timeout 20 --gpu " + quoted(k.spec));
    EXPECT_EQ(r.code, 1) << k.spec << ": " << r.err;
    EXPECT_TRUE(contains(r.err, k.reason)) << k.spec << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << k.spec << ": " << r.err;
    EXPECT_LT(seconds_since(t0), 20) << k.spec;
  }
  // A warpscope of another protocol version on the far side (ssh runs the remote command through a
  // shell, so an environment can go in front of it).
  WorkerLaunch launch;
  ASSERT_EQ(parse_gpu_spec(env_or("WS_REMOTE_SSH", "ssh:localhost"), WS_CLI_PATH, launch,
                           std::string("env WARPSCOPE_WORKER_TEST=1 WARPSCOPE_WORKER_TEST_PROTOCOL=") +
                               std::to_string(kWorkerProtocolVersion + 1) + " " + WS_CLI_PATH),
            "");
  WorkerClientOptions o;
  o.connect_timeout_s = 20;
  WorkerClient c(launch, o);
  const std::string err = c.start();
  EXPECT_TRUE(contains(err, "speaks protocol " + std::to_string(kWorkerProtocolVersion + 1) +
                                ", this warpscope speaks " + std::to_string(kWorkerProtocolVersion)))
      << err;
  EXPECT_FALSE(c.running());
  // Something on the far side that writes to stdout before the worker (a shell start-up file's banner).
  ASSERT_EQ(parse_gpu_spec(env_or("WS_REMOTE_SSH", "ssh:localhost"), WS_CLI_PATH, launch,
                           std::string("echo Welcome to the GPU server; ") + WS_CLI_PATH),
            "");
  WorkerClient banner(launch, o);
  const std::string why = banner.start();
  EXPECT_TRUE(contains(why, "did not answer as a warpscope worker: 'Welcome to the GPU server'")) << why;
  EXPECT_FALSE(banner.running());
}

}  // namespace
}  // namespace ws
