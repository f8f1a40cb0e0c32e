// Hardware metrics of one run (CUPTI): the data every layer shares. The CUPTI code in
// app/cuda fills it; reports carry it (replay without a GPU); the GUI's Metrics panel, Source
// columns and Compare table read it. Metric names are CUPTI/Nsight Compute names
// (e.g. "sm__warps_active.avg.pct_of_peak_sustained_active"), plus warpscope's derived names
// (see the metric catalog).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "pc_sampling.hpp"

namespace ws {

/// Per source line counters from the SASS Metrics API (summed over the instructions of the line).
struct LineMetrics {
  std::string file;                ///< source file as recorded in the line info (basename)
  int line = 0;                    ///< 1-based
  double warp_instructions = 0;    ///< smsp__sass_inst_executed: warp-level instructions issued
  double thread_instructions = 0;  ///< smsp__sass_thread_inst_executed_pred_on: lanes on, summed
  /// thread_instructions / warp_instructions: active lanes per warp instruction (0..32).
  double lanes_per_instruction() const { return warp_instructions > 0 ? thread_instructions / warp_instructions : 0; }
};

/// Metrics of one run's kernel(s). collected = false: see error (no GPU, privileges, unsupported).
struct KernelMetrics {
  bool collected = false;
  std::string error;                     ///< one line, with the fix where there is one
  int passes = 0;                        ///< replay passes the profiler needed
  double profile_ms = 0;                 ///< wall time from request to values, host clock
  std::map<std::string, double> values;  ///< metric name -> value in the catalog's unit
  std::vector<std::string> warnings;     ///< e.g. "skipped X: not supported on this GPU"
  std::vector<LineMetrics> lines;        ///< empty unless per-line metrics were asked for
  std::string kernel;                    ///< the run's main kernel (first launch), for occupancy
  std::string occupancy_limiter;         ///< registers | shared memory | block size | blocks per SM
  std::string asked;                     ///< the --metrics value these were collected for
  PcSampling pc_sampling;                ///< stall reasons per line; collected only for `pcsampling`
  /// `pcsampling` was asked but this process had profiled before (CUPTI gives PC records only to the
  /// first collection of a process): execute() samples in a fresh worker process. Not in reports.
  bool pc_sampling_needs_fresh_process = false;
};

}  // namespace ws
