// Stall reasons per source line from the CUPTI PC Sampling API: every 2^period cycles each SM
// sub-partition samples one warp's program counter and why it did not issue (or that it did:
// "selected"). The CUDA backend maps the sampled PCs to source lines (-lineinfo) and hands raw records
// here; aggregation, JSON and checks are plain C++, so reports replay without a GPU.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ws {

/// Samples of one stall reason (short name, see stall_reasons.hpp).
struct StallCount {
  std::string reason;
  double samples = 0;
};

/// One source line's samples, by reason (most samples first).
struct LineStalls {
  std::string file;  ///< basename, as in the line info
  int line = 0;      ///< 1-based
  double samples = 0;
  std::vector<StallCount> reasons;
};

/// One kernel (function) of the run: its samples by reason and by line.
struct KernelStalls {
  std::string kernel;               ///< function name as CUPTI reports it (mangled)
  double samples = 0;               ///< all its samples (lines + unmapped)
  double unmapped_samples = 0;      ///< samples whose PC has no source line
  std::vector<StallCount> reasons;  ///< most samples first
  std::vector<LineStalls> lines;    ///< by file, then line
};

/// The PC sampling result of one run. collected = false: nothing sampled (see KernelMetrics::error).
struct PcSampling {
  bool collected = false;
  int period_log2 = 0;                ///< sampling period: 2^period_log2 cycles per SM sub-partition
  double hardware_samples = 0;        ///< CUPTI's totalSamples (largest reported per range, summed over ranges):
                                      ///< all samples, other kernels' and dropped ones included
  double dropped_samples = 0;         ///< lost to a full hardware buffer
  bool hardware_buffer_full = false;  ///< CUPTI said its hardware buffer filled: the counts are incomplete
  std::vector<KernelStalls> kernels;  ///< most samples first
  double samples() const;             ///< sum over kernels
};

/// A sampled PC as the backend hands it over: its kernel, its source line (line 0 = unknown) and its
/// samples per CUPTI stall reason name.
struct PcRecord {
  std::string kernel;
  std::string file;
  int line = 0;
  std::vector<std::pair<std::string, double>> stalls;  ///< (CUPTI name, samples)
};

/// Sums records per kernel, per reason and per (file, line). CUPTI names that stall_reason_name maps
/// to "" are not counted (their samples are counted under their own reason already).
std::vector<KernelStalls> aggregate_pc_records(const std::vector<PcRecord>& records);

/// Sorts most samples first; ties in the order of stall_reasons() (reasons it lacks last).
void sort_by_samples(std::vector<StallCount>& reasons);

/// Share of `k`'s samples on lines of `file` (0..1; 0 when it has none).
double share_in_file(const KernelStalls& k, const std::string& file);

/// Reasons summed over every kernel of a run, most samples first.
std::vector<StallCount> total_reasons(const PcSampling& p);

/// The run object's "metrics"."pc_sampling": {"collected","period_log2","hardware_samples",
/// "dropped_samples","hardware_buffer_full","kernels":[{"kernel","samples","unmapped_samples",
/// "reasons":[{"reason","samples"}],"lines":[{"file","line","samples","reasons":[...]}]}]}.
nlohmann::json pc_sampling_to_json(const PcSampling& p);
/// Inverse of pc_sampling_to_json. Throws std::runtime_error naming the field: a missing or mistyped
/// field, a negative or non-finite count, a line < 1, a line whose reasons do not add up to its samples.
/// "hardware_buffer_full" may be missing (reports of before 2026-12-06): false.
PcSampling pc_sampling_from_json(const nlohmann::json& j);

}  // namespace ws
