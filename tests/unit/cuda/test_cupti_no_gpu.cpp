// The CUPTI layer where there is no GPU (CI, laptops with the toolkit): messages, and a metrics
// request that fails cleanly instead of crashing. Built only with CUDA; runs without a device.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include "cupti/cupti_check.hpp"
#include "cupti/cupti_metrics.hpp"

using namespace ws::cuda;

TEST(CuptiErrors, InsufficientPrivilegesNamesTheFix) {
  std::string m = explain_cupti_error(CuptiError(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "x.cpp:1: call: denied"));
  EXPECT_NE(m.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << m;
  EXPECT_NE(m.find("timings are unaffected"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
  std::string u = explain_cupti_error(CuptiError(CUPTI_ERROR_NOT_SUPPORTED, "x.cpp:2: call: not supported"));
  EXPECT_NE(u.find("does not support"), std::string::npos) << u;
}

TEST(CuptiErrors, CheckMacroThrowsWithFileAndLine) {
  try {
    WS_CUPTI(CUPTI_ERROR_INVALID_PARAMETER);
    FAIL() << "no throw";
  } catch (const CuptiError& e) {
    EXPECT_EQ(e.code, CUPTI_ERROR_INVALID_PARAMETER);
    EXPECT_NE(std::string(e.what()).find("test_cupti_no_gpu.cpp:"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(WS_CUPTI(CUPTI_SUCCESS));
}

TEST(CuptiNoGpu, MetricsRequestFailsCleanlyWithoutADevice) {
  int n = 0;
  if (cudaGetDeviceCount(&n) == cudaSuccess && n > 0) GTEST_SKIP() << "a CUDA device is present";
  bool launched = false;
  ws::KernelMetrics m = collect_metrics("default", 0, nullptr, [&] { launched = true; });
  EXPECT_FALSE(m.collected);
  EXPECT_FALSE(m.error.empty());
  EXPECT_EQ(m.asked, "default");
  EXPECT_FALSE(launched);
}
