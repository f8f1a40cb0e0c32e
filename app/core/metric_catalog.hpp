// The metric catalog: which hardware metrics warpscope measures, their units, a two-line
// explanation for students, how each is collected (CUPTI Range Profiler, SASS per-instruction
// metrics, the CUDA occupancy API, or derived from others), and how the sim model predicts it where
// it can. Pure C++: the CLI lists it without a GPU, the CUDA backend collects from it, views explain
// with it. Names are Nsight Compute / CUPTI names (checked on an H200 with
// `ncu --query-metrics --chip gh100`); derived and API values use the prefix "ws__".
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "metrics.hpp"

namespace ws {

/// Where a metric's value comes from.
enum class MetricSource {
  Range,      ///< CUPTI Range Profiler, one value for the whole run (all its kernel launches)
  PerLine,    ///< CUPTI SASS Metrics API, per instruction, summed per source line (LineMetrics)
  Sass,       ///< CUPTI SASS Metrics API, summed over the run's kernels (same patched run as PerLine)
  Occupancy,  ///< CUDA occupancy API on the run's main kernel (theoretical, no counters)
  Derived,    ///< computed from other metrics of the run (inputs)
  PcSampling  ///< CUPTI PC Sampling API: a pass of its own, stall reasons per line (KernelMetrics::pc_sampling)
};
const char* to_string(MetricSource s);

/// One metric of the catalog.
struct MetricDef {
  std::string name;         ///< CUPTI name (e.g. "smsp__inst_executed.sum") or "ws__..." for ours
  std::string short_name;   ///< what tables show, e.g. "warp instructions"; accepted by the parser
  std::string unit;         ///< e.g. "ns", "%", "warp inst", "bytes", "lanes", "1/ns" (per ns = G per s)
  std::string group;        ///< duration, occupancy, execution, shared memory, atomics, memory, barriers
  std::string explain;      ///< two lines for students, separated by '\n'
  bool in_default = false;  ///< part of `--metrics default`
  MetricSource source = MetricSource::Range;
  std::vector<std::string> inputs;  ///< Derived: the metrics it is computed from
  std::string prediction;           ///< how the sim model predicts it ("" = the model does not)
};

/// Every metric warpscope knows, in display order (groups together).
const std::vector<MetricDef>& metric_catalog();

/// The catalog entry for a CUPTI name or a short name, or nullptr.
const MetricDef* find_metric(const std::string& name_or_short);

/// A parsed `--metrics` value: what to show and what to collect.
struct MetricSelection {
  std::vector<const MetricDef*> metrics;   ///< as asked, catalog order, no repeats
  std::vector<std::string> range_metrics;  ///< Range names to collect (asked ones + inputs of derived)
  bool per_line = false;                   ///< a PerLine metric was asked for: run the SASS pass, keep lines
  bool sass = false;                       ///< a Sass metric (or a derived metric's input) was asked: SASS pass
  bool occupancy = false;                  ///< an Occupancy metric was asked for
  bool pc_sampling = false;                ///< the PC sampling pass was asked for
  bool empty() const { return metrics.empty(); }
};

/// Parses `default`, `all`, or a comma-separated list of catalog names / short names (spaces
/// around commas allowed; `default` and `all` may be mixed with names). "" selects nothing.
/// Returns "" or one line, e.g. "unknown metric 'foo' (warpscope-cli metrics lists them)".
std::string parse_metric_selection(const std::string& spec, MetricSelection& out);

/// Adds the Derived metrics of `sel` to m.values from their inputs where every input was measured;
/// a derived metric whose inputs are missing (or whose denominator is 0) is left out, with a warning
/// naming what is missing.
void derive_metrics(const MetricSelection& sel, KernelMetrics& m);

/// Values the sim model predicts for one run, keyed by metric name (see MetricDef::prediction).
/// Inputs: per-block counts from the model's trace of one block, scaled by the grid; n and the
/// element size for bytes. Each count is what the slide's code does, not what the compiler emits.
struct PredictionInputs {
  std::int64_t n = 0;
  int element_bytes = 4;
  std::int64_t grid = 0;              ///< blocks of the traced (first) launch
  double shared_load_conflicts = 0;   ///< per block: sum over warp-wide shared loads of (ways - 1)
  double shared_store_conflicts = 0;  ///< per block: the same for stores
  double shared_loads = 0;            ///< per block: warp-wide shared loads with a lane on (not predicted:
                                      ///< the GPU also issues predicated-off ones)
  double global_atomics = 0;          ///< per block: thread-level global atomic operations
  double shared_atomics = 0;          ///< per block: warp-wide shared atomic instructions
  double tree_lanes_per_warp = 0;     ///< mean active lanes of the warps that work in the tree steps
};
std::map<std::string, double> predict_metrics(const PredictionInputs& in);

/// Theoretical occupancy from the occupancy API's inputs (CUDA occupancy calculator rules, sm_75+):
/// resident blocks per SM = min of the limits from warps, registers, shared memory and the block cap;
/// `limiter` names the smallest ("block size", "registers", "shared memory", "blocks per SM"; ties in
/// that order). Used to explain the API's answer; the backend takes the API's block count itself.
struct OccupancyLimits {
  int blocks_by_warps = 0, blocks_by_registers = 0, blocks_by_shared = 0, blocks_by_cap = 0;
};
std::string occupancy_limiter(const OccupancyLimits& l);

/// Human text of a value in its unit: "4.71 M", "38.2 %", "12.3 us" (ns metrics), "1.02 GB".
std::string format_metric_value(const MetricDef& d, double v);

}  // namespace ws
