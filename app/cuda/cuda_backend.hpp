// The cuda backend: real launches on device 0, timed with CUDA events.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "backend.hpp"
#include "reduce_launch.hpp"

namespace ws::cuda {

/// Runs reduction variants on the GPU. Owns the device buffers (grow-only, reused between runs).
/// After a kernel fault the CUDA context is unusable: the backend marks the device unavailable and
/// every later run returns status "error" with the reason, instead of crashing.
class CudaBackend final : public Backend {
 public:
  /// Opens device 0; check device().available. Measures copy bandwidth over 256 MiB.
  CudaBackend();
  ~CudaBackend() override;
  std::string name() const override { return "cuda"; }
  const DeviceInfo& device() const override { return device_; }
  RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) override;

 private:
  void* buffer(const char* name, std::size_t bytes);
  DeviceInfo device_;
  std::map<std::string, std::pair<void*, std::size_t>> buffers_;
  std::map<std::string, kernels::ReduceLauncher> launchers_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace ws::cuda
