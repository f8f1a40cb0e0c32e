// GPU tests (ctest label gpu, device only): for every deterministic reduction variant, the trace the
// instrumented kernels record on the GPU equals the sim model's trace of the same run (issue 3, part 3):
// same steps, same working threads, and every thread's loads, stores, atomics, shuffles and adds with
// the same addresses, access numbers and values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>

#include "gpu_device.hpp"
#include "backend_factory.hpp"
#include "launch_rules.hpp"
#include "registry.hpp"
#include "sim/sim.hpp"
#include "sim/trace_compare.hpp"

using namespace ws;

namespace {

using ws::test::gpu;  // tests/gpu/gpu_device.hpp

/// Variants with a GPU trace: not racy, not host code, not the CUB library call.
std::vector<std::string> traced_ids() {
  std::vector<std::string> ids;
  for (const auto& v : all_variants())
    if (v.pattern == "reduction" && !v.racy && !v.cpu_only && !v.baseline) ids.push_back(v.id);
  return ids;
}

/// The smallest, the default and the largest block the variant accepts for n.
std::vector<int> blocks_for(const VariantInfo& v, std::int64_t n, DType t) {
  std::vector<int> ok;
  for (int b : {32, 64, 128, 256, 512, 1024}) {
    LaunchConfig want{b, 0}, got;
    if (resolve_launch(v, n, t, want, gpu().device().shape(), got).empty()) ok.push_back(b);
  }
  std::vector<int> pick;
  if (ok.empty()) return pick;
  pick.push_back(ok.front());
  const bool default_ok = std::find(ok.begin(), ok.end(), v.rules.default_block) != ok.end();
  if (default_ok && v.rules.default_block != ok.front() && v.rules.default_block != ok.back())
    pick.push_back(v.rules.default_block);
  if (ok.back() != ok.front()) pick.push_back(ok.back());
  return pick;
}

class GpuTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(GpuTrace, RecordedTraceEqualsTheModel) {
  const VariantInfo* v = find_variant(GetParam());
  ASSERT_NE(v, nullptr);
  const sim::SimModel model = sim::find_model(v->id);
  ASSERT_NE(model, nullptr) << v->id << " has no sim model";
  int compared = 0;
  struct Config { std::int64_t n; DType type; };
  for (const Config c : {Config{1000, DType::Int32}, Config{4097, DType::Int32}, Config{(3 << 18) + 5, DType::Int32},
                         Config{4097, DType::Float32}}) {
    if (c.type == DType::Float32 && v->rules.int_only) continue;
    Input in;
    ASSERT_EQ(make_input("random", c.n, c.type, 777 + std::uint64_t(c.n), in), "");
    for (int block : blocks_for(*v, c.n, c.type)) {
      LaunchConfig launch;
      ASSERT_EQ(resolve_launch(*v, c.n, c.type, LaunchConfig{block, 0}, gpu().device().shape(), launch), "");
      for (std::int64_t b : {std::int64_t(0), launch.grid - 1}) {
        sim::SimOutput sim = model(*v, in, launch, int(b));
        Trace recorded;
        const std::string err = gpu().record_trace(*v, in, launch, int(b), sim.trace, recorded);
        if (err.find("has no trace build") != std::string::npos) GTEST_SKIP() << err;  // e.g. the stevens trees
        ASSERT_EQ(err, "") << v->id;
        // float32: shared and global atomics land in any order, so sums differ in the last bits.
        const std::string diff = compare_traces(sim.trace, recorded, c.type == DType::Float32 ? 1e-5 : 0.0);
        EXPECT_EQ(diff, "") << v->id << " n=" << c.n << " " << to_string(c.type) << " block=" << launch.block
                            << " grid=" << launch.grid << " traced block " << b;
        EXPECT_GT(recorded.steps.size(), 0u);
        ++compared;
        if (b == launch.grid - 1) break;  // grid of one block: compared once
      }
    }
  }
  std::printf("[ trace    ] %s: %d recorded traces equal the model\n", v->id.c_str(), compared);
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(Variants, GpuTrace, ::testing::ValuesIn(traced_ids()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string s = p.param;
                           for (char& ch : s) if (ch == '.') ch = '_';
                           return s;
                         });

TEST(GpuTraceErrors, RacyVariantsAreNotRecorded) {
  const VariantInfo* v = find_variant("epita.race");
  ASSERT_NE(v, nullptr);
  Input in;
  make_input("random", 1000, DType::Int32, 1, in);
  LaunchConfig launch;
  ASSERT_EQ(resolve_launch(*v, 1000, DType::Int32, LaunchConfig{}, gpu().device().shape(), launch), "");
  Trace model, out;
  const std::string err = gpu().record_trace(*v, in, launch, 0, model, out);
  EXPECT_NE(err.find("racy"), std::string::npos) << err;
}

}  // namespace
