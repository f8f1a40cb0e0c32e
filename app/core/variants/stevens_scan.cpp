// Scan variants of seed 001 (001_9970031c1e4143ff.txt, scan slides), in teaching order, then the
// single-pass scan and the CUB baseline.
#include "registry.hpp"

namespace ws {

std::vector<VariantInfo> stevens_scan_variants() { return {}; }

}  // namespace ws
