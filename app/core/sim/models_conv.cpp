// Sim models of the conv variants (docs/patterns.md). Owned by the conv helper; empty until it lands.
#include "sim/sim.hpp"

namespace ws::sim {

std::vector<PatternModelEntry> conv_models() { return {}; }

}  // namespace ws::sim
