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
void sample_pcs_in_fresh_worker(const RunRequest& req, RunResult& r);

}  // namespace ws
