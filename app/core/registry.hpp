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
std::vector<VariantInfo> cs121_atomics_variants();  // 003_156a830321b56386.txt, pattern "atomics"
std::vector<VariantInfo> cub_atomics_variants();    // cub.histogram, cub.select

}  // namespace ws
