// Per source line metrics with the CUPTI SASS Metrics API (cupti_sass_metrics.h): the kernels are
// patched to count smsp__sass_inst_executed (warp instructions),
// smsp__sass_thread_inst_executed_pred_on (lanes on) and the memory counters of Nsight Compute's source
// page (shared and global instructions, shared wavefronts, global sectors) per SASS instruction; a memory
// counter the chip does not offer is left out with a warning. Program counters are
// mapped to source lines with cuptiGetSassToSourceCorrelation on the module's cubin (kernels are
// built with -lineinfo), as Nsight Compute's source page does. Call sequence: toolkit sample
// sass_metrics (config, enable, run, flush, disable, unset).
#pragma once
#include <cuda.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "metrics.hpp"

namespace ws::cuda {

/// What one patched run counted: per source line, and each SASS metric summed over the kernel.
struct LineProfile {
  std::vector<LineMetrics> lines;        ///< sorted by file, then line; lines with no instruction left out
  std::map<std::string, double> totals;  ///< every SASS metric collected, summed over all instructions
                                         ///< (kSassCounters: branches, atomics; see metric_catalog)
  std::vector<std::string> warnings;     ///< e.g. instructions whose line is unknown
};

/// The SASS metrics collected besides the two per-line ones, summed kernel-wide into totals (the
/// catalog's MetricSource::Sass entries): one patched run serves them all.
extern const char* const kSassCounters[5];

/// Runs `run()` (restore inputs, enqueue, synchronize) once with SASS patching on and returns the
/// per-line sums. Throws CuptiError / std::runtime_error; leaves patching off in every case.
LineProfile profile_lines(CUcontext ctx, int device, const std::function<void()>& run);

}  // namespace ws::cuda
