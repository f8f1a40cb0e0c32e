// Linked instead of app/cuda when the build has no CUDA backend.
#include "backend_factory.hpp"

namespace ws {

bool built_with_cuda() { return false; }

std::unique_ptr<Backend> open_cuda_backend(std::string& error) {
#if WS_CUDA_TURNED_OFF
  error =
      "this build has no CUDA backend: CUDA was turned off when it was configured (WS_WITH_CUDA=OFF, as the cpu preset "
      "sets); to run on a GPU, build the default preset (cmake --preset default && cmake --build --preset default)";
#else
  error =
      "this build has no CUDA backend: nvcc was not found when it was configured; install the CUDA toolkit "
      "(/usr/local/cuda) and configure again";
#endif
  return nullptr;
}

}  // namespace ws
