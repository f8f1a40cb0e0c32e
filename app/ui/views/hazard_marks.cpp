#include "hazard_marks.hpp"

#include <imgui.h>

#include <string>

#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::TraceKey;
using controller::TraceState;

const std::vector<Hazard>& TraceHazards(const TraceState& trace) {
  // One cache for all views: they show the same trace.
  static const Trace* of = nullptr;
  static std::optional<TraceKey> key;
  static std::string source;
  static std::size_t steps = 0;
  static std::vector<Hazard> hazards;
  const Trace* t = trace.trace ? &*trace.trace : nullptr;
  if (t != of || key != trace.key || (t && (t->source != source || t->steps.size() != steps))) {
    of = t;
    key = trace.key;
    source = t ? t->source : "";
    steps = t ? t->steps.size() : 0;
    hazards = t ? shared_hazards(*t) : std::vector<Hazard>{};
  }
  return hazards;
}

ImU32 HazardColor() {
  const ImVec4 c = theme().colors().bad;
  return ImGui::GetColorU32(ImVec4(c.x, c.y, c.z, 1.f));
}

std::vector<const Hazard*> HazardLegend(const std::vector<Hazard>& all, int step) {
  std::vector<const Hazard*> here = hazards_at_step(all, step);
  if (here.empty()) return here;
  std::string line = "hazard: " + describe_hazard(*here.front());
  if (here.size() > 1) line += "; + " + std::to_string(here.size() - 1) + " more at this step (red)";
  TextWrappedColored(theme().colors().bad, line);
  return here;
}

}  // namespace ws::ui
