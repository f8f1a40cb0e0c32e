// Traces stored in reports ("report" traces): a compact, lossless JSON form of a
// Trace, so a GPU recording made on the device replays on a laptop in every step-through view.
//   {"variant","source","n","type","block","grid","block_index","block_size","racy_model",
//    "interleaving","block_result","compared_with_model","model_difference","source_file" (when it has lines),
//    "steps":[{"phase","label","working":[threads],"shared":[values] (when the step has one),
//              "lines":[source lines] (with source_file),
//              "barrier_after":false (when no __syncthreads follows the step; absent = one does),
//              "barrier_before_access":k (a __syncthreads inside the step before its ops of access >= k),
//              "ops":[[thread, kind, space, access, address, operand, value, buffer, line (with source_file)], ...]}]}
// kind, space and phase are the names to_string() gives ("load", "shared", "up-sweep", ...); a step naming
// no TracePhase (trace_phase.hpp) is refused.
#pragma once
#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace ws {

// What a stored trace may hold (a report is untrusted input: these bound what loading it allocates and
// what the views draw). One traced block of a CUDA launch has at most 1024 threads and 227 KiB of shared
// memory; every sim model's trace fits the op and step limits with room (tests/unit/core/test_report.cpp).
constexpr std::int64_t kMaxStoredBlockSize = 1024;                 ///< block_size, block: CUDA's threads per block
constexpr std::int64_t kMaxStoredGrid = 2147483647;                ///< grid: CUDA's gridDim.x limit
constexpr std::int64_t kMaxStoredTraceN = std::int64_t(1) << 40;   ///< the run's n
constexpr std::size_t kMaxStoredTraceSteps = 4096;                 ///< steps of one trace
constexpr std::size_t kMaxStoredSharedWords = 227 * 1024 / 4;      ///< "shared" words of one step
constexpr std::size_t kMaxStoredOpsPerThread = 1024;               ///< ops of one step, per thread of the block
constexpr std::size_t kMaxStoredTraceOps = std::size_t(1) << 22;   ///< ops of all steps together
constexpr std::int64_t kMaxStoredAccess = 1 << 20;                 ///< an op's warp-wide instruction index
constexpr std::int64_t kMaxStoredAddress = std::int64_t(1) << 40;  ///< an op's address or operand
constexpr std::int64_t kMaxStoredBuffer = 15;         ///< an op's global buffer number (input, output, ...)
constexpr std::int64_t kMaxStoredLine = 1 << 20;      ///< a source line of the kernel file
constexpr std::size_t kMaxStoredLinesPerStep = 4096;  ///< source lines of one step

/// A trace as stored in a report (the layout above).
nlohmann::json trace_to_store_json(const Trace& t);
/// Inverse of trace_to_store_json. Refuses (std::runtime_error naming the step, op and field) a wrong
/// type, a fraction where an integer belongs, no steps, block_size outside 1..1024, a thread outside the
/// block, and arrays longer than the limits above.
Trace trace_from_store_json(const nlohmann::json& j);

}  // namespace ws
