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
/// disabled again in every case, unless prepare_pc_sampling() enabled it on `ctx` in advance (then it
/// uses that set-up and leaves it enabled).
PcSamplingPass sample_pcs(CUcontext ctx, const std::function<void()>& run);

/// Enables and configures PC sampling on `ctx` now, so that the next sample_pcs() on `ctx` pays none of
/// it (issue 31; on the H100 the enable took 71-93 ms of a fresh process's collection). For a process that
/// collects PC samples once and ends: the fresh PC sampling worker (pc_sampling_worker.hpp) calls it while
/// it waits for its request. PC sampling stays enabled on `ctx` until the process ends, so no range
/// profiler or SASS pass may run in it after this. Enabled and configured, it leaves other processes'
/// range profilers alone; once started (a Start / Stop, or any kernel launch after the enable: the first
/// costs 60-310 ms with the hardware buffer's size), it keeps every other process's range profiler out
/// with CUPTI_ERROR_HARDWARE_BUSY until this process ends, so that cost stays in the collection.
/// Throws CuptiError / std::runtime_error (then nothing stays enabled).
void prepare_pc_sampling(CUcontext ctx);

}  // namespace ws::cuda
