// warpscope-cli allreduce (app/cli/cmd_allreduce.cpp): the sim's table, --steps, --sweep's crossover, --json
// read back by collective/allreduce_json.hpp, one-line refusals with the CLI's exit codes; --gpu local through
// a real worker process prints what the in-process command prints.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "collective/allreduce_json.hpp"
#include "unit/cli/cli_runner.hpp"
#include "worker_protocol.hpp"

using ws::test::count_lines;
using ws::test::expect_one_line;
using ws::test::run_cli;

namespace {

/// The output of `allreduce ARGS` with stderr dropped (JSON on stdout).
std::string stdout_of(const std::string& args, int& code) {
  const ws::test::CliOut o = run_cli(args + " 2>/dev/null");
  code = o.code;
  return o.out;
}

/// `warpscope-cli ARGS` (ARGS may set the environment in front: "VAR=x" is put before the program) with stdout
/// and stderr apart.
struct SplitOut {
  int code = -1;
  std::string out, err;
};
SplitOut run_split(const std::string& args, const std::string& env = "") {
  const std::string base = ::testing::TempDir() + "ws_allreduce_cli_" + std::to_string(::getpid());
  const std::string cmd = env + " " + std::string(WS_CLI_PATH) + " " + args + " >" + base + ".out 2>" + base + ".err";
  const int status = std::system(cmd.c_str());
  auto slurp = [](const std::string& path) {
    std::ifstream f(path);
    return std::string(std::istreambuf_iterator<char>(f), {});
  };
  SplitOut r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(base + ".out"), slurp(base + ".err")};
  std::filesystem::remove(base + ".out");
  std::filesystem::remove(base + ".err");
  return r;
}

std::string host_name() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

}  // namespace

TEST(CliExitCodes, AllReduceBadInputIsOneLineAndExit2) {
  expect_one_line("allreduce --gpus 0", 2, "--gpus must be 1 to 8");
  expect_one_line("allreduce --gpus 9", 2, "--gpus must be 1 to 8");
  expect_one_line("allreduce --gpus -1", 2, "--gpus must be 1 to 8");
  expect_one_line("allreduce --gpus 99999999999", 2, "too large");
  expect_one_line("allreduce --length 0", 2, "--length '0'");
  expect_one_line("allreduce --length 2^31", 2, "too large");
  expect_one_line("allreduce --method butterfly", 2, "unknown method 'butterfly'");
  expect_one_line("allreduce --method ring,bogus", 2, "unknown method 'bogus'");
  expect_one_line("allreduce --bytes 3", 2, "multiple of 4 bytes");
  expect_one_line("allreduce --bytes 0", 2, "not a size in bytes");
  expect_one_line("allreduce --bytes 10XB", 2, "not a size in bytes");
  expect_one_line("allreduce --bytes 8GiB", 2, "too large");
  expect_one_line("allreduce --length 16 --bytes 64", 2, "one of --length, --bytes and --sweep");
  expect_one_line("allreduce --sweep 1GiB:4KiB", 2, "FROM <= TO");
  expect_one_line("allreduce --sweep 4KiB", 2, "FROM:TO");
  expect_one_line("allreduce --steps --json", 2, "one of --steps and --json");
  expect_one_line("allreduce --steps --method host_add", 2, "--steps shows the ring's and the tree's steps");
  expect_one_line("allreduce --link infiniband", 2, "unknown link 'infiniband'");
  expect_one_line("allreduce --link pcie5 --backend cuda", 2, "--link chooses the sim's machine");
  expect_one_line("allreduce --backend tpu", 2, "unknown backend");
  expect_one_line("allreduce --repeat 0", 2, "--repeat");
}

TEST(CliExitCodes, AllReduceOnCudaWithoutAGpuIsTheEntryPointsOneLine) {
  if (run_cli("device").code == 0) GTEST_SKIP() << "a CUDA device is present";
  const ws::test::CliOut o = run_cli("allreduce --backend cuda --gpus 2 --method all");
  EXPECT_EQ(o.code, 3) << o.out;
  EXPECT_EQ(count_lines(o.out), 1) << o.out;
  EXPECT_EQ(o.out.rfind("warpscope-cli: ", 0), 0u) << o.out;
}

TEST(CliMessages, AllReduceSimTableHasEveryMethodAndSaysItIsModelled) {
  const ws::test::CliOut o = run_cli("allreduce --gpus 4 --bytes 1MiB");
  ASSERT_EQ(o.code, 0) << o.out;
  for (const char* m : {"host_add", "peer_to_gpu0", "ring", "tree", "nccl_ring", "nccl_tree"})
    EXPECT_NE(o.out.find(std::string("\n") + m + " "), std::string::npos) << m << "\n" << o.out;
  EXPECT_NE(o.out.find("method"), std::string::npos);
  EXPECT_NE(o.out.find("busbw"), std::string::npos);
  EXPECT_NE(o.out.find("1.0 MiB"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("NVLink 4 x18"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("simulated"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("NO:"), std::string::npos) << o.out;
  const ws::test::CliOut big = run_cli("allreduce --gpus 2 --method ring --bytes 1GiB");
  EXPECT_EQ(big.code, 0) << big.out;
  EXPECT_NE(big.out.find("checked the first 1048576 elements"), std::string::npos) << big.out;
  EXPECT_NE(run_cli("allreduce --gpus 2 --method ring --link pcie5").out.find("PCIe 5 x16"), std::string::npos);
}

TEST(CliMessages, AllReduceStepsShowWhichChunkMovesAndItsContributors) {
  const ws::test::CliOut o = run_cli("allreduce --method ring --gpus 4 --length 16 --steps");
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("ring all-reduce on 4 GPUs"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("step 1/6  reduce-scatter"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("c0 0->1 +, c1 1->2 +, c2 2->3 +, c3 3->0 +"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("step 4/6  all-gather"), std::string::npos) << o.out;
  // After the reduce-scatter (step 3), GPU i holds every GPU's values in chunk i+1.
  const std::size_t s3 = o.out.find("step 3/6"), s4 = o.out.find("step 4/6");
  ASSERT_NE(s3, std::string::npos);
  const std::string after3 = o.out.substr(s3, s4 - s3);
  // GPU 0 received c3 from GPU 3 (step 1), then c2 (step 2, already 2+3), then c1 (step 3, the rest).
  // A chunk's column is 5 wide on 4 GPUs ("0+1+3"), then two spaces.
  EXPECT_NE(after3.find("GPU 0:  c0 0      c1 all    c2 0+2+3  c3 0+3\n"), std::string::npos) << after3;
  EXPECT_NE(after3.find("GPU 3:  c0 all    c1 1+2+3  c2 2+3    c3 3\n"), std::string::npos) << after3;
  // After the last step every chunk holds all four.
  const std::string last = o.out.substr(o.out.find("step 6/6"));
  EXPECT_NE(last.find("GPU 3:  c0 all    c1 all    c2 all    c3 all\n"), std::string::npos) << last;
  const ws::test::CliOut both = run_cli("allreduce --method all --gpus 3 --length 9 --steps");
  EXPECT_EQ(both.code, 0) << both.out;
  EXPECT_NE(both.out.find("ring all-reduce on 3 GPUs"), std::string::npos);
  EXPECT_NE(both.out.find("tree all-reduce on 3 GPUs"), std::string::npos);
  EXPECT_NE(both.out.find("step 4/4  broadcast"), std::string::npos) << both.out;
}

TEST(CliMessages, AllReduceSweepMarksTheRingTreeCrossover) {
  const ws::test::CliOut o = run_cli("allreduce --method ring,tree --gpus 4 --sweep 4KiB:64MiB");
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("4.0 KiB"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("64.0 MiB"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("<- ring beats tree"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("crossover: ring beats tree from"), std::string::npos) << o.out;
  // Two GPUs: the same two steps, the ring's of half the bytes but two moves: the tree leads small messages.
  const ws::test::CliOut two = run_cli("allreduce --method ring,tree --gpus 2 --sweep 4KiB:64MiB");
  EXPECT_NE(two.out.find("crossover: ring beats tree from 8.0 MiB on"), std::string::npos) << two.out;
}

TEST(CliExitCodes, AllReduceJsonIsAFileTheReaderTakesBack) {
  int code = -1;
  const std::string out = stdout_of("allreduce --gpus 2 --bytes 64KiB --json", code);
  ASSERT_EQ(code, 0) << out;
  const auto results = ws::collective::allreduce_results_from_json(nlohmann::json::parse(out));
  ASSERT_EQ(results.size(), 6u);
  for (const auto& r : results) {
    EXPECT_TRUE(r.ran && r.simulated && r.correct);
    EXPECT_EQ(r.gpus, 2);
    EXPECT_EQ(r.length, 16384);
  }
  const std::string sweep = stdout_of("allreduce --method ring --gpus 4 --sweep 4KiB:16KiB --json", code);
  ASSERT_EQ(code, 0) << sweep;
  EXPECT_EQ(ws::collective::allreduce_results_from_json(nlohmann::json::parse(sweep)).size(), 3u);
}

TEST(CliMessages, AllReduceStepsCoverTwoToEightGpus) {
  for (int n = 2; n <= 8; ++n) {
    const ws::test::CliOut o =
        run_cli("allreduce --method ring,tree --gpus " + std::to_string(n) + " --length 100 --steps");
    ASSERT_EQ(o.code, 0) << o.out;
    const std::string ring_last =
        "step " + std::to_string(2 * (n - 1)) + "/" + std::to_string(2 * (n - 1)) + "  all-gather";
    EXPECT_NE(o.out.find(ring_last), std::string::npos) << n << "\n" << o.out;
    EXPECT_NE(o.out.find("GPU " + std::to_string(n - 1) + ":"), std::string::npos) << n;
    EXPECT_EQ(o.out.find("GPU " + std::to_string(n) + ":"), std::string::npos) << n;
    // The last picture of each schedule: every chunk of every GPU holds all n.
    const std::string tail = o.out.substr(o.out.rfind("step "));
    EXPECT_EQ(tail.find('+'), std::string::npos) << n << "\n" << tail;
  }
}

// --gpu local: every method and size goes to a real `warpscope-cli worker` (one "allreduce" request each), and
// stdout is what the command prints in-process; stderr names the worker and its machine.
TEST(CliAllReduceWorker, ThroughALocalWorkerPrintsWhatInProcessPrints) {
  for (const std::string args :
       {"--gpus 4 --bytes 1MiB", "--method ring,tree --gpus 3 --length 9 --steps",
        "--method ring,tree,nccl_ring,nccl_tree --gpus 4 --sweep 4KiB:256KiB", "--gpus 2 --bytes 64KiB --json",
        "--method ring,peer_to_gpu0 --gpus 8 --bytes 4MiB --link pcie5", "--method tree --gpus 1 --length 5"}) {
    const SplitOut here = run_split("allreduce --backend sim " + args);
    const SplitOut far = run_split("allreduce --backend sim " + args + " --gpu local");
    ASSERT_EQ(here.code, 0) << args << "\n" << here.err;
    EXPECT_EQ(far.code, here.code) << args << "\n" << far.err;
    EXPECT_FALSE(far.out.empty()) << args;
    EXPECT_EQ(far.out, here.out) << args << "\n" << far.err;
    EXPECT_NE(far.err.find("warpscope-cli: worker "), std::string::npos) << far.err;
    EXPECT_NE(far.err.find(" on " + host_name() + ": "), std::string::npos)
        << "stderr names the worker's machine: " << far.err;
  }
}

TEST(CliAllReduceWorker, BadInputIsOneLineBeforeAnyWorkerStarts) {
  expect_one_line("allreduce --gpu cluster", 2, "--gpu 'cluster' is not local, ssh:HOST or slurm:ARGS");
  expect_one_line("allreduce --gpu ssh:", 2, "--gpu ssh:HOST needs a host name");
  expect_one_line("allreduce --gpus 9 --gpu local", 2, "--gpus must be 1 to 8");
  expect_one_line("allreduce --method butterfly --gpu local", 2, "unknown method 'butterfly'");
  expect_one_line("allreduce --link pcie5 --backend cuda --gpu local", 2, "--link chooses the sim's machine");
  expect_one_line("allreduce --gpu local --watchdog -1", 2, "--watchdog");
}

TEST(CliAllReduceWorker, CudaThroughAWorkerWithoutAGpuIsTheWorkersOneLine) {
  if (run_cli("device").code == 0) GTEST_SKIP() << "a CUDA device is present";
  const SplitOut o = run_split("allreduce --backend cuda --gpus 2 --method all --gpu local");
  EXPECT_EQ(o.code, 3) << o.err;
  EXPECT_EQ(o.out, "") << "no table header without a GPU";
  // The worker's start line (its machine, no device), then the refusal its answer carried.
  ASSERT_EQ(count_lines(o.err), 2) << o.err;
  const std::string last = o.err.substr(o.err.find('\n') + 1);
  EXPECT_EQ(last.rfind("warpscope-cli: the worker on " + host_name() + ": ", 0), 0u) << o.err;
  // A CUDA build without a GPU says no GPU is visible; a build without CUDA (the ASan preset) says so.
#if WS_HAVE_CUDA_BUILD
  const std::string why = "no CUDA GPU is visible";
#else
  const std::string why = "this build has no CUDA backend";
#endif
  EXPECT_NE(last.find(why), std::string::npos) << o.err;
  // The same command in-process says the same thing about this machine, with the same code.
  const SplitOut here = run_split("allreduce --backend cuda --gpus 2 --method all");
  EXPECT_EQ(here.code, 3);
  EXPECT_NE(here.err.find(why), std::string::npos) << here.err;
  EXPECT_EQ(count_lines(here.err), 1) << here.err;
}

TEST(CliAllReduceWorker, AWorkerWithoutTheCapabilityIsOneLineNamingIt) {
  // An older warpscope as the local worker ($WARPSCOPE_CLI): its hello offers no "allreduce".
  ws::WorkerHello old;
  old.host = "oldhost";
  old.pid = 1;
  old.version = "0.0.9 (old)";
  old.backends = {ws::BackendKind::Sim};
  old.capabilities = {"run", "trace", "sweep", "live_batch", "cancel", "shutdown"};
  const std::string script = ::testing::TempDir() + "ws_old_worker_" + std::to_string(::getpid()) + ".sh";
  std::ofstream(script) << "#!/bin/sh\necho '" << ws::hello_to_json(old).dump() << "'\nexec cat >/dev/null\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  const SplitOut o = run_split("allreduce --method ring --gpus 2 --gpu local", "WARPSCOPE_CLI=" + script);
  std::filesystem::remove(script);
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_EQ(o.out, "");
  ASSERT_EQ(count_lines(o.err), 2) << o.err;  // the worker's start line, then why nothing ran
  EXPECT_NE(o.err.find("warpscope-cli: the worker on oldhost runs warpscope 0.0.9 (old), which does not answer "
                       "'allreduce' requests"),
            std::string::npos)
      << o.err;
}

TEST(CliAllReduceWorker, TheWorkerRefusesAnAllReduceWithADuplicateKey) {
  const auto r = run_cli(
      "worker <<'EOF'\n"
      "{\"id\":1,\"type\":\"allreduce\",\"request\":{\"method\":\"ring\",\"method\":\"tree\"}}\n"
      "{\"id\":2,\"type\":\"allreduce\",\"request\":{\"method\":\"tree\",\"gpus\":2,\"length\":8}}\n"
      "{\"id\":3,\"type\":\"shutdown\"}\nEOF");
  EXPECT_NE(r.out.find("duplicate key 'method'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"id\":2,\"result\":{"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"type\":\"allreduce\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"bye\""), std::string::npos) << r.out;
}
