// The scan runner's upload (run_scan.cpp), shared with the GPU trace recorder (gpu_trace.cpp), so that a
// recorded trace runs on exactly the buffers and input a timed scan runs on.
#pragma once
#include "cuda_context.hpp"
#include "inputs.hpp"
#include "launch_rules.hpp"
#include "scan/scan_launch.hpp"

namespace ws::cuda {

/// Copies `in` to the scan's input buffer ("scan_in"), fills the output buffer ("scan_out", n elements) with
/// 0xff bytes so that a kernel that skips an element cannot pass by luck, sizes the scratch with `scratch`
/// (nullptr: none), and waits for all of it. Returns the launcher arguments for `launch` (block, grid of
/// the first launch) and `exclusive`. Throws std::runtime_error on CUDA errors.
kernels::ScanArgs upload_scan(CudaContext& ctx, const Input& in, bool exclusive, const LaunchConfig& launch,
                              kernels::ScanScratch scratch);

}  // namespace ws::cuda
