// The cuda backend: real launches on device 0, timed with CUDA events.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "backend.hpp"
#include "cuda_context.hpp"
#include "reduce_launch.hpp"

namespace ws::cuda {

/// Runs reduction variants on the GPU, and the array patterns through their runners (pattern_runner.hpp). Owns the device buffers (grow-only, reused between runs).
/// After a kernel fault the CUDA context is unusable: the backend marks the device unavailable and
/// every later run returns status "error" with the reason, instead of crashing.
class CudaBackend final : public Backend {
 public:
  /// Opens device 0; check device().available. Measures copy bandwidth over 256 MiB.
  CudaBackend();
  ~CudaBackend() override;
  std::string name() const override { return "cuda"; }
  const DeviceInfo& device() const override { return ctx_.device; }
  RunResult run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) override;

 private:
  RunResult run_reduction(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch);
  CudaContext ctx_;  ///< stream, events, buffers and the device (device_ below is ctx_.device)
  DeviceInfo& device_ = ctx_.device;
  std::map<std::string, kernels::ReduceLauncher> launchers_;
};

}  // namespace ws::cuda
