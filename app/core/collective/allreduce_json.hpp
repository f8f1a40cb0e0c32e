// The JSON of the lesson "Reduction across GPUs" (issue 30): AllReduceResults written by
// `warpscope-cli allreduce --json` and read back (a run recorded on 2 and 4 GPUs, bundled under
// assets/reports for students without GPUs). Read like reports (report.cpp): every field's type and range
// is checked and a bad file is refused with one line naming the field.
//
// {"format": "warpscope-allreduce", "version": 1, "results": [
//   {"method": "ring", "gpus": 4, "length": 67108864, "bytes": 268435456, "ran": true, "simulated": false,
//    "correct": true, "error": "", "detail": "", "median_ms": 1.02, "step_ms": [0.17, ...],
//    "algbw_gbs": 263.1, "busbw_gbs": 394.7, "peer_gbs": 390.2, "link_gbs": 450, "link": "NVLink 4 x18",
//    "device_names": ["NVIDIA H200", ...]}, ...]}
// "bytes" (length * 4) is written for readers; the reader checks that it agrees.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "collective/allreduce_run.hpp"

namespace ws::collective {

/// The "format" tag of an all-reduce file, and the newest version this build writes and reads.
inline constexpr const char* kAllReduceFormat = "warpscope-allreduce";
inline constexpr int kAllReduceVersion = 1;

/// The most results one file may hold (a sweep of 19 sizes x 6 methods x 8 GPU counts is under 1000).
inline constexpr std::size_t kMaxAllReduceResults = 100000;

/// One result as a JSON object (the fields above). Never throws (strings that are not UTF-8 are escaped
/// when the object is dumped with dump_json_text).
nlohmann::json allreduce_result_to_json(const AllReduceResult& r);

/// One result back from allreduce_result_to_json's object. Throws std::runtime_error with one line naming
/// the field: a missing or mistyped field, an unknown method, gpus outside 0..8 (0 only when !ran),
/// length outside 1..2^30, "bytes" not length * 4, a negative or non-finite time or bandwidth, step_ms of
/// another size than the method's schedule (Ring and Tree when ran; empty otherwise), more than 8 device names.
AllReduceResult allreduce_result_from_json(const nlohmann::json& j);

/// A whole file: {"format": kAllReduceFormat, "version": kAllReduceVersion, "results": [...]}.
nlohmann::json allreduce_results_to_json(const std::vector<AllReduceResult>& results);

/// The results of a whole file's JSON. Throws std::runtime_error with one line: "not a warpscope
/// all-reduce file (missing "format": "warpscope-allreduce")", a version newer than this build reads,
/// 'results' not an array or longer than kMaxAllReduceResults, or "result 3: <what allreduce_result_from_json
/// says>".
std::vector<AllReduceResult> allreduce_results_from_json(const nlohmann::json& j);

/// Reads the file at `path` (at most 64 MiB, parsed within JSON bounds, as reports are) into `out`.
/// Returns "" or one line: "all-reduce file 'x.json': <why>".
std::string read_allreduce_file(const std::string& path, std::vector<AllReduceResult>& out);

}  // namespace ws::collective
