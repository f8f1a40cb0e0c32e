// The atomics pattern's hooks (docs/patterns.md). Owned by the atomics helper; empty until it lands.
#include "patterns.hpp"

namespace ws {

std::vector<PatternHooks> atomics_pattern_hooks() { return {}; }

}  // namespace ws
