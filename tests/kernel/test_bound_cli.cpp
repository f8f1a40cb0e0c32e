// `warpscope-cli bound` without a GPU: the three runs go to ws_synthetic_kernel_worker (--gpu local), whose
// times, DRAM bytes and occupancy for the original, the memory-only and the compute-only copy are set by
// SYNTH_BOUND_MS, SYNTH_BOUND_DRAM_MB and SYNTH_BOUND_OCC (made-up numbers: the plumbing and the slides'
// reading are tested, not a GPU). Without a worker, bound says in one line where it can run; bad requests
// are one line. The GPU runs the real copies in tests/gpu/test_gpu_bound.cpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "unit/cli/cli_runner.hpp"

using ws::test::run_cli;

namespace {

/// The three runs' made-up numbers, each "ORIGINAL,MEMORY,COMPUTE", and the synthetic worker as --gpu local.
void synthetic(const char* ms, const char* dram_mb, const char* occ) {
  setenv("WARPSCOPE_CLI", WS_SYNTHETIC_KERNEL_WORKER, 1);
  setenv("SYNTH_BOUND_MS", ms, 1);
  setenv("SYNTH_BOUND_DRAM_MB", dram_mb, 1);
  setenv("SYNTH_BOUND_OCC", occ, 1);
}

bool has(const std::string& out, const std::string& what) { return out.find(what) != std::string::npos; }

}  // namespace

TEST(CliBound, ThreeRunsReadAsTheSlidesSay) {
  // Memory-only at 0.95x of the original, compute-only at 0.30x: the memory-only copy alone takes about the
  // original's time, so global memory bounds it. Same DRAM bytes, same occupancy: fair.
  synthetic("1.0,0.95,0.3", "67.1,67.0,0.5", "90,89,90");
  const auto out = run_cli("bound --variant epita.reduce3 --n 2^20 --gpu local");
  EXPECT_EQ(out.code, 0) << out.out;
  EXPECT_TRUE(has(out.out, "epita.reduce3: written for epita.reduce3 as the slides do it")) << out.out;
  EXPECT_TRUE(has(out.out, "copy             time ms   x orig   DRAM rd MB  occupancy  check")) << out.out;
  EXPECT_TRUE(has(out.out, "original          1.0000     1.00        67.10     90.0 %  ok")) << out.out;
  EXPECT_TRUE(has(out.out, "memory-only       0.9500     0.95        67.00     89.0 %  ran (answer not checked"))
      << out.out;
  EXPECT_TRUE(has(out.out, "compute-only      0.3000     0.30         0.50     90.0 %")) << out.out;
  EXPECT_TRUE(has(out.out, "fair   memory-only moves the original's DRAM bytes")) << out.out;
  EXPECT_FALSE(has(out.out, "UNFAIR")) << out.out;
  EXPECT_TRUE(has(out.out, "verdict: memory bound: memory-only 0.95x, compute-only 0.30x")) << out.out;
}

TEST(CliBound, ComputeLatencyAndBothAreReadToo) {
  synthetic("2.0,0.5,1.9", "67,67,1", "50,50,50");
  auto out = run_cli("bound --variant harris.impl1 --gpu local");
  EXPECT_EQ(out.code, 0) << out.out;
  EXPECT_TRUE(has(out.out, "verdict: compute bound")) << out.out;
  synthetic("1.0,0.6,0.45", "67,67,1", "50,50,50");
  out = run_cli("bound --variant harris.impl1 --gpu local");
  EXPECT_TRUE(has(out.out, "verdict: latency bound")) << out.out;
  synthetic("1.0,0.97,0.95", "67,67,1", "50,50,50");
  out = run_cli("bound --variant harris.impl1 --gpu local");
  EXPECT_TRUE(has(out.out, "verdict: optimize both")) << out.out;
}

TEST(CliBound, JsonCarriesTheRunsTheChecksAndTheVerdict) {
  // The memory-only copy moves 40 MB of the original's 67: an unfair copy, said as such.
  synthetic("1.0,0.6,0.45", "67,40,1", "50,50,30");
  const auto out = run_cli("bound --variant harris.impl3 --gpu local --json");
  EXPECT_EQ(out.code, 0) << out.out;
  const std::size_t brace = out.out.find("{\n");  // after the worker's line on stderr
  ASSERT_NE(brace, std::string::npos) << out.out;
  const nlohmann::json j = nlohmann::json::parse(out.out.substr(brace));
  EXPECT_EQ(j["format"], "warpscope-bound");
  EXPECT_EQ(j["variant"], "harris.impl3");
  EXPECT_EQ(j["copies"], "hand-written");
  EXPECT_EQ(j["verdict"], "latency bound");
  EXPECT_FALSE(j["fair"].get<bool>());
  ASSERT_EQ(j["runs"].size(), 3u);
  EXPECT_EQ(j["runs"][1]["copy"], "memory-only");
  int failed = 0;
  for (const auto& c : j["checks"]) failed += c["state"] == "fail";
  EXPECT_EQ(failed, 2) << j["checks"].dump();  // the bytes, and the compute-only copy's occupancy
}

TEST(CliBound, YourKernelGetsCopiesToAdjust) {
  synthetic("1.0,1.0,1.0", "10,10,10", "50,50,50");
  const auto out = run_cli("bound --variant epita.reduce3 --kernel " + std::string(WS_TEST_DIR) +
                           "/kernels/reduce_good.cu --gpu local");
  EXPECT_EQ(out.code, 0) << out.out;
  EXPECT_TRUE(has(out.out, "epita.reduce3: starting points: both copies are your kernel as it is")) << out.out;
  EXPECT_TRUE(has(out.out, "UNFAIR compute-only moves little")) << out.out;  // the TODOs are not done yet
}

TEST(CliBound, WithoutAGpuItSaysInOneLineHowToRunIt) {
  setenv("CUDA_VISIBLE_DEVICES", "", 1);  // the CLI started next sees no GPU, on any machine
  const auto out = run_cli("bound --variant epita.reduce3 --n 4096");
  EXPECT_EQ(out.code, 3) << out.out;  // kNoDevice
  EXPECT_EQ(ws::test::count_lines(out.out), 1) << out.out;
  EXPECT_TRUE(has(out.out, "over ssh (--gpu ssh:HOST) or through Slurm (--gpu 'slurm:ARGS')")) << out.out;
#if WS_HAVE_CUDA_BUILD
  EXPECT_TRUE(has(out.out, "epita.reduce3.bound.cu compiles (NVRTC")) << out.out;
#endif
}

TEST(CliBound, BadRequestsAreOneClearLine) {
  const struct {
    const char* args;
    const char* says;
  } cases[] = {
      {"bound", "bound needs --variant ID"},
      {"bound --variant nope.nothing", "unknown variant 'nope.nothing' (bound knows: epita.reduce3, harris.impl1"},
      {"bound --variant epita.reduce4",
       "epita.reduce4 has no hand-written memory-only and compute-only copies (bound knows: epita.reduce3"},
      {"bound --variant epita.reduce3 --hand-written --from-text", "choose one of --hand-written and --from-text"},
      {"bound --variant epita.reduce4 --hand-written --kernel " WS_TEST_DIR "/kernels/reduce_good.cu",
       "--hand-written: epita.reduce4 has no hand-written copies"},
      {"bound --variant epita.reduce3 --kernel /nonexistent/k.cu", "--kernel /nonexistent/k.cu: "},
      {"bound --variant stevens.kogge_stone --kernel " WS_TEST_DIR "/kernels/reduce_good.cu", "is a scan variant"},
      {"bound --variant epita.reduce3 --n 0", "--n '0' is not a positive count"},
  };
  for (const auto& c : cases) {
    const auto out = run_cli(c.args);
    EXPECT_EQ(out.code, 2) << c.args << "\n" << out.out;
    EXPECT_EQ(ws::test::count_lines(out.out), 1) << c.args << "\n" << out.out;
    EXPECT_TRUE(has(out.out, c.says)) << c.args << "\n" << out.out;
  }
}
