// What a failed CUDA call leaves behind. A kernel fault (an illegal address, a trap, a misaligned
// access ...) is sticky: the context is lost and every later call in the process returns the same
// error. Other errors (out of memory, a bad launch configuration) fail one call, but the runtime keeps
// them as its "last error" until someone reads it: unread, the next run's cudaGetLastError() would
// report it as that run's own failure.
#pragma once
#include <cuda_runtime.h>

#include <string>

namespace ws::cuda {

/// How bad a CUDA error is for the process that got it.
enum class CudaFault {
  None,         ///< cudaSuccess
  Recoverable,  ///< the call failed; the context is fine once the error is cleared (cudaGetLastError)
  ContextLost,  ///< sticky: the context is unusable until the process ends (CUDA's driver_types.h)
};

/// Classifies an error code: the codes CUDA documents as leaving the process "in an inconsistent
/// state" (illegal address, launch failure or timeout, assert/trap, hardware stack error, illegal
/// instruction, misaligned address, invalid address space or PC, uncorrectable ECC or NVLink errors,
/// a lost MPS client, an external device's error) are ContextLost; every other failure is Recoverable.
CudaFault classify_cuda_error(cudaError_t e);

/// After a run failed: reads and clears the runtime's last error (a recoverable one must not become
/// the next run's), waits for the device, and checks whether the context survived. Returns "" when the
/// device can run again, or the sticky error's text ("an illegal memory access was encountered").
std::string settle_after_failure();

/// One line for a run that lost the context: "the CUDA context was lost when VARIANT faulted (WHY)".
/// `why` is CUDA's error text.
std::string context_lost_message(const std::string& variant, const std::string& why);

/// One line for a run refused because an earlier run lost the context; `lost` is that run's
/// context_lost_message(). Starts with "not run:" so it is never read as this run's own failure.
std::string not_run_message(const std::string& lost);

}  // namespace ws::cuda
