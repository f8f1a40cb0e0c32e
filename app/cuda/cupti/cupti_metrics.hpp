// Collecting a run's hardware metrics: parses the `--metrics` value, then runs the
// launcher again under the occupancy capture, the CUPTI Range Profiler and the SASS Metrics API
// as the selection needs, restoring inputs before each launch. Never throws: failures land in
// KernelMetrics::error (privileges, unsupported GPU) or warnings (one metric missing).
#pragma once
#include <cuda_runtime.h>

#include <functional>
#include <string>

#include "metrics.hpp"

namespace ws::cuda {

/// `spec` is a RunRequest::metrics value (already validated). `run_once` restores the inputs and
/// enqueues the launcher's work on `stream` (no sync). profile_ms: wall time of this call.
KernelMetrics collect_metrics(const std::string& spec, int device, cudaStream_t stream,
                              const std::function<void()>& run_once);

}  // namespace ws::cuda
