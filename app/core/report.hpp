// Reports: versioned JSON files of runs (device, build, parameters, results). Written by the CLI,
// opened by the GUI (replay). Format "warpscope-report", version 1:
// {"format":"warpscope-report","version":1,"created":ISO-8601,"title":str,
//  "build":{"version","git","cuda_runtime","compiler"},
//  "device":{"available","name","cc","sm_count","max_threads_per_sm","memory_gib","mem_clock_mhz","sm_clock_mhz"
// (optional),
//            "bus_width_bits","theoretical_gbps","copy_gbps","driver","runtime"} ,
//  "runs":[ run objects as run_to_json() writes them ],
//  "traces":[ step traces as trace_to_store_json() writes them ] (optional: GPU recordings),
//  "sweeps":[ sweep objects as sweep_to_json() writes them ] (optional; absent in older reports)}
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "device.hpp"
#include "file_write.hpp"
#include "run_types.hpp"
#include "sweep.hpp"
#include "trace/trace.hpp"

namespace ws {

constexpr int kReportVersion = 1;
/// Array outputs up to this many elements are stored in the run's JSON ("output"); larger ones are not.
constexpr std::size_t kMaxJsonOutput = 4096;
/// What one report may hold; a file with more is refused on load (the views stay interactive, the
/// load stays in seconds). The largest recorded here: about 60 runs, 10 x 19 sweep points, 30 traces.
constexpr std::size_t kMaxReportRuns = 10000;
constexpr std::size_t kMaxReportSweeps = 64;
constexpr std::size_t kMaxSweepRuns = 10000;  ///< points (runs) of one sweep
constexpr std::size_t kMaxReportTraces = 256;

struct Report {
  std::string created;  ///< ISO-8601 UTC
  std::string title;
  std::string build_version, build_git, build_cuda_runtime, build_compiler;
  DeviceInfo device;
  std::vector<RunResult> runs;
  std::vector<Trace> traces;  ///< step traces recorded with the runs (replayed by the step-through views)
  std::vector<Sweep> sweeps;  ///< size sweeps (sweep.hpp); written only when there are some
};

/// One run as JSON: variant, lesson, n, type, input, seed, block, grid, backend, device, result,
/// expected, correct, status, message, racy, cautionary, time_ms (median; null if untimed),
/// time_min_ms, time_max_ms, times_ms, launches, bytes, gbps, pct_theoretical, pct_copy (null if untimed);
/// array patterns add params (exclusive, mask_width, tile, width, height, mask, keep_fraction), output_rows,
/// output_cols and output (<= kMaxJsonOutput elements; 2D as rows); runs that recorded their host times add
/// host_ms {input, upload, launches, model, download, reference, check, metrics, other, total} (HostTimes,
/// milliseconds; optional when read: older reports load without it); runs checked under compute-sanitizer
/// add sanitizer (sanitizer.hpp, attached by scripts/merge_reports.py --sanitizer; optional).
nlohmann::json run_to_json(const RunResult& r);
/// Inverse of run_to_json; throws std::runtime_error naming the missing/mistyped field.
RunResult run_from_json(const nlohmann::json& j);

/// The array patterns' parameters as a run object's "params": {"exclusive","mask_width","tile","width",
/// "height","mask","keep_fraction"} (output_path is not kept). from_json: missing fields take the defaults.
nlohmann::json params_to_json(const PatternParams& p);
/// The parameters a run of `variant` reads, as its run object's "params": a scan's "exclusive", a
/// convolution's "mask_width", "tile", "mask" (2-D: "width", "height"), a filter's "keep_fraction" (a
/// histogram none);
/// every field for a variant this build does not know (an older or newer report's).
nlohmann::json params_to_json(const std::string& variant, const PatternParams& p);
PatternParams params_from_json(const nlohmann::json& j);

/// Hardware metrics of a run as JSON (the run object's "metrics", present when metrics were asked):
/// {"asked","collected","error","passes","profile_ms","values":{name: value in the catalog's unit},
///  "warnings":[str],"kernel","occupancy_limiter","lines":[{"file","line","warp_instructions",
///  "thread_instructions","lanes_per_instruction","shared_loads","shared_stores","shared_atomics",
///  "shared_wavefronts","wavefronts_per_shared_instruction","bank_conflicts","global_loads","global_stores",
///  "global_atomics","global_sectors","sectors_per_request"}] (counts warp-level, as LineMetrics; the
///  ratios are written for readers and recomputed on load),"pc_sampling" (when sampled: pc_sampling_to_json)}.
/// Reports without it load with no metrics.
nlohmann::json metrics_to_json(const KernelMetrics& m);
/// Inverse of metrics_to_json; throws std::runtime_error on a malformed line entry.
KernelMetrics metrics_from_json(const nlohmann::json& j);

nlohmann::json device_to_json(const DeviceInfo& d);
DeviceInfo device_from_json(const nlohmann::json& j);

nlohmann::json report_to_json(const Report& r);
/// Throws std::runtime_error on a wrong format, a newer version or a malformed run.
Report report_from_json(const nlohmann::json& j);

/// Fills created/build fields for a report made now by this build.
Report new_report(const std::string& title, const DeviceInfo& device);

/// Writes / reads a report file. Errors: std::runtime_error with the path and the reason. `policy`: what the
/// write may replace at `path` (file_write.hpp; the CLI keeps an existing report unless --force).
void save_report(const Report& r, const std::string& path, const OutputPolicy& policy = {});
Report load_report(const std::string& path);

}  // namespace ws
