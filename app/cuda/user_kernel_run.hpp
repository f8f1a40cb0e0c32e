// Running a user's kernel (RunRequest::kernel, docs/your-kernel.md) on the GPU: compiled with NVRTC for
// this device (kernel_compile.hpp), loaded and launched with the driver API, timed by time_launches like
// every variant.
#pragma once
#include "common/trace_event.hpp"
#include "cuda_context.hpp"
#include "inputs.hpp"
#include "run_types.hpp"
#include "variant.hpp"

namespace ws::cuda {

/// Compiles req.kernel for ctx.device (cached by source hash), loads it (cuModuleLoadData, modules kept per
/// process), checks the launch against the function's limits (threads per block, shared bytes), uploads
/// the input as the pattern's contract says (KernelContract), runs warm-up and timed launches
/// (cuLaunchKernel on ctx.stream) and downloads the result or output. `v`: user_kernel_variant's;
/// `launch`: resolved (block, grid). Fills what a PatternRun fills, and `code_path` with how the kernel
/// was compiled ("NVRTC 13.0, sm_90, compiled in 0.41 s" or "module cached"). A compile error returns
/// status Error with every diagnostic as `FILE:LINE: error: ...` lines in `message`. Throws
/// std::runtime_error on CUDA errors (the backend turns them into error or faulted).
RunResult run_user_kernel(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                          const LaunchConfig& launch);

/// The traced build of req.kernel.source (traced_compile_options(): its own trace points, on its lines),
/// compiled and loaded as run_user_kernel() does, its sink symbol (kUserTraceSinkSymbol) set to `sink` and
/// the flag switched on, then launched once, untimed, on the input uploaded as for a run. Returns the run
/// (status Ran with the result or output, or Error with the compile's messages; the check is the caller's).
/// Throws std::runtime_error on CUDA errors and when the source has no trace points.
RunResult run_user_kernel_traced(CudaContext& ctx, const VariantInfo& v, const RunRequest& req, const Input& in,
                                 const LaunchConfig& launch, const TraceSink& sink);

}  // namespace ws::cuda
