// Shared-memory hazards (sim/hazards.hpp) in the step-through views: the hazards of the trace shown,
// computed once per trace, and the one-line legend the Tree and Warps views print above their picture.
#pragma once
#include <imgui.h>

#include <vector>

#include "trace/hazards.hpp"
#include "trace_source.hpp"

namespace ws::ui {

/// The hazards of trace.trace (empty when there is none), recomputed only when the trace changes.
const std::vector<Hazard>& TraceHazards(const controller::TraceState& trace);

/// The hazard colour: the theme's "bad" red, opaque.
ImU32 HazardColor();

/// Prints "hazard: thread 3 reads shared[4] while thread 35 writes it, no barrier between (...)" for
/// the first hazard that involves `step` (and "+ N more at this step" when there are more), in the
/// hazard colour, wrapped; prints nothing when the step has none. Returns the step's hazards.
std::vector<const Hazard*> HazardLegend(const std::vector<Hazard>& all, int step);

}  // namespace ws::ui
