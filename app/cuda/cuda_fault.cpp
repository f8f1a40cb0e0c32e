#include "cuda_fault.hpp"

namespace ws::cuda {

CudaFault classify_cuda_error(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return CudaFault::None;
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorTensorMemoryLeak:
    case cudaErrorECCUncorrectable:
    case cudaErrorNvlinkUncorrectable:
    case cudaErrorMpsClientTerminated:
    case cudaErrorExternalDevice: return CudaFault::ContextLost;
    default: return CudaFault::Recoverable;
  }
}

std::string settle_after_failure() {
  const cudaError_t last = cudaGetLastError();  // clears a recoverable error; a sticky one stays
  if (classify_cuda_error(last) == CudaFault::ContextLost) return cudaGetErrorString(last);
  const cudaError_t sync = cudaDeviceSynchronize();  // a fault of work still in flight shows here
  if (classify_cuda_error(sync) == CudaFault::ContextLost) return cudaGetErrorString(sync);
  cudaGetLastError();
  // An error this list does not know is sticky if it outlives being read: ask the device once more.
  const cudaError_t again = cudaDeviceSynchronize();
  if (again != cudaSuccess && cudaGetLastError() != cudaSuccess) return cudaGetErrorString(again);
  return "";
}

std::string context_lost_message(const std::string& variant, const std::string& why) {
  return "the CUDA context was lost when " + variant + " faulted (" + why + ")";
}

std::string not_run_message(const std::string& lost) { return "not run: earlier in this process, " + lost; }

}  // namespace ws::cuda
