// The variant registry: every variant of every lesson, in teaching order.
#pragma once
#include <string>
#include <vector>

#include "variant.hpp"

namespace ws {

/// All variants, grouped by lesson in the lessons' teaching order. Built once; never empty.
const std::vector<VariantInfo>& all_variants();

/// The variant with this exact id, or nullptr.
const VariantInfo* find_variant(const std::string& id);

/// Per-seed tables (app/core/variants/*.cpp); all_variants() concatenates them.
std::vector<VariantInfo> epita_variants();   // 000_27438c05e47b0926.txt
std::vector<VariantInfo> harris_variants();  // 002_7b2a1433db94dde3.txt
std::vector<VariantInfo> cs121_variants();   // 003_156a830321b56386.txt
std::vector<VariantInfo> amp_variants();     // 004_24e80cac4a038870.txt
std::vector<VariantInfo> cub_variants();     // library baselines
/// Array patterns (docs/patterns.md), one table per lesson and pattern (app/core/variants/<lesson>_<pattern>.cpp);
/// each holds its pattern's own baselines too (cub.scan, cub.histogram, ...).
std::vector<VariantInfo> stevens_conv_variants();   // 001_9970031c1e4143ff.txt: convolution, reduction trees
std::vector<VariantInfo> stevens_scan_variants();   // 001_9970031c1e4143ff.txt: scan (+ scan.decoupled_lookback, cub.scan)
std::vector<VariantInfo> cs121_atomics_variants();  // 003_156a830321b56386.txt: atomics, histograms, filters

}  // namespace ws
