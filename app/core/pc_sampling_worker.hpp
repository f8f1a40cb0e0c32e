// PC sampling in a fresh worker process. CUPTI hands out PC records only to the first PC sampling
// collection of a process that has not profiled before (measured on the H100: a second collection,
// or one after a range profiler or SASS pass, gets sample totals and no PC record), so a long-lived
// process (the GUI's worker, a report of several variants) samples each later run in a child
// `warpscope-cli worker` started for that one request.
#pragma once
#include "run_types.hpp"

namespace ws {

/// Runs `req` once more with metrics "pcsampling" only (one timed launch, no warm-up) in a fresh local
/// worker and moves its PC samples, ws__pc_samples and warnings into `r.metrics`, with a warning that
/// says where they came from. A worker that cannot start, fails or faults leaves `r` checked and timed
/// as it was, with the reason in r.metrics.warnings. Never throws.
/// With prepare_pc_sampling_worker() called before, the fresh worker is one started in advance (its
/// process start, CUDA context, first upload and PC sampling's enable already paid, with a 32 MiB
/// hardware buffer), and the next one is started as this one is used; a run whose r.timing.median_ms
/// over warm launches (req.warmup > 0, or 3 launches or more) is over 0.4 ms gets a worker started now
/// with CUPTI's default 512 MiB buffer instead, as 32 MiB might not hold its samples. A run whose samples
/// did not fit in 32 MiB (CUPTI said its buffer filled, or dropped samples) is sampled again in a worker
/// with 512 MiB, with a warning that says so. The used worker is stopped in the background.
void sample_pcs_in_fresh_worker(const RunRequest& req, RunResult& r);

/// Starts, in the background, the fresh worker process the next PC sampling request will use, and keeps
/// one ready after each use from then on (issue 31: the user's request should not pay a process start and
/// a CUDA context, about 0.9 s on the H200 machine). Called by `warpscope-cli worker` when it is idle
/// after its metrics warm-up; a no-op in a worker started for PC sampling, or where no warpscope-cli is
/// found. The ready worker holds a CUDA context of its own. Never throws.
void prepare_pc_sampling_worker();

/// Waits until the PC sampling workers already used have exited. A used worker is stopped in the
/// background (its exit, about 85 ms on the H100 machine, is not the user's wait), and until it has
/// exited it holds the GPU's profiling hardware (CUPTI_ERROR_HARDWARE_BUSY for a range profiler here):
/// execute() calls this before a run with metrics. Never throws.
void wait_for_stopping_pc_sampling_workers();

/// Stops the worker kept ready (and stops keeping one): the serving worker calls it before it exits.
void release_pc_sampling_worker();

/// What the ready-worker keeping did in this process, for tests and logs.
struct PcSamplingWorkerStats {
  int started = 0;     ///< fresh worker processes started for PC sampling (ready or on demand)
  int from_ready = 0;  ///< requests served by a worker that was started in advance
};
PcSamplingWorkerStats pc_sampling_worker_stats();

}  // namespace ws
