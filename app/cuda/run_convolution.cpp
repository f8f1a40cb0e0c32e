// The CUDA runner of the convolution pattern (docs/patterns.md). Owned by the convolution helper; empty until it lands.
#include "pattern_runner.hpp"

namespace ws::cuda {

std::vector<PatternRunEntry> convolution_pattern_runs() { return {}; }

}  // namespace ws::cuda
