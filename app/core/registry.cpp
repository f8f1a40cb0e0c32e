#include "registry.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace ws {

// Variants of patterns added with register_pattern() (patterns.cpp): test fixtures.
std::vector<VariantInfo> registered_variants();

const std::vector<VariantInfo>& all_variants() {
  static const std::vector<VariantInfo> table = [] {
    // Every lesson's table (generated list, build-*/app/core/generated/lesson_variants.cpp), in teaching
    // order: the seeds' order, and inside a seed the lecture's.
    std::vector<LessonVariants> tables = lesson_variant_tables();
    const auto before = [](const LessonVariants& a, const LessonVariants& b) {
      return std::tie(a.place.seed, a.place.part) < std::tie(b.place.seed, b.place.part);
    };
    std::stable_sort(tables.begin(), tables.end(), before);
    std::vector<VariantInfo> all;
    for (std::size_t i = 0; i < tables.size(); ++i) {
      if (i > 0 && !before(tables[i - 1], tables[i]))
        throw std::logic_error("two variants tables share the teaching place {" + std::to_string(tables[i].place.seed) +
                               ", " + std::to_string(tables[i].place.part) + "}");
      all.insert(all.end(), tables[i].variants.begin(), tables[i].variants.end());
    }
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
