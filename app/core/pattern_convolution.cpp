// The convolution pattern's hooks (docs/patterns.md). Owned by the convolution helper; empty until it lands.
#include "patterns.hpp"

namespace ws {

std::vector<PatternHooks> convolution_pattern_hooks() { return {}; }

}  // namespace ws
