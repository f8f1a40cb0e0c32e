#include "trace/trace_phase.hpp"

#include <ostream>
#include <utility>

#include "name_table.hpp"

namespace ws {
namespace {

constexpr std::pair<TracePhase, const char*> kPhaseNames[] = {
    {TracePhase::Step, "step"},
    {TracePhase::Load, "load"},
    {TracePhase::Halo, "halo"},
    {TracePhase::Compute, "compute"},
    {TracePhase::Tree, "tree"},
    {TracePhase::Warp, "warp"},
    {TracePhase::Combine, "combine"},
    {TracePhase::Atomic, "atomic"},
    {TracePhase::Pass, "pass"},
    {TracePhase::Store, "store"},
    {TracePhase::Sequential, "sequential"},
    {TracePhase::UpSweep, "up-sweep"},
    {TracePhase::DownSweep, "down-sweep"},
    {TracePhase::Thread, "thread"},
    {TracePhase::Block, "block"},
    {TracePhase::Scan, "scan"},
    {TracePhase::Count, "count"},
    {TracePhase::LookBack, "look-back"},
    {TracePhase::Stage, "stage"},
};

}  // namespace

const char* to_string(TracePhase p) { return name_in(kPhaseNames, p); }

bool parse_trace_phase(const std::string& s, TracePhase& out) { return value_in(kPhaseNames, s, out); }

std::string trace_phase_names() {
  std::string out;
  for (const auto& [phase, name] : kPhaseNames) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

std::ostream& operator<<(std::ostream& o, TracePhase p) { return o << to_string(p); }

}  // namespace ws
