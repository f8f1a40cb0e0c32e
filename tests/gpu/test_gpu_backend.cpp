// GPU tests of the backend itself: device facts, timing, and the input restore between launches.
#include <gtest/gtest.h>

#include "backend_factory.hpp"
#include "inputs.hpp"
#include "request.hpp"

using namespace ws;

TEST(GpuBackend, ReportsTheDevice) {
  std::string err;
  auto b = open_cuda_backend(err);
  ASSERT_NE(b, nullptr) << err;
  const DeviceInfo& d = b->device();
  EXPECT_FALSE(d.name.empty());
  EXPECT_GT(d.sm_count, 0);
  EXPECT_GT(d.theoretical_gbps, 100);
  EXPECT_GT(d.copy_gbps, 0.3 * d.theoretical_gbps);  // a device copy reaches a good share of the peak
  EXPECT_LT(d.copy_gbps, 1.05 * d.theoretical_gbps);
  std::printf("[ gpu      ] %s: %d SMs, theoretical %.0f GB/s, copy %.0f GB/s\n", d.name.c_str(), d.sm_count,
              d.theoretical_gbps, d.copy_gbps);
}

TEST(GpuBackend, TimesEveryRepeatAndRestoresInPlaceInputs) {
  std::string err;
  auto b = open_cuda_backend(err);
  ASSERT_NE(b, nullptr) << err;
  RunRequest req;
  req.variant = "harris.naive";  // overwrites its input: must be restored before every launch
  req.n = (1 << 20) + 3;
  req.repeat = 5;
  RunResult r = execute(req, b.get());
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  EXPECT_EQ(r.timing.samples_ms.size(), 5u);
  EXPECT_GT(r.timing.median_ms, 0);
  EXPECT_LE(r.timing.min_ms, r.timing.median_ms);
  EXPECT_GE(r.launches, 20);  // ceil(log2(2^20 + 3)) = 21 launches
  EXPECT_GT(r.gbps, 0);
  EXPECT_GT(r.pct_theoretical, 0);
}

TEST(GpuBackend, SequenceInputMatchesItsClosedForm) {
  std::string err;
  auto b = open_cuda_backend(err);
  ASSERT_NE(b, nullptr) << err;
  RunRequest req;
  req.variant = "amp.cascade";
  req.n = 16 * 1024 * 1024 + 5;
  req.input = "sequence";
  RunResult r = execute(req, b.get());
  EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
  // int32 sums wrap on the GPU and in the reference alike (the sequence's sum passes 2^31 here).
  EXPECT_EQ(r.result, double(std::int32_t(std::uint32_t(std::uint64_t(sequence_closed_form_sum(req.n))))));
}
