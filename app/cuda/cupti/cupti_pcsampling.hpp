// Stall reasons per source line with the CUPTI PC Sampling API (cupti_pcsampling.h): continuous
// collection between cuptiPCSamplingStart and Stop around one run, every stall reason selected, the
// sampled PCs mapped to source lines on the tracked cubins (SourceLineMapper). Call sequence: toolkit
// sample pc_sampling_start_stop (enable, stall reason names, configure, start, run, stop, get data,
// disable).
#pragma once
#include <cuda.h>

#include <functional>
#include <string>
#include <vector>

#include "pc_sampling.hpp"

namespace ws::cuda {

/// Sampling period: one sample every 2^kPcSamplingPeriodLog2 cycles per SM sub-partition (CUPTI takes
/// 5..31). 2^8 gives about 10^5 samples for a 2^24-element reduction on an H100: enough per line,
/// little to parse.
inline constexpr int kPcSamplingPeriodLog2 = 8;

struct PcSamplingPass {
  PcSampling result;
  std::vector<std::string> warnings;  ///< e.g. dropped samples, PCs without a source line
};

/// Runs `run()` (restore inputs, enqueue, synchronize) once with PC sampling on and returns the
/// samples per kernel, reason and line. Throws CuptiError / std::runtime_error; PC sampling is
/// disabled again in every case.
PcSamplingPass sample_pcs(CUcontext ctx, const std::function<void()>& run);

}  // namespace ws::cuda
