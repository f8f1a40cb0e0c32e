#include <exception>

#include "backend_factory.hpp"
#include "cuda_backend.hpp"

namespace ws {

bool built_with_cuda() { return true; }

std::unique_ptr<Backend> open_cuda_backend(std::string& error) {
  try {
    auto b = std::make_unique<cuda::CudaBackend>();
    if (!b->device().available) {
      error = b->device().error.empty() ? "no CUDA device" : b->device().error;
      return nullptr;
    }
    return b;
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}

}  // namespace ws
