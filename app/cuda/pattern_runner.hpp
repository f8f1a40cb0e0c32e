// How the CUDA backend runs every pattern (reduction, scan, convolution, atomics): one runner per pattern,
// registered in app/cuda/patterns/run_<pattern>.cpp (docs/patterns.md).
#pragma once
#include <vector>

#include "cuda_context.hpp"
#include "inputs.hpp"
#include "run_types.hpp"
#include "variant.hpp"

namespace ws::cuda {

/// Runs one validated request on the GPU: uploads the input, launches the variant's kernels through
/// kernels/<pattern>/<pattern>_launch.hpp, times them (time_launches, restoring inputs a kernel
/// overwrites), and downloads the result (reductions) or the whole output (output, output_rows,
/// output_cols). Fills timing, timed, launches, host_ms and status = RunStatus::Ran; core fills the request's
/// fields, checks the answer against the CPU reference and computes GB/s from the pattern's bytes. May throw
/// std::runtime_error (CUDA errors,
/// a variant without a kernel); the backend turns that into status "error".
using PatternRun = RunResult (*)(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                                 const LaunchConfig& launch);

/// One pattern's runner, as patterns/run_<pattern>.cpp lists it.
struct PatternRunEntry {
  PatternKind pattern;  ///< the VariantInfo::pattern it runs
  PatternRun run;
};

/// The runner of a pattern, or nullptr when this build has none.
PatternRun find_pattern_run(PatternKind pattern);

}  // namespace ws::cuda
