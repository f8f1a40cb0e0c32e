// GPU tests of the atomics lesson (ctest label gpu, device only): every non-racy atomics variant equals
// the CPU reference (filters whose slots come from atomics as multisets), on awkward sizes and kept
// fractions; the race demo really loses updates; the sim model of the ordered filters matches the GPU.
#include <gtest/gtest.h>

#include <memory>

#include "backend_factory.hpp"
#include "common/arch_paths.hpp"
#include "gpu_device.hpp"
#include "patterns/atomics/reference.hpp"
#include "registry.hpp"
#include "request.hpp"

using namespace ws;

namespace {

using ws::test::gpu;  // tests/gpu/gpu_device.hpp

RunRequest request(const std::string& id, std::int64_t n, int block = 0, double keep = 0.5) {
  RunRequest req;
  req.variant = id;
  req.n = n;
  req.launch.block = block;
  req.repeat = 1;
  req.warmup = 1;
  req.seed = 4242 + std::uint64_t(n);
  req.params.keep_fraction = keep;
  return req;
}

RunResult run(const RunRequest& req) { return execute(req, &gpu()); }

}  // namespace

TEST(GpuAtomics, RaceLosesUpdates) {
  // The slide's launch: 1000 blocks of 1000 threads doing *d_a += 1.
  const RunResult r = run(request("cs121.race", 1000000));
  ASSERT_NE(r.status, RunStatus::Error) << r.message;
  ASSERT_EQ(r.output.size(), 1u);
  EXPECT_EQ(r.expected, 1000000.0);
  EXPECT_EQ(r.status, RunStatus::Race) << r.message;
  EXPECT_LT(r.output[0], 1000000.0);  // updates were lost
  EXPECT_GE(r.output[0], 1.0);
  std::printf("[ gpu ] cs121.race: expected 1000000, got %.0f\n", r.output[0]);
}

TEST(GpuAtomics, AtomicCounterCountsEveryThread) {
  for (std::int64_t n : {1000LL, 1000000LL, 64000000LL}) {
    const RunResult r = run(request("cs121.atomic_counter", n));
    EXPECT_EQ(r.status, RunStatus::Ok) << n << ": " << r.message;
    EXPECT_EQ(r.result, double(n));
  }
  const RunResult r32 = run(request("cs121.atomic_counter", 1 << 20, 32));
  EXPECT_EQ(r32.status, RunStatus::Ok) << r32.message;
}

TEST(GpuAtomics, HistogramsEqualTheReference) {
  for (const char* id : {"cs121.hist_global", "cs121.hist_shared", "cs121.hist_shared_vec", "cub.histogram"}) {
    for (std::int64_t n : {1LL, 31LL, 1000LL, (1LL << 20) + 7, (1LL << 24) + 13, 1LL << 28}) {
      for (int block : {0, 1024}) {
        SCOPED_TRACE(std::string(id) + " n=" + std::to_string(n) + " block=" + std::to_string(block));
        const RunResult r = run(request(id, n, block));
        EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
        EXPECT_EQ(r.output.size(), 256u);
        EXPECT_EQ(r.result, double(n));
      }
    }
  }
  // All bytes equal: every atomic hits one bin (the most contended case).
  RunRequest ones = request("cs121.hist_shared", 1 << 24);
  ones.input = "ones";
  const RunResult r = run(ones);
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.output.at(1), double(1 << 24));
}

TEST(GpuAtomics, FiltersEqualTheReference) {
  for (const char* id : {"cs121.filter_global", "cs121.filter_shared", "cs121.filter_warp_agg", "cs121.filter_scan",
                         "cs121.filter_scan_vec", "cub.select"}) {
    for (std::int64_t n : {1LL, 33LL, 4097LL, (1LL << 20) + 7, (1LL << 24) + 5}) {
      for (double keep : {0.0, 0.1, 0.5, 1.0}) {
        SCOPED_TRACE(std::string(id) + " n=" + std::to_string(n) + " keep=" + std::to_string(keep));
        const RunResult r = run(request(id, n, 0, keep));
        EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
        EXPECT_EQ(r.result, r.expected);
      }
    }
  }
}

TEST(GpuAtomics, OrderedFiltersKeepTheInputOrder) {
  // filter_scan and cub.select are checked element by element (the hooks compare them exactly); the
  // atomic filters only as multisets. Here the scan filter must equal its sim model value for value.
  for (const char* id : {"cs121.filter_scan", "cs121.filter_scan_vec", "cub.select"}) {
    RunRequest gpu_req = request(id, (1 << 22) + 3, 0, 0.3), sim_req = gpu_req;
    sim_req.backend = BackendKind::Sim;
    const RunResult g = run(gpu_req), s = execute(sim_req, nullptr);
    ASSERT_EQ(g.status, RunStatus::Ok) << g.message;
    ASSERT_EQ(s.status, RunStatus::Ok) << s.message;
    EXPECT_EQ(compare_exact(g.output, s.output), "") << id;
  }
}

TEST(GpuAtomics, FilterScanVecWithBothBlocksEqualsItsSimModel) {
  // Sizes around whole tiles (4096 and 8192 values) and n % 4 != 0, so the scalar last tile and the
  // partial quads at both ends of every tile's store are exercised.
  for (int block : {128, 256}) {
    for (std::int64_t n : {4095LL, 4096LL, 8193LL, (1LL << 21) + 3, (1LL << 23) + 8191}) {
      for (double keep : {0.0, 0.3, 1.0}) {
        SCOPED_TRACE("block=" + std::to_string(block) + " n=" + std::to_string(n) + " keep=" + std::to_string(keep));
        RunRequest gpu_req = request("cs121.filter_scan_vec", n, block, keep), sim_req = gpu_req;
        sim_req.backend = BackendKind::Sim;
        const RunResult g = run(gpu_req), s = execute(sim_req, nullptr);
        ASSERT_EQ(g.status, RunStatus::Ok) << g.message;
        ASSERT_EQ(s.status, RunStatus::Ok) << s.message;
        EXPECT_EQ(g.result, g.expected);
        EXPECT_EQ(compare_exact(g.output, s.output), "");
      }
    }
  }
}

TEST(GpuAtomics, WarpAggregatedFilterWithOtherBlockSizes) {
  for (int block : {32, 96, 1000}) {
    const RunResult r = run(request("cs121.filter_warp_agg", 100003, block == 1000 ? 992 : block, 0.5));
    EXPECT_EQ(r.status, RunStatus::Ok) << block << ": " << r.message;
  }
}

// The two kernels with a Turing path (kernels/common/arch_paths.cuh) say which path ran, and that is
// the path this build compiled for this GPU: the sm_80 path on Hopper, the pre-sm_80 path when the
// build forces it (preset device-pre-sm80). Their results are checked by the tests above either way.
TEST(GpuArchPaths, RunsSayWhichPathRan) {
  const DeviceInfo& d = gpu().device();
  const bool sm80 = kernels::sm80_path(d.cc_major * 10 + d.cc_minor);
  RunRequest filter = request("cs121.filter_scan_vec", (1 << 20) + 3);
  RunRequest conv = request("stevens.conv2d_tiled_coarse", 0);
  conv.type = DType::Float32;
  conv.params.width = 1000;
  conv.params.height = 777;
  conv.params.mask = "gauss";
  conv.params.mask_width = 5;
  for (const RunRequest& req : {filter, conv}) {
    const RunResult r = run(req);
    ASSERT_EQ(r.status, RunStatus::Ok) << req.variant << ": " << r.message;
    EXPECT_NE(r.code_path.find(sm80 ? "(sm_80 path)" : "(pre-sm_80 path)"), std::string::npos)
        << req.variant << ": " << r.code_path;
    std::printf("[ gpu ] %s on cc %d.%d: %s\n", req.variant.c_str(), d.cc_major, d.cc_minor, r.code_path.c_str());
  }
  const RunResult one_path = run(request("cs121.filter_scan", 1 << 20));
  EXPECT_EQ(one_path.code_path, "");
}
