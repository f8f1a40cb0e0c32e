// The variant registry: every variant of every lesson, in teaching order.
#pragma once
#include <string>
#include <vector>

#include "variant.hpp"

namespace ws {

/// A variants table's place in teaching order: first the seed's rank among the seeds (its seed file's
/// number: 0 for 000_*.txt; the library baselines after every seed), then the table's rank inside its seed
/// (the order its lecture teaches its patterns in). Smaller comes first; no two tables share a place.
struct TeachingPlace {
  int seed = 0;  ///< the seed's rank among the seeds
  int part = 0;  ///< the table's rank inside its seed
};

/// What a lesson's variants file, app/core/patterns/<pattern>/variants/<lesson>.cpp, gives the registry
/// through its function `LessonVariants <lesson>_<pattern>_variants()`: its table (in the lecture's order)
/// and the table's place in teaching order.
struct LessonVariants {
  TeachingPlace place;                ///< where the table goes among the others
  std::vector<VariantInfo> variants;  ///< the lesson's variants of this pattern, in the lecture's order
};

/// Every variants file's table, one per app/core/patterns/<pattern>/variants/<lesson>.cpp, in the order of
/// those paths: a list app/core/CMakeLists.txt generates from the file names (no file lists them by hand).
std::vector<LessonVariants> lesson_variant_tables();

/// All variants, grouped by lesson in the lessons' teaching order: lesson_variant_tables() sorted by their
/// TeachingPlace, then the variants of patterns a test registered (register_pattern). Built once; never
/// empty. Throws std::logic_error when two tables share a place or a registered variant's id is taken.
const std::vector<VariantInfo>& all_variants();

/// The variant with this exact id, or nullptr.
const VariantInfo* find_variant(const std::string& id);

}  // namespace ws
