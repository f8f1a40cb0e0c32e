#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "registry.hpp"

namespace ws::cli {

int cmd_list(bool json) {
  if (json) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& v : all_variants()) {
      arr.push_back({{"id", v.id}, {"lesson", v.lesson}, {"pattern", v.pattern}, {"title", v.title},
                     {"seed", v.seed}, {"slide", v.slide}, {"description", v.description},
                     {"op", to_string(v.op)}, {"racy", v.racy}, {"baseline", v.baseline},
                     {"cautionary", v.cautionary}, {"cpu_only", v.cpu_only}, {"caution", v.caution},
                     {"rules", {{"default_block", v.rules.default_block}, {"min_block", v.rules.min_block},
                                {"max_block", v.rules.max_block}, {"pow2_block", v.rules.pow2_block},
                                {"fixed_block", v.rules.fixed_block}, {"items_per_thread", v.rules.items_per_thread},
                                {"grid_stride", v.rules.grid_stride}, {"max_grid", v.rules.max_grid},
                                {"int_only", v.rules.int_only}, {"note", v.rules.note}}}});
    }
    std::printf("%s\n", arr.dump(2).c_str());
    return kOk;
  }
  std::printf("%-22s %-10s %-40s %s\n", "id", "pattern", "title", "flags");
  for (const auto& v : all_variants()) {
    std::string flags;
    if (v.racy) flags += "racy ";
    if (v.cautionary) flags += "slide-bug ";
    if (v.baseline) flags += "baseline ";
    if (v.cpu_only) flags += "cpu ";
    std::printf("%-22s %-10s %-40s %s\n", v.id.c_str(), v.pattern.c_str(), v.title.c_str(), flags.c_str());
  }
  return kOk;
}

}  // namespace ws::cli
