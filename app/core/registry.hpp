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

}  // namespace ws
