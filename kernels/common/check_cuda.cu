#include "common/check_cuda.hpp"

#include <stdexcept>
#include <string>

namespace ws::kernels {

void check_cuda(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                           cudaGetErrorString(err));
}

}  // namespace ws::kernels
