// What the sim model predicts for the hardware metrics: per-block counts taken
// from the trace of one block (trace/analyses vocabulary), to be scaled by the grid with
// predict_metrics() (metric_catalog.hpp). The slide's code, not the compiler's: the Metrics view
// says where the two differ (warp-aggregated atomics, the counter's floor of conflicts).
#pragma once
#include "metric_catalog.hpp"
#include "trace/trace.hpp"

namespace ws {

/// Counts of one traced block: shared loads/stores grouped into warp-wide instructions by
/// (warp, access) with their n-way bank conflicts (ways - 1 extra wavefronts each), thread-level
/// global atomics, warp-wide shared atomics, and the mean active lanes of the warps with at least one
/// working lane over the "tree" steps. n, element_bytes and grid are left for the caller.
PredictionInputs prediction_inputs(const Trace& t);

}  // namespace ws
