// GPU tests of the scan variants (ctest label gpu, device only): every GPU variant equals the CPU reference
// on awkward sizes, inclusive and exclusive, int32 exactly and float32 within the scan's tolerance.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>

#include "backend_factory.hpp"
#include "gpu_device.hpp"
#include "launch_rules.hpp"
#include "registry.hpp"
#include "request.hpp"

using namespace ws;

namespace {

using ws::test::gpu;  // tests/gpu/gpu_device.hpp

const Input& input_for(std::int64_t n, DType t) {
  static std::map<std::pair<std::int64_t, int>, Input> cache;
  auto key = std::make_pair(n, int(t));
  auto it = cache.find(key);
  if (it == cache.end()) {
    Input in;
    make_input("random", n, t, 4242 + std::uint64_t(n), in);
    it = cache.emplace(key, std::move(in)).first;
  }
  return it->second;
}

RunResult run_once(const VariantInfo& v, std::int64_t n, DType t, int block, bool exclusive) {
  RunRequest req;
  req.variant = v.id;
  req.n = n;
  req.type = t;
  req.launch.block = block;
  req.repeat = 1;
  req.warmup = 0;
  req.params.exclusive = exclusive;
  PreparedRun p;
  p.variant = &v;
  p.input = input_for(n, t);
  return execute_prepared(req, p, &gpu());
}

bool allowed(const VariantInfo& v, std::int64_t n, DType t, int block) {
  LaunchConfig r;
  return resolve_launch(v, n, t, LaunchConfig{block, 0}, DeviceShape{}, r).empty();
}

std::vector<std::string> scan_ids() {
  std::vector<std::string> ids;
  for (const auto& v : all_variants())
    if (v.pattern == PatternKind::Scan && !v.cpu_only) ids.push_back(v.id);
  return ids;
}

const std::vector<std::int64_t> kSizes = {1,    2,    31,   33,     1000,          1024,         2047,
                                          2048, 4095, 4097, 100003, (1 << 20) + 7, (1 << 24) + 3};
const std::vector<int> kBlocks = {0, 32, 64, 128, 256, 512, 1024};

class GpuScan : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(GpuScan, Int32EqualsTheReference) {
  const VariantInfo& v = *find_variant(GetParam());
  int cases = 0;
  for (std::int64_t n : kSizes)
    for (int block : kBlocks) {
      if (!allowed(v, n, DType::Int32, block)) continue;
      for (bool ex : {false, true}) {
        RunResult r = run_once(v, n, DType::Int32, block, ex);
        SCOPED_TRACE(v.id + " n=" + std::to_string(n) + " block=" + std::to_string(block) + (ex ? " exclusive" : "") +
                     ": " + r.message);
        ASSERT_NE(r.status, RunStatus::Error);
        EXPECT_EQ(r.status, RunStatus::Ok);
        ++cases;
      }
    }
  EXPECT_GT(cases, 0);
  std::printf("[ gpu      ] %-26s %d int32 cases\n", v.id.c_str(), cases);
}

TEST_P(GpuScan, Float32WithinRounding) {
  const VariantInfo& v = *find_variant(GetParam());
  for (std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t(4097), std::int64_t((1 << 20) + 7)})
    for (bool ex : {false, true}) {
      if (!allowed(v, n, DType::Float32, 0)) continue;
      RunResult r = run_once(v, n, DType::Float32, 0, ex);
      SCOPED_TRACE(v.id + " float32 n=" + std::to_string(n) + (ex ? " exclusive" : "") + ": " + r.message);
      EXPECT_EQ(r.status, RunStatus::Ok);
    }
}

// The look-back across many tiles: 2^26 + 5 int32 (16385 tiles of 4096) against the reference.
TEST(GpuScanLarge, DecoupledLookbackAndHierarchicalAt2To26) {
  for (const char* id : {"scan.decoupled_lookback", "stevens.scan_hierarchical", "cub.scan"})
    for (bool ex : {false, true}) {
      RunResult r = run_once(*find_variant(id), (std::int64_t(1) << 26) + 5, DType::Int32, 0, ex);
      EXPECT_EQ(r.status, RunStatus::Ok) << id << (ex ? " exclusive" : "") << ": " << r.message;
    }
  // float32 across 4097 tiles: the look-back's sums stay within the scan's rounding tolerance.
  RunResult f =
      run_once(*find_variant("scan.decoupled_lookback"), (std::int64_t(1) << 24) + 3, DType::Float32, 0, false);
  EXPECT_EQ(f.status, RunStatus::Ok) << f.message;
}

// The look-back waits before its first read only from 1024 tiles on (kLookbackWaitMinTiles in
// kernels/scan/decoupled_lookback.cu): 1023 full tiles (no wait) and 1023 tiles + 1 element (1024 tiles,
// wait), at every block size it takes, inclusive and exclusive.
TEST(GpuScanLarge, DecoupledLookbackAroundTheWaitThreshold) {
  const VariantInfo& v = *find_variant("scan.decoupled_lookback");
  constexpr std::int64_t kLookbackWaitMinTiles = 1024;
  for (int block : {128, 256, 512})
    for (std::int64_t n : {std::int64_t(kLookbackWaitMinTiles - 1) * block * 16,
                           std::int64_t(kLookbackWaitMinTiles - 1) * block * 16 + 1})
      for (bool ex : {false, true}) {
        RunResult r = run_once(v, n, DType::Int32, block, ex);
        EXPECT_EQ(r.status, RunStatus::Ok)
            << "n=" << n << " block=" << block << (ex ? " exclusive" : "") << ": " << r.message;
      }
}

INSTANTIATE_TEST_SUITE_P(Scans, GpuScan, ::testing::ValuesIn(scan_ids()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string s = i.param;
                           for (char& c : s)
                             if (c == '.') c = '_';
                           return s;
                         });
