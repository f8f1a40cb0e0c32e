// Linked instead of app/cuda when the build has no CUDA backend.
#include "backend_factory.hpp"

namespace ws {

bool built_with_cuda() { return false; }

std::unique_ptr<Backend> open_cuda_backend(std::string& error) {
  error = "this build of warpscope has no CUDA backend (nvcc was not found at configure time)";
  return nullptr;
}

}  // namespace ws
