// The CUDA state a run needs, shared by the reduction path and the pattern runners (docs/patterns.md):
// one stream, two timing events, named grow-only device buffers, and the device's description.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <string>
#include <utility>

#include "backend.hpp"

namespace ws::cuda {

/// Owned by CudaBackend; pattern runners get it by reference. Not copyable. Every call that fails
/// throws std::runtime_error (WS_CUDA).
class CudaContext {
 public:
  CudaContext() = default;
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  /// Creates the stream (non-blocking) and the events on the current device.
  void open();
  /// A device buffer of at least `bytes`, kept under `name` and reused (grow-only: a larger request
  /// frees and reallocates it, so earlier pointers to it become invalid). Contents are undefined.
  void* buffer(const std::string& name, std::size_t bytes);

  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  DeviceInfo device;  ///< the device the context runs on (name, SMs, bandwidths)

 private:
  std::map<std::string, std::pair<void*, std::size_t>> buffers_;
};

}  // namespace ws::cuda
