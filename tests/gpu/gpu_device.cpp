#include "gpu_device.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "backend_factory.hpp"

namespace ws::test {

Backend& gpu() {
  static std::unique_ptr<Backend> b = [] {
    std::string err;
    auto p = open_cuda_backend(err);
    if (!p) throw std::runtime_error("no CUDA device: " + err);
    return p;
  }();
  return *b;
}

}  // namespace ws::test
