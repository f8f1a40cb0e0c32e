// One checking macro for CUPTI calls, as WS_CUDA is for CUDA calls (kernels/common/check_cuda.hpp): it
// records file and line. Failures throw CuptiError, which keeps the result code so callers can
// tell missing privileges from an unsupported GPU.
#pragma once
#include <cupti.h>

#include <stdexcept>
#include <string>

namespace ws::cuda {

struct CuptiError : std::runtime_error {
  CUptiResult code;
  CuptiError(CUptiResult c, const std::string& what) : std::runtime_error(what), code(c) {}
};

/// Throws CuptiError("file:line: call: CUPTI's message") unless r is CUPTI_SUCCESS.
void check_cupti(CUptiResult r, const char* call, const char* file, int line);

/// One line for a user: the privilege fix for CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, else what().
std::string explain_cupti_error(const CuptiError& e);

}  // namespace ws::cuda

#define WS_CUPTI(call) ::ws::cuda::check_cupti((call), #call, __FILE__, __LINE__)
