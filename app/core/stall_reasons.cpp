#include "stall_reasons.hpp"

namespace ws {

namespace {
const char* const kPrefix = "smsp__pcsamp_warps_issue_stalled_";
const char* const kNotIssued = "_not_issued";
}  // namespace

const std::vector<StallReasonDef>& stall_reasons() {
  static const std::vector<StallReasonDef> r = {
      {"barrier", "barrier", "waiting at __syncthreads() for the other warps of the block"},
      {"long_scoreboard", "long scoreboard", "waiting for a global or local memory load (L1, L2 or DRAM) to return"},
      {"short_scoreboard", "short scoreboard", "waiting for a shared-memory access or a slow math result (MIO)"},
      {"wait", "wait", "a fixed pause the compiler put after an instruction (its latency is known)"},
      {"math_pipe_throttle", "math pipe throttle", "the math unit the instruction needs is busy with other warps"},
      {"mio_throttle", "mio throttle", "the shared-memory / special-function queue (MIO) is full"},
      {"lg_throttle", "lg throttle", "the global/local memory queue is full: too many memory instructions in flight"},
      {"not_selected", "not selected", "ready, but the scheduler issued another warp this cycle"},
      {"selected", "selected", "issuing an instruction: the warp is doing work, not stalled"},
      {"branch_resolving", "branch resolving",
       "waiting for a branch target to be computed (divergent or long branches)"},
      {"no_instructions", "no instruction",
       "the next instruction is not fetched yet (instruction cache miss, after a jump)"},
      {"dispatch_stall", "dispatch stall", "the dispatcher could not issue the selected instruction this cycle"},
      {"membar", "membar", "waiting at a memory fence (__threadfence) for earlier writes to be visible"},
      {"sleeping", "sleeping", "all the warp's threads are blocked, yielded or asleep (__nanosleep)"},
      {"tex_throttle", "tex throttle", "the texture unit's queue is full"},
      {"drain", "drain", "the warp has exited and waits for its last memory writes to leave"},
      {"imc_miss", "imc miss", "waiting for a constant-cache miss (kernel parameters, __constant__ data)"},
      {"misc", "misc", "a miscellaneous hardware reason"},
  };
  return r;
}

std::string stall_reason_name(const std::string& cupti_name) {
  const std::string prefix = kPrefix, not_issued = kNotIssued;
  if (cupti_name.size() <= prefix.size() || cupti_name.compare(0, prefix.size(), prefix) != 0) return "";
  std::string suffix = cupti_name.substr(prefix.size());
  if (suffix.size() >= not_issued.size() &&
      suffix.compare(suffix.size() - not_issued.size(), not_issued.size(), not_issued) == 0)
    return "";
  for (const auto& d : stall_reasons())
    if (d.cupti == suffix) return d.name;
  for (char& c : suffix)
    if (c == '_') c = ' ';
  return suffix;
}

const StallReasonDef* find_stall_reason(const std::string& name) {
  for (const auto& d : stall_reasons())
    if (d.name == name) return &d;
  return nullptr;
}

std::size_t stall_reason_order(const std::string& name) {
  const auto& r = stall_reasons();
  for (std::size_t i = 0; i < r.size(); ++i)
    if (r[i].name == name) return i;
  return r.size();
}

}  // namespace ws
