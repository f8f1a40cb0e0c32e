#include "cuda_backend.hpp"

#include <stdexcept>

#include "cupti_metrics.hpp"
#include "cupti_range_profiler.hpp"
#include "cupti_tracker.hpp"
#include "device_info.hpp"
#include "launch_rules.hpp"
#include "pattern_runner.hpp"

namespace ws::cuda {

CudaBackend::CudaBackend() {
  start_cupti_tracking();  // before the context exists, so every module load is seen (metrics per line)
  ctx_.device = query_device(0);
  if (!ctx_.device.available) return;
  try {
    WS_CUDA(cudaSetDevice(0));
    ctx_.open();
    ctx_.device.copy_gbps = measure_copy_gbps(std::size_t(256) << 20, 10);
  } catch (const std::exception& e) {
    ctx_.device.available = false;
    ctx_.device.error = e.what();
  }
}

CudaBackend::~CudaBackend() {
  release_range_profiler_session();  // while the context is still there
}

RunResult CudaBackend::run(const VariantInfo& v, const RunRequest& req, const Input& in, const LaunchConfig& launch) {
  RunResult r;
  try {
    if (!ctx_.device.available) throw std::runtime_error("CUDA device unavailable: " + ctx_.device.error);
    const PatternRun runner = find_pattern_run(v.pattern);
    if (!runner) throw std::runtime_error(v.id + ": no CUDA runner for the " + v.pattern + " pattern in this build");
    r = runner(ctx_, v, req, in, launch);
  } catch (const std::exception& e) {
    r = RunResult{};
    r.status = "error";
    r.message = e.what();
    // A fault inside a kernel leaves the context unusable: say so once and refuse further runs.
    cudaError_t sticky = ctx_.device.available ? cudaDeviceSynchronize() : cudaSuccess;
    if (sticky != cudaSuccess) {
      ctx_.device.available = false;
      ctx_.device.error = std::string("the CUDA context was lost after ") + v.id + " faulted (" + cudaGetErrorString(sticky) + "); restart warpscope";
    }
  }
  r.backend = "cuda";  // execute fills the request's fields (variant, n, type, input, seed)
  r.device = ctx_.device.name;
  // A runner whose kernels have their own launch shape (convolution: conv_geometry's 2D blocks and
  // grids) reports it; the others launch the resolved 1D `launch` and leave r.launch empty.
  if (r.launch.block == 0) r.launch = launch;
  return r;
}

}  // namespace ws::cuda
