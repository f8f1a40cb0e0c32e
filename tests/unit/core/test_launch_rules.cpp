#include <gtest/gtest.h>

#include "launch_rules.hpp"
#include "registry.hpp"

using namespace ws;

namespace {
std::string check(const char* id, std::int64_t n, int block, std::int64_t grid = 0, DType t = DType::Int32,
                  LaunchConfig* out = nullptr, DeviceShape dev = {}) {
  LaunchConfig r;
  std::string e = resolve_launch(*find_variant(id), n, t, LaunchConfig{block, grid}, dev, r);
  if (out) *out = r;
  return e;
}
}  // namespace

TEST(LaunchRules, TreeVariantsNeedPowerOfTwoBlocks) {
  EXPECT_EQ(check("epita.reduce3", 1000, 256), "");
  EXPECT_NE(check("epita.reduce3", 1000, 96).find("power-of-two"), std::string::npos);
  EXPECT_NE(check("harris.impl1", 1000, 192).find("power-of-two"), std::string::npos);
}

TEST(LaunchRules, Reduce8RunsWith32ThreadsOnly) {
  LaunchConfig r;
  EXPECT_EQ(check("epita.reduce8", 5000, 0, 0, DType::Int32, &r), "");
  EXPECT_EQ(r.block, 32);
  EXPECT_EQ(r.grid, 5);  // ceil(5000 / 1024), the slide's launch
  EXPECT_NE(check("epita.reduce8", 5000, 64).find("32 threads per block only"), std::string::npos);
}

TEST(LaunchRules, GridIsDerivedFromNForOneWindowPerBlock) {
  LaunchConfig r;
  EXPECT_EQ(check("epita.reduce2", 1000, 256, 0, DType::Int32, &r), "");
  EXPECT_EQ(r.grid, 4);
  EXPECT_NE(check("epita.reduce2", 1000, 256, 3).find("needs exactly"), std::string::npos);
  EXPECT_EQ(check("epita.reduce4", 1000, 256, 0, DType::Int32, &r), "");
  EXPECT_EQ(r.grid, 2);  // two elements per thread
}

TEST(LaunchRules, GridStrideKernelsFillOneWaveByDefault) {
  LaunchConfig r;
  EXPECT_EQ(check("epita.reduce5", 1 << 28, 256, 0, DType::Int32, &r, DeviceShape{132, 2048}), "");
  EXPECT_EQ(r.grid, 132 * 8);
  EXPECT_EQ(check("epita.reduce5", 1000, 256, 0, DType::Int32, &r, DeviceShape{132, 2048}), "");
  EXPECT_EQ(r.grid, 4);  // never more blocks than windows
  EXPECT_EQ(check("epita.reduce5", 1000, 256, 7, DType::Int32, &r), "");
  EXPECT_EQ(r.grid, 7);
}

TEST(LaunchRules, DeviceReduceKeepsTheSlidesGridCap) {
  LaunchConfig r;
  EXPECT_EQ(check("cs121.device_reduce", 1 << 28, 0, 0, DType::Int32, &r, DeviceShape{132, 2048}), "");
  EXPECT_EQ(r.block, 512);
  EXPECT_EQ(r.grid, 1024);  // min((N + 511) / 512, 1024)
  EXPECT_NE(check("cs121.device_reduce", 1 << 28, 512, 2048).find("at most 1024"), std::string::npos);
}

TEST(LaunchRules, RejectsBadSizesAndTypes) {
  EXPECT_NE(check("epita.reduce3", 0, 256).find("positive"), std::string::npos);
  EXPECT_NE(check("epita.reduce3", (std::int64_t(1) << 30) + 1, 256).find("too large"), std::string::npos);
  EXPECT_NE(check("epita.reduce3", 100, 2048).find("1..1024"), std::string::npos);
  EXPECT_NE(check("cs121.atomic_max", 100, 256, 0, DType::Float32).find("int32 only"), std::string::npos);
  EXPECT_NE(check("epita.reduce6", 100, 32).find("block sizes"), std::string::npos);  // last warp reads s[tid + 32]
}

TEST(LaunchRules, ParsesCounts) {
  std::int64_t n = 0;
  EXPECT_TRUE(parse_count("1000", n));
  EXPECT_EQ(n, 1000);
  EXPECT_TRUE(parse_count("2^20", n));
  EXPECT_EQ(n, 1 << 20);
  EXPECT_TRUE(parse_count("1<<28", n));
  EXPECT_EQ(n, 1 << 28);
  EXPECT_FALSE(parse_count("0", n));
  EXPECT_FALSE(parse_count("-5", n));
  EXPECT_FALSE(parse_count("12abc", n));
  EXPECT_FALSE(parse_count("3^4", n));
  // Too large is not "not a positive count": the message says which, with the limit.
  std::int64_t m = 7;
  EXPECT_EQ(parse_count_option("--n", "2^30", m), "");
  EXPECT_EQ(m, std::int64_t(1) << 30);
  for (const char* big : {"99999999999999999999", "2^31", "1<<62", "2^63", "2^99999999999999999999", "0001073741825"}) {
    SCOPED_TRACE(big);
    EXPECT_EQ(
        parse_count_option("--n", big, m),
        "--n '" + std::string(big) +
            "' is too large (the limit is 2^30 = 1073741824 elements, so the kernels' int indices cannot overflow)");
  }
  for (const char* bad : {"0", "-5", "12abc", "3^4", "", "2^", "0^0"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(parse_count_option("--n", bad, m),
              "--n '" + std::string(bad) + "' is not a positive count (examples: 1000, 2^20, 1<<20)");
  }
  EXPECT_EQ(m, std::int64_t(1) << 30);  // untouched by refusals
  EXPECT_EQ(round_up(1000, 256), 1024);
  EXPECT_EQ(round_up(1024, 256), 1024);
}
