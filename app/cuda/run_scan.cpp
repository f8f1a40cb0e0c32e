// The CUDA runner of the scan pattern (docs/patterns.md).
#include "pattern_runner.hpp"

namespace ws::cuda {

std::vector<PatternRunEntry> scan_pattern_runs() { return {}; }

}  // namespace ws::cuda
