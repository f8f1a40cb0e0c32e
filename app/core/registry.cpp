#include "registry.hpp"

namespace ws {

const std::vector<VariantInfo>& all_variants() {
  static const std::vector<VariantInfo> table = [] {
    std::vector<VariantInfo> all;
    for (auto part : {epita_variants(), stevens_conv_variants(), stevens_scan_variants(), harris_variants(),
                      cs121_variants(), cs121_atomics_variants(), amp_variants(), cub_variants()})
      all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return table;
}

const VariantInfo* find_variant(const std::string& id) {
  for (const auto& v : all_variants())
    if (v.id == id) return &v;
  return nullptr;
}

}  // namespace ws
