// Atomics, histogram and filter variants of seed 003 (docs/patterns.md). Owned by the atomics helper;
// empty until it lands.
#include "registry.hpp"

namespace ws {

std::vector<VariantInfo> cs121_atomics_variants() { return {}; }

}  // namespace ws
