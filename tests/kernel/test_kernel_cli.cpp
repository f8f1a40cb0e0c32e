// warpscope-cli run --kernel without a GPU (CUDA_VISIBLE_DEVICES hides any): compile errors as
// FILE:LINE: lines, one line saying a GPU is needed and how, and the option checks.
#include <gtest/gtest.h>

#include <cstdlib>

#include "unit/cli/cli_runner.hpp"

using ws::test::run_cli;

namespace {

std::string kernel(const std::string& name) {
  setenv("CUDA_VISIBLE_DEVICES", "", 1);  // the CLI started next sees no GPU, on any machine
  return std::string(WS_TEST_DIR) + "/kernels/" + name;
}

}  // namespace

TEST(KernelCli, ACompileErrorIsPrintedOnItsLine) {
  const auto out = run_cli("run --kernel " + kernel("reduce_broken.cu") + " --n 4096");
#if WS_HAVE_CUDA_BUILD
  EXPECT_EQ(out.code, 1) << out.out;
  EXPECT_NE(out.out.find(kernel("reduce_broken.cu") + ":7: error: identifier \"undeclared_value\" is undefined"),
            std::string::npos)
      << out.out;
#else
  EXPECT_EQ(out.code, 3) << out.out;
  EXPECT_NE(out.out.find("cannot compile it either (no NVRTC)"), std::string::npos) << out.out;
#endif
}

TEST(KernelCli, WithoutAGpuItSaysInOneLineHowToRunIt) {
  const auto out = run_cli("run --kernel " + kernel("reduce_good.cu") + " --n 4096");
  EXPECT_EQ(out.code, 3) << out.out;  // kNoDevice
  EXPECT_EQ(ws::test::count_lines(out.out), 1) << out.out;
  EXPECT_NE(out.out.find("over ssh (--gpu ssh:HOST) or through Slurm (--gpu 'slurm:ARGS')"), std::string::npos)
      << out.out;
#if WS_HAVE_CUDA_BUILD
  EXPECT_NE(out.out.find("reduce_good.cu compiles (NVRTC"), std::string::npos) << out.out;
#endif
}

TEST(KernelCli, OptionsAreChecked) {
  auto out = run_cli("run");
  EXPECT_EQ(out.code, 2);
  EXPECT_NE(out.out.find("run needs --variant ID or --kernel FILE.cu"), std::string::npos) << out.out;
  out = run_cli("run --variant epita.reduce3 --kernel " + kernel("reduce_good.cu"));
  EXPECT_EQ(out.code, 2);
  EXPECT_NE(out.out.find("give --variant or --kernel, not both"), std::string::npos) << out.out;
  out = run_cli("run --variant epita.reduce3 --like epita.reduce4");
  EXPECT_EQ(out.code, 2);
  EXPECT_NE(out.out.find("go with --kernel FILE.cu"), std::string::npos) << out.out;
  out = run_cli("run --kernel /nonexistent/k.cu");
  EXPECT_EQ(out.code, 2);
  EXPECT_NE(out.out.find("--kernel /nonexistent/k.cu: "), std::string::npos) << out.out;
  out = run_cli("run --kernel " + kernel("reduce_good.cu") + " --pattern fixture");
  EXPECT_EQ(out.code, 2);
  EXPECT_NE(out.out.find("--pattern fixture: kernels may follow the contract of reduction, scan, convolution, atomics"),
            std::string::npos)
      << out.out;
  out = run_cli("run --kernel " + kernel("reduce_good.cu") + " --backend sim");
  EXPECT_EQ(out.code, 2);
  EXPECT_NE(out.out.find("the simulator runs the built-in variants' thread models only"), std::string::npos) << out.out;
  out = run_cli("run --kernel " + kernel("reduce_good.cu") + " --like stevens.kogge_stone --pattern reduction");
  EXPECT_EQ(out.code, 2);
  EXPECT_NE(out.out.find("is a scan variant"), std::string::npos) << out.out;
}
