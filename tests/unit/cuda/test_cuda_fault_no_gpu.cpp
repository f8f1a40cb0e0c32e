// What a failed CUDA call leaves behind, without a GPU: which error codes lose the context for the
// rest of the process (a kernel fault) and which fail one call only (an allocation), and the lines a
// faulted run and the runs after it carry. The GPU side: tests/gpu/test_gpu_context_lost.cpp.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include "cuda_fault.hpp"

using namespace ws::cuda;

TEST(CudaFault, KernelFaultsLoseTheContext) {
  for (cudaError_t e : {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorAssert, cudaErrorIllegalInstruction,
                        cudaErrorMisalignedAddress, cudaErrorInvalidAddressSpace, cudaErrorInvalidPc,
                        cudaErrorHardwareStackError, cudaErrorLaunchTimeout, cudaErrorECCUncorrectable})
    EXPECT_EQ(classify_cuda_error(e), CudaFault::ContextLost) << cudaGetErrorName(e);
}

TEST(CudaFault, AllocationAndLaunchConfigurationErrorsAreRecoverable) {
  for (cudaError_t e : {cudaErrorMemoryAllocation, cudaErrorInvalidValue, cudaErrorInvalidConfiguration,
                        cudaErrorLaunchOutOfResources, cudaErrorInvalidDeviceFunction, cudaErrorNotReady})
    EXPECT_EQ(classify_cuda_error(e), CudaFault::Recoverable) << cudaGetErrorName(e);
  EXPECT_EQ(classify_cuda_error(cudaSuccess), CudaFault::None);
}

TEST(CudaFault, TheFaultedRunAndTheRunsAfterItSayWhatHappened) {
  const std::string lost = context_lost_message("epita.reduce3", cudaGetErrorString(cudaErrorIllegalAddress));
  EXPECT_EQ(lost, "the CUDA context was lost when epita.reduce3 faulted (an illegal memory access was encountered)");
  const std::string later = not_run_message(lost);
  EXPECT_EQ(later.rfind("not run: ", 0), 0u) << later;  // never read as the later run's own error
  EXPECT_NE(later.find("earlier in this process"), std::string::npos) << later;
  EXPECT_NE(later.find("epita.reduce3 faulted"), std::string::npos) << later;
}
