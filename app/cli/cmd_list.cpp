#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <utility>

#include "commands.hpp"
#include "registry.hpp"
#include "table.hpp"

namespace ws::cli {

int cmd_list(bool json, bool csv) {
  if (json || csv) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& v : all_variants()) {
      arr.push_back({{"id", v.id},
                     {"lesson", v.lesson},
                     {"pattern", to_string(v.pattern)},
                     {"title", v.title},
                     {"seed", v.seed},
                     {"slide", v.slide},
                     {"beyond_slides", v.beyond_slides},
                     {"description", v.description},
                     {"op", to_string(v.op)},
                     {"racy", v.racy},
                     {"baseline", v.baseline},
                     {"cautionary", v.cautionary},
                     {"cpu_only", v.cpu_only},
                     {"caution", v.caution},
                     {"rules",
                      {{"default_block", v.rules.default_block},
                       {"min_block", v.rules.min_block},
                       {"max_block", v.rules.max_block},
                       {"pow2_block", v.rules.pow2_block},
                       {"fixed_block", v.rules.fixed_block},
                       {"items_per_thread", v.rules.items_per_thread},
                       {"grid_stride", v.rules.grid_stride},
                       {"max_grid", v.rules.max_grid},
                       {"int_only", v.rules.int_only},
                       {"int_only_reason", v.rules.int_only_reason},
                       {"note", v.rules.note}}}});
    }
    if (csv)
      std::fputs(csv_table(std::vector<nlohmann::json>(arr.begin(), arr.end())).c_str(), stdout);
    else
      std::printf("%s\n", with_format({{"variants", arr}}, "variants").dump(2).c_str());
    return kOk;
  }
  // Column widths from the data, so the longest id and pattern fit; no trailing spaces.
  std::size_t id_w = 2, pattern_w = 7, title_w = 5;
  for (const auto& v : all_variants()) {
    id_w = std::max(id_w, v.id.size());
    pattern_w = std::max(pattern_w, std::string(to_string(v.pattern)).size());
    title_w = std::max(title_w, v.title.size());
  }
  auto row = [&](const std::string& id, const std::string& pattern, const std::string& title,
                 const std::string& flags) {
    std::string line = id + std::string(id_w - id.size() + 1, ' ') + pattern +
                       std::string(pattern_w - pattern.size() + 1, ' ') + title;
    if (!flags.empty()) line += std::string(title_w - title.size() + 1, ' ') + flags;
    std::printf("%s\n", line.c_str());
  };
  row("id", "pattern", "title", "flags");
  for (const auto& v : all_variants()) {
    std::string flags;
    for (auto [on, name] :
         {std::pair{v.racy, "racy"}, {v.cautionary, "slide-bug"}, {v.baseline, "baseline"}, {v.cpu_only, "cpu"}})
      if (on) flags += (flags.empty() ? "" : " ") + std::string(name);
    row(v.id, to_string(v.pattern), v.title, flags);
  }
  return kOk;
}

}  // namespace ws::cli
