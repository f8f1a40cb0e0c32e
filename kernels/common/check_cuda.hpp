// Every CUDA call of the kernels' host launchers and of the backend is checked: a failing call throws
// with the file and line of the call (check_cuda.cu).
#pragma once
#include <cuda_runtime.h>

namespace ws::kernels {

/// Throws std::runtime_error("file:line: call: message") when a CUDA call fails.
void check_cuda(cudaError_t err, const char* call, const char* file, int line);

}  // namespace ws::kernels

#define WS_CUDA(call) ::ws::kernels::check_cuda((call), #call, __FILE__, __LINE__)
/// After a <<<...>>> launch: reports bad launch configurations at once.
#define WS_LAUNCHED() ::ws::kernels::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
