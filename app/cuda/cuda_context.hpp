// The CUDA state a run needs, shared by the reduction path and the pattern runners (docs/patterns.md):
// one stream, two timing events, named grow-only device buffers, and the device's description.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "backend.hpp"
#include "host_vector.hpp"

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
  /// Copies `bytes` from pageable host memory to the device through two pinned staging buffers
  /// (cudaHostAlloc, kStageBytes each) on `stream`: the host copies chunk k + 1 into one (host threads,
  /// parallel.hpp) while the DMA engine copies chunk k from the other. Returns when the data is on the device.
  void upload(void* device_dst, const void* host_src, std::size_t bytes);
  /// Copies `bytes` from the device through the pinned staging buffers: consume(offset, host, len) is called
  /// once per chunk, in order, with the chunk in pinned memory (valid during the call), while the next chunk
  /// is in flight. consume may use host threads (parallel.hpp) to widen or copy it.
  void download(const void* device_src, std::size_t bytes,
                const std::function<void(std::size_t offset, const void* host, std::size_t len)>& consume);
  /// download() into pageable host memory.
  void download(void* host_dst, const void* device_src, std::size_t bytes);
  /// A run's 1-D output: `n` elements of `type` (int32 or float32, 4 bytes each) downloaded into `out`
  /// (resized to n), widened to double straight from the staging buffers on the host threads (int32 values
  /// are exact in a double). The scan runner and the stencil fixture's download their output through it.
  void download_as_double(const void* device_src, std::int64_t n, DType type, HostVector<double>& out);

  /// Bytes per pinned staging buffer (two are allocated on the first upload or download).
  static constexpr std::size_t kStageBytes = std::size_t(64) << 20;

  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  DeviceInfo device;  ///< the device the context runs on (name, SMs, bandwidths)

 private:
  void open_staging();
  std::map<std::string, std::pair<void*, std::size_t>> buffers_;
  void* stage_[2] = {nullptr, nullptr};             ///< pinned host buffers (cudaHostAlloc)
  cudaEvent_t stage_done_[2] = {nullptr, nullptr};  ///< the last copy that used each buffer finished
};

}  // namespace ws::cuda
