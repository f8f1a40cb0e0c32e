// The CUDA runner of the atomics pattern (docs/patterns.md). Owned by the atomics helper; empty until it lands.
#include "pattern_runner.hpp"

namespace ws::cuda {

std::vector<PatternRunEntry> atomics_pattern_runs() { return {}; }

}  // namespace ws::cuda
