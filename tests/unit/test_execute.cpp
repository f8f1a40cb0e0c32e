#include <gtest/gtest.h>

#include "inputs.hpp"
#include "registry.hpp"
#include "request.hpp"

using namespace ws;

TEST(Execute, CpuVariantRunsWithoutADevice) {
  RunRequest req;
  req.variant = "amp.sequential";
  req.n = 1000;
  req.input = "sequence";
  req.repeat = 3;
  RunResult r = execute(req, nullptr, "test");
  EXPECT_EQ(r.status, "ok") << r.message;
  EXPECT_EQ(r.result, double(sequence_closed_form_sum(1000)));
  EXPECT_TRUE(r.timed);
  EXPECT_EQ(r.timing.samples_ms.size(), 3u);
}

TEST(Execute, GpuVariantWithoutDeviceSaysHowToGoOn) {
  RunRequest req;
  req.variant = "epita.reduce3";
  req.n = 1000;
  RunResult r = execute(req, nullptr, "no driver");
  EXPECT_EQ(r.status, "error");
  EXPECT_NE(r.message.find("no CUDA device"), std::string::npos);
  EXPECT_NE(r.message.find("report"), std::string::npos);
}

TEST(Execute, ValidatesBeforeRunning) {
  RunRequest req;
  req.variant = "epita.reduce3";
  req.launch.block = 100;
  EXPECT_NE(execute(req, nullptr).message.find("power-of-two"), std::string::npos);
  req.variant = "nope";
  EXPECT_NE(execute(req, nullptr).message.find("unknown variant"), std::string::npos);
  req.variant = "epita.reduce3";
  req.launch.block = 0;
  req.input = "/nonexistent.txt";
  EXPECT_NE(execute(req, nullptr).message.find("cannot open"), std::string::npos);
}

TEST(Execute, Reduce8SlideModelCountsOverlappingWindows) {
  const VariantInfo* v = find_variant("epita.reduce8");
  ASSERT_NE(v->slide_model, nullptr);
  Input in;
  ASSERT_EQ(make_input("ones", 4096, DType::Int32, 1, in), "");
  // 4 blocks of 32 threads; block b reads [32b, 32b + 1024): 4 full windows of ones.
  EXPECT_EQ(v->slide_model(in, LaunchConfig{32, 4}), 4096.0);
  ASSERT_EQ(make_input("sequence", 4096, DType::Int32, 1, in), "");
  // Windows start at 0, 32, 64, 96 and hold s..s+1023 (the sequence does not repeat below 4096):
  // sum over s of (1024 s + 1023 * 1024 / 2).
  double want = 0;
  for (int s : {0, 32, 64, 96}) want += 1024.0 * s + 1023.0 * 1024.0 / 2.0;
  EXPECT_EQ(v->slide_model(in, LaunchConfig{32, 4}), want);
  ASSERT_EQ(make_input("ones", 100, DType::Int32, 1, in), "");
  EXPECT_EQ(v->slide_model(in, LaunchConfig{32, 1}), 100.0);  // one block: the bug does not show
}
