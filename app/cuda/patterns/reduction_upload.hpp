// Uploading a reduction's input, shared by the reduction runner (run_reduction.cpp) and the trace
// recorder (gpu_trace.cpp), so a traced run reads exactly what a timed run reads.
#pragma once
#include "cuda_context.hpp"
#include "inputs.hpp"
#include "reduction/reduce_launch.hpp"
#include "variant.hpp"

namespace ws::cuda {

/// Copies the input to the device ("input"), padded with the op's identity up to the last block's window
/// (block * items_per_thread) rounded to kPadGranule, so the slides' unguarded loads read harmless values;
/// for variants that write their input, `a.data` is a working copy ("work") of `pristine`. Sizes the
/// scratch and result buffers. Throws std::runtime_error on CUDA errors.
kernels::ReduceArgs upload_reduction(CudaContext& ctx, const VariantInfo& v, const Input& in,
                                     const LaunchConfig& launch, void*& pristine);

}  // namespace ws::cuda
