// In-process faults on the GPU (the CLI without --gpu): a failed allocation costs one run and leaves no
// error behind for the next; a kernel fault loses the CUDA context, its run says so ("faulted"), and
// every later run of the process says it did not run because of that earlier fault. The tests run in
// file order; the last one loses this process's context (ctest runs each test in its own process).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "backend_factory.hpp"
#include "fault_kernels.hpp"
#include "registry.hpp"
#include "request.hpp"

using namespace ws;

namespace {

Backend& cuda() {
  static std::unique_ptr<Backend> b = [] {
    std::string err;
    auto p = open_cuda_backend(err);
    if (!p) throw std::runtime_error("no CUDA device: " + err);
    return p;
  }();
  return *b;
}

RunResult run(const std::string& variant, std::int64_t n) {
  RunRequest r;
  r.variant = variant;
  r.n = n;
  r.backend = BackendKind::Cuda;
  return execute(r, &cuda());
}

void expect_checked(const RunResult& r) {
  EXPECT_EQ(r.status, RunStatus::Ok) << r.variant << ": " << r.message;
  EXPECT_EQ(r.result, r.expected) << r.variant;
}

}  // namespace

TEST(GpuInProcess, AFailedAllocationOutsideARunIsNotTheNextRunsError) {
  ASSERT_TRUE(cuda().device().available) << cuda().device().error;
  std::size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, total * 2), cudaErrorMemoryAllocation);  // left as the runtime's last error
  expect_checked(run("epita.reduce3", 1 << 20));
  EXPECT_TRUE(cuda().device().available);
}

TEST(GpuInProcess, ARunWhoseBuffersDoNotFitFailsAloneAndTheNextRunIsChecked) {
  expect_checked(run("epita.reduce3", 1 << 20));  // the backend's buffers now hold 2^20 elements
  std::size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  // Leaves at most 48 MiB free: the 2^24-element run's 64 MiB input buffer cannot be allocated.
  void* hog = nullptr;
  for (std::size_t keep = std::size_t(16) << 20; keep <= (std::size_t(48) << 20) && !hog; keep += std::size_t(8) << 20)
    if (cudaMalloc(&hog, free_bytes - keep) != cudaSuccess) hog = nullptr, cudaGetLastError();
  ASSERT_NE(hog, nullptr) << "could not take the device's free memory";
  const RunResult starved = run("epita.reduce3", 1 << 24);
  EXPECT_EQ(starved.status, RunStatus::Error) << starved.message;
  EXPECT_NE(starved.message.find("out of memory"), std::string::npos) << starved.message;
  EXPECT_TRUE(cuda().device().available) << "an allocation failure does not lose the context";
  ASSERT_EQ(cudaFree(hog), cudaSuccess);
  expect_checked(run("epita.reduce3", 1 << 24));  // not the stale "out of memory"
  expect_checked(run("stevens.scan_hierarchical", 1 << 20));
}

TEST(GpuInProcess, AKernelFaultLosesTheContextAndLaterRunsSaySoWithoutClaimingIt) {
  ASSERT_TRUE(cuda().device().available) << cuda().device().error;
  bool sticky = false;
  ASSERT_EQ(test::launch_fault("oob_write", false, sticky), "");  // surfaces in the next run's CUDA calls
  const RunResult faulted = run("epita.reduce3", 1 << 20);
  EXPECT_EQ(faulted.status, RunStatus::Faulted) << faulted.message;
  EXPECT_EQ(faulted.message.rfind("the CUDA context was lost when epita.reduce3 faulted (", 0), 0u) << faulted.message;
  EXPECT_NE(faulted.message.find("illegal memory access"), std::string::npos) << faulted.message;
  EXPECT_FALSE(cuda().device().available);
  for (const char* later : {"harris.impl1", "stevens.scan_hierarchical", "epita.reduce3"}) {
    const RunResult r = run(later, 1 << 20);
    EXPECT_EQ(r.status, RunStatus::Error) << later;
    EXPECT_EQ(
        r.message.rfind("not run: earlier in this process, the CUDA context was lost when epita.reduce3 faulted", 0),
        0u)
        << later << ": " << r.message;
  }
  const VariantInfo* v = find_variant("epita.reduce3");
  ASSERT_NE(v, nullptr);
  Trace model, recorded;
  RunRequest req;
  req.variant = v->id;
  req.n = 1024;
  PreparedRun p;
  ASSERT_EQ(prepare_run(req, p), "");
  const std::string why = cuda().record_trace(*v, p.input, p.launch, 0, model, recorded).message;
  EXPECT_EQ(why.rfind("not run: earlier in this process", 0), 0u) << why;
}
