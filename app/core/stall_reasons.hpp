// Warp stall reasons of the CUPTI PC Sampling API: CUPTI's names
// ("smsp__pcsamp_warps_issue_stalled_barrier") mapped to the short names views show ("barrier"), each
// with one line for students. Meanings after Nsight Compute's "Warp State" documentation (the same
// hardware samples), worded for the lessons.
#pragma once
#include <string>
#include <vector>

namespace ws {

/// One stall reason warpscope explains.
struct StallReasonDef {
  std::string cupti;    ///< CUPTI's name without the "smsp__pcsamp_warps_issue_stalled_" prefix, e.g. "long_scoreboard"
  std::string name;     ///< short name in views and reports, e.g. "long scoreboard"
  std::string explain;  ///< one line for students
};

/// The reasons warpscope explains, in a fixed order (views colour them by this order).
const std::vector<StallReasonDef>& stall_reasons();

/// The short name for a CUPTI stall reason name. "" for names that are not reasons of their own: the
/// "_not_issued" variants (a subset of the same reason's samples, counted twice if added) and names
/// without the "smsp__pcsamp_warps_issue_stalled_" prefix. A reason not in stall_reasons() keeps its
/// CUPTI suffix with spaces for underscores ("gmma" -> "gmma", "foo_bar" -> "foo bar").
std::string stall_reason_name(const std::string& cupti_name);

/// The entry for a short name, or nullptr (a reason this build does not explain).
const StallReasonDef* find_stall_reason(const std::string& name);

/// Index of a short name in stall_reasons(), or stall_reasons().size() for one not in the table.
std::size_t stall_reason_order(const std::string& name);

}  // namespace ws
