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

/// Per source line counters from the SASS Metrics API (summed over the instructions of the line), the
/// ones Nsight Compute's source page shows. Instruction counts are warp-level (one per warp that issued
/// it); a memory counter the GPU does not offer stays 0 and the run's metrics carry a warning.
struct LineMetrics {
  std::string file;                ///< source file as recorded in the line info (basename)
  int line = 0;                    ///< 1-based
  double warp_instructions = 0;    ///< smsp__sass_inst_executed: warp-level instructions issued
  double thread_instructions = 0;  ///< smsp__sass_thread_inst_executed_pred_on: lanes on, summed
  double shared_loads = 0;         ///< smsp__sass_inst_executed_op_shared_ld: shared-memory load instructions
  double shared_stores = 0;        ///< smsp__sass_inst_executed_op_shared_st: shared-memory store instructions
  double shared_atomics = 0;       ///< smsp__sass_inst_executed_op_shared_atom
  /// smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared: shared-memory wavefronts (passes through the
  /// banks); a conflict-free 32-bit access of a warp is one, an n-way bank conflict n.
  double shared_wavefronts = 0;
  double global_loads = 0;    ///< smsp__sass_inst_executed_op_global_ld: global load requests (warp-level)
  double global_stores = 0;   ///< smsp__sass_inst_executed_op_global_st: global store requests
  double global_atomics = 0;  ///< smsp__sass_inst_executed_op_global_atom + _red: global atomic requests
  double global_sectors = 0;  ///< smsp__sass_sectors_mem_global: 32-byte sectors the global requests touched
  /// thread_instructions / warp_instructions: active lanes per warp instruction (0..32).
  double lanes_per_instruction() const { return warp_instructions > 0 ? thread_instructions / warp_instructions : 0; }
  /// Shared-memory instructions of the line (loads, stores, atomics; warp-level).
  double shared_instructions() const { return shared_loads + shared_stores + shared_atomics; }
  /// Wavefronts per shared instruction: the line's bank-conflict ways (1 = conflict-free, 2 = 2-way, up to
  /// 32 for 32-bit words); 0 when the line has no shared instruction or wavefronts were not counted.
  /// 64- and 128-bit accesses need 2 and 4 wavefronts without any conflict.
  double wavefronts_per_shared_instruction() const {
    return shared_instructions() > 0 ? shared_wavefronts / shared_instructions() : 0;
  }
  /// Excess wavefronts over one per shared instruction: bank conflicts, as Nsight Compute counts them
  /// (an n-way conflict costs n - 1); 0 when wavefronts were not counted.
  double bank_conflicts() const {
    return shared_wavefronts > shared_instructions() ? shared_wavefronts - shared_instructions() : 0;
  }
  /// Global memory requests of the line (loads, stores, atomics; one per warp-level instruction).
  double global_requests() const { return global_loads + global_stores + global_atomics; }
  /// Sectors per global request: 4 for a warp's coalesced 4-byte loads (128 bytes), 32 for 32 scattered
  /// lanes; 0 when the line makes no request or sectors were not counted.
  double sectors_per_request() const { return global_requests() > 0 ? global_sectors / global_requests() : 0; }
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
