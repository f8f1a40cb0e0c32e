// Test-only CUDA faults (fault_kernels.cu): never linked into warpscope's programs.
#pragma once
#include <string>

namespace ws::test {

/// Launches fault `kind` on device 0: "oob_write" (illegal address), "trap" (__trap()), "endless" (a
/// kernel that never ends), "huge_alloc" (cudaMalloc of twice the device's memory). With `synchronize`
/// it waits for the kernel and returns the CUDA error's text ("" if none) and whether it is sticky;
/// without, it returns "" at once and the fault surfaces in the next CUDA call.
std::string launch_fault(const std::string& kind, bool synchronize, bool& sticky);

}  // namespace ws::test
