// GPU tests (ctest label gpu, device only): every variant against the CPU reference.
#include <gtest/gtest.h>

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

/// Inputs are generated once per (n, type) and shared by every case.
const Input& input_for(std::int64_t n, DType t) {
  static std::map<std::pair<std::int64_t, int>, Input> cache;
  auto key = std::make_pair(n, int(t));
  auto it = cache.find(key);
  if (it == cache.end()) {
    Input in;
    make_input("random", n, t, 12345 + std::uint64_t(n), in);
    it = cache.emplace(key, std::move(in)).first;
  }
  return it->second;
}

RunResult run_once(const VariantInfo& v, std::int64_t n, DType t, int block) {
  RunRequest req;
  req.variant = v.id;
  req.n = n;
  req.type = t;
  req.launch.block = block;
  req.repeat = 1;
  req.warmup = 0;
  PreparedRun p;
  p.variant = &v;
  p.input = input_for(n, t);
  return execute_prepared(req, p, &gpu());
}

std::vector<std::string> gpu_variant_ids() {
  std::vector<std::string> ids;
  for (const auto& v : all_variants())
    if (!v.cpu_only && v.pattern == PatternKind::Reduction)
      ids.push_back(v.id);  // array patterns: test_gpu_<pattern>.cpp
  return ids;
}

const std::vector<std::int64_t> kSizes = {1, 31, 1000, (1 << 20) + 7, 1 << 26};
const std::vector<int> kBlocks = {32, 64, 128, 256, 512, 1024};

bool allowed(const VariantInfo& v, std::int64_t n, DType t, int block) {
  LaunchConfig r;
  return resolve_launch(v, n, t, LaunchConfig{block, 0}, DeviceShape{}, r).empty();
}

class GpuVariant : public ::testing::TestWithParam<std::string> {};

}  // namespace

// Non-racy variants equal the CPU reference for every n and every block size they allow (int32
// exactly); racy variants lose updates at large n; reduce8 reproduces its slide's bug exactly.
TEST_P(GpuVariant, MatchesTheCpuReference) {
  const VariantInfo& v = *find_variant(GetParam());
  int cases = 0;
  for (std::int64_t n : kSizes) {
    for (int block : kBlocks) {
      if (!allowed(v, n, DType::Int32, block)) continue;
      RunResult r = run_once(v, n, DType::Int32, block);
      SCOPED_TRACE(v.id + " n=" + std::to_string(n) + " block=" + std::to_string(block) + ": " + r.message);
      ASSERT_NE(r.status, RunStatus::Error);
      ++cases;
      if (v.racy) {
        if (n == kSizes.back()) EXPECT_EQ(r.status, RunStatus::Race) << "the race should show at n = 2^26";
      } else if (v.cautionary) {
        EXPECT_TRUE(r.status == RunStatus::SlideBug || r.status == RunStatus::Ok) << r.status;
        if (n >= 4096) EXPECT_EQ(r.status, RunStatus::SlideBug);
      } else {
        EXPECT_EQ(r.status, RunStatus::Ok);
      }
    }
  }
  EXPECT_GT(cases, 0) << "no block size of {32..1024} is allowed";
  std::printf("[ gpu      ] %-22s %d int32 cases\n", v.id.c_str(), cases);
}

// float32 over sizes up to 2^20+7, default block plus 128 and 1024 where allowed.
TEST_P(GpuVariant, Float32WithinRounding) {
  const VariantInfo& v = *find_variant(GetParam());
  if (v.rules.int_only || v.racy || v.cautionary) GTEST_SKIP() << "int32 only, racy or cautionary";
  for (std::int64_t n : {std::int64_t(1), std::int64_t(1000), std::int64_t((1 << 20) + 7)}) {
    for (int block : {0, 128, 1024}) {
      if (block && !allowed(v, n, DType::Float32, block)) continue;
      RunResult r = run_once(v, n, DType::Float32, block);
      SCOPED_TRACE(v.id + " float32 n=" + std::to_string(n) + " block=" + std::to_string(block) + ": " + r.message);
      EXPECT_EQ(r.status, RunStatus::Ok);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllReductions, GpuVariant, ::testing::ValuesIn(gpu_variant_ids()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string s = i.param;
                           for (char& c : s)
                             if (c == '.') c = '_';
                           return s;
                         });

// epita.tuned folds one partial per tile in a fixed order, whichever block took a tile: its float32 sum
// has the same bits in every run, and those of its sim model (models_epita.cpp), which adds in the
// kernel's order. Sizes: one partial tile, whole tiles, a ragged last tile and vector; blocks 1024, 256.
TEST(GpuTuned, Float32SumIsTheSameEveryRunAndEqualsItsModel) {
  const VariantInfo& v = *find_variant("epita.tuned");
  for (std::int64_t n : {std::int64_t(1000), std::int64_t(1) << 22, (std::int64_t(1) << 24) + 4097}) {
    for (int block : {1024, 256}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " block=" + std::to_string(block));
      const RunResult first = run_once(v, n, DType::Float32, block);
      ASSERT_EQ(first.status, RunStatus::Ok) << first.message;
      for (int r = 0; r < 3; ++r) EXPECT_EQ(run_once(v, n, DType::Float32, block).result, first.result);
      RunRequest sim;
      sim.variant = v.id;
      sim.n = n;
      sim.type = DType::Float32;
      sim.launch.block = block;
      sim.seed = 12345 + std::uint64_t(n);  // input_for's input
      sim.backend = BackendKind::Sim;
      const RunResult model = execute(sim, nullptr);
      ASSERT_EQ(model.status, RunStatus::Ok) << model.message;
      EXPECT_EQ(model.result, first.result) << "GPU " << first.result << ", model " << model.result;
    }
  }
}
