// Sim models of the atomics variants (docs/patterns.md). Owned by the atomics helper; empty until it lands.
#include "sim/sim.hpp"

namespace ws::sim {

std::vector<PatternModelEntry> atomics_models() { return {}; }

}  // namespace ws::sim
