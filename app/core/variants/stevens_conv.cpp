// Convolution and reduction-tree variants of seed 001 (docs/patterns.md). Owned by the convolution
// helper; empty until it lands.
#include "registry.hpp"

namespace ws {

std::vector<VariantInfo> stevens_conv_variants() { return {}; }

}  // namespace ws
