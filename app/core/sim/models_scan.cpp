// Sim models of the scan variants (001_9970031c1e4143ff.txt, scan slides; docs/patterns.md).
#include "sim/sim.hpp"

namespace ws::sim {

std::vector<PatternModelEntry> scan_models() { return {}; }

}  // namespace ws::sim
