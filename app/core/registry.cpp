#include "registry.hpp"

#include <stdexcept>

namespace ws {

// Per-seed tables (app/core/patterns/<pattern>/variants/<lesson>.cpp); all_variants() concatenates them.
// A new table is declared and listed here, nowhere else.
std::vector<VariantInfo> epita_variants();   // "Reduction Pattern", Carlinet and Chazalon, Fall 2023
std::vector<VariantInfo> harris_variants();  // "Code Optimizations", Filipovic, Fall 2020
std::vector<VariantInfo> cs121_variants();   // "GPUs and CUDA 3: Intrinsics", CS121, Fall 2022
std::vector<VariantInfo> amp_variants();     // "Parallel Reduction using C++ AMP", MSDN
std::vector<VariantInfo> cub_variants();     // library baselines
// The other patterns: one table per lesson and pattern, each with its pattern's own baselines too
// (cub.scan, cub.histogram, ...).
std::vector<VariantInfo> stevens_conv_variants();   // "CS 677 Lecture 6", Mordohai: convolution, reduction trees
std::vector<VariantInfo> stevens_scan_variants();   // "CS 677 Lecture 6", Mordohai: scan (+ look-back, cub)
std::vector<VariantInfo> cs121_atomics_variants();  // CS121 "GPUs and CUDA 3": atomics, histograms, filters

// Variants of patterns added with register_pattern() (patterns.cpp): test fixtures.
std::vector<VariantInfo> registered_variants();

const std::vector<VariantInfo>& all_variants() {
  static const std::vector<VariantInfo> table = [] {
    std::vector<VariantInfo> all;
    for (auto part : {epita_variants(), stevens_conv_variants(), stevens_scan_variants(), harris_variants(),
                      cs121_variants(), cs121_atomics_variants(), amp_variants(), cub_variants()})
      all.insert(all.end(), part.begin(), part.end());
    for (const VariantInfo& v : registered_variants()) {
      for (const VariantInfo& w : all)
        if (w.id == v.id) throw std::logic_error("register_pattern: variant id '" + v.id + "' is taken");
      all.push_back(v);
    }
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
