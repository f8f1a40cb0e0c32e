// GPU tests of the convolution lesson (ctest label gpu, device only), "CS 677 Lecture 6", Mordohai:
// every convolution variant equals the CPU reference for odd mask widths 1..15, awkward sizes and
// tiles, the slide's 7x7 example gives P[2][2] = 321, and the GPU output equals the sim model's
// (the register-tiled kernel on both its float4 and scalar paths).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "backend_factory.hpp"
#include "gpu_device.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "sim/sim.hpp"

using namespace ws;

namespace {

using ws::test::gpu;  // tests/gpu/gpu_device.hpp

RunRequest request(const std::string& id, std::int64_t width, std::int64_t height, int mask_width, int tile,
                   const std::string& mask = "gauss") {
  RunRequest req;
  req.variant = id;
  req.type = DType::Float32;
  req.params.width = width;
  req.params.height = height;
  req.params.mask_width = mask_width;
  req.params.tile = tile;
  req.params.mask = mask;
  req.repeat = 1;
  req.warmup = 0;
  req.seed = std::uint64_t(width * 131 + height * 7 + mask_width);
  return req;
}

bool fixed_tile(const std::string& id) {
  return id.find("coarse") != std::string::npos || id.find("register") != std::string::npos;
}

std::vector<std::string> conv_ids(int dims) {
  std::vector<std::string> ids;
  for (const auto& v : all_variants())
    if (v.pattern == PatternKind::Convolution && (v.id.find("conv2d") != std::string::npos) == (dims == 2))
      ids.push_back(v.id);
  return ids;
}

}  // namespace

TEST(GpuConvolution, OneDimensionalVariantsEqualTheReference) {
  const auto ids = conv_ids(1);
  ASSERT_EQ(ids.size(), 4u);
  for (const auto& id : ids)
    for (int w : {1, 3, 5, 7, 9, 15})
      for (std::int64_t width :
           {std::int64_t(1), std::int64_t(31), std::int64_t(1000), std::int64_t(4097), (std::int64_t(1) << 20) + 7})
        for (int tile : {0, 32, 100, 1024}) {
          const RunResult r = execute(request(id, width, 0, w, tile), &gpu());
          EXPECT_EQ(r.status, RunStatus::Ok)
              << id << " mask " << w << " width " << width << " tile " << tile << ": " << r.message;
        }
}

TEST(GpuConvolution, TwoDimensionalVariantsEqualTheReference) {
  const auto ids = conv_ids(2);
  ASSERT_EQ(ids.size(), 4u);
  // 1000 and 260 are multiples of 4 (the register-tiled kernel's float4 path), the others not.
  const std::pair<std::int64_t, std::int64_t> sizes[] = {{1, 1}, {7, 7}, {37, 53}, {777, 1000}, {2048, 33}, {70, 260}};
  for (const auto& id : ids)
    for (int w : {1, 3, 5, 7, 9, 15})
      for (auto [h, wd] : sizes)
        for (int tile : {0, 4}) {
          if (tile && fixed_tile(id)) continue;  // fixed 32 x 64 / 128 x 32 tiles
          const RunResult r = execute(request(id, wd, h, w, tile, "box"), &gpu());
          EXPECT_EQ(r.status, RunStatus::Ok)
              << id << " mask " << w << " " << h << "x" << wd << " tile " << tile << ": " << r.message;
        }
}

TEST(GpuConvolution, SlideExampleP22Is321) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "ws_gpu_conv_n.txt") << "1 2 3 4 5 6 7\n2 3 4 5 6 7 8\n3 4 5 6 7 8 9\n4 5 6 7 8 5 6\n"
                                              "5 6 7 8 5 6 7\n6 7 8 9 0 1 2\n7 8 9 0 1 2 3\n";
  std::ofstream(dir + "ws_gpu_conv_m.txt") << "1 2 3 2 1\n2 3 4 3 2\n3 4 5 4 3\n2 3 4 3 2\n1 2 3 2 1\n";
  for (const auto& id : conv_ids(2)) {
    RunRequest req = request(id, 0, 0, 5, fixed_tile(id) ? 0 : 3, dir + "ws_gpu_conv_m.txt");
    req.input = dir + "ws_gpu_conv_n.txt";
    const RunResult r = execute(req, &gpu());
    ASSERT_EQ(r.status, RunStatus::Ok) << id << ": " << r.message;
    ASSERT_EQ(r.output.size(), 49u);
    EXPECT_EQ(r.output[2 * 7 + 2], 321.0) << id;
  }
}

TEST(GpuConvolution, GpuOutputEqualsTheSimModel) {
  // The register-tiled kernel twice: width 301 takes its scalar path, 300 its float4 path.
  const std::pair<std::string, std::int64_t> cases[] = {{"stevens.conv1d_tiled", 100003},
                                                        {"stevens.conv2d_tiled", 301},
                                                        {"stevens.conv2d_tiled_coarse", 301},
                                                        {"stevens.conv2d_register_tiled", 301},
                                                        {"stevens.conv2d_register_tiled", 300}};
  for (const auto& [id, width] : cases) {
    const bool two_d = id.find("conv2d") != std::string::npos;
    RunRequest req = request(id, width, two_d ? 257 : 0, 7, 0);
    const RunResult g = execute(req, &gpu());
    req.backend = BackendKind::Sim;
    const RunResult s = execute(req, nullptr);
    ASSERT_EQ(g.status, RunStatus::Ok) << g.message;
    ASSERT_EQ(s.status, RunStatus::Ok) << s.message;
    ASSERT_EQ(g.output.size(), s.output.size());
    EXPECT_EQ(g.launch.block, s.launch.block);
    EXPECT_EQ(g.launch.grid, s.launch.grid);
    double worst = 0;
    for (std::size_t i = 0; i < g.output.size(); ++i) worst = std::max(worst, std::abs(g.output[i] - s.output[i]));
    EXPECT_LT(worst, 1e-5) << id << " width " << width;  // same order of additions; only fused multiply-adds differ
  }
}
