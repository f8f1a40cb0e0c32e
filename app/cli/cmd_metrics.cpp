// `warpscope-cli metrics`: the metric catalog (works without a GPU), and the metrics part of `run`.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "metric_catalog.hpp"

namespace ws::cli {

int cmd_metrics(bool json) {
  if (json) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& d : metric_catalog())
      a.push_back({{"name", d.name}, {"short", d.short_name}, {"unit", d.unit}, {"group", d.group},
                   {"explain", d.explain}, {"default", d.in_default}, {"source", to_string(d.source)},
                   {"inputs", d.inputs}, {"prediction", d.prediction}});
    std::printf("%s\n", a.dump(2).c_str());
    return kOk;
  }
  std::string group;
  for (const auto& d : metric_catalog()) {
    if (d.group != group) {
      group = d.group;
      std::printf("%s%s\n", group == metric_catalog().front().group ? "" : "\n", group.c_str());
    }
    std::string first = d.explain.substr(0, d.explain.find('\n'));
    std::string second = d.explain.find('\n') == std::string::npos ? "" : d.explain.substr(d.explain.find('\n') + 1);
    std::printf("  %-30s %-12s %s%s\n    %s\n    %s\n", d.short_name.c_str(), ("[" + d.unit + "]").c_str(),
                d.name.c_str(), d.in_default ? "" : "  (all)", first.c_str(), second.c_str());
  }
  std::printf("\nrun --metrics default | all | NAME,NAME (full or short names)\n");
  return kOk;
}

std::string human_metrics(const KernelMetrics& m) {
  std::string out;
  char buf[512];
  if (!m.collected) {
    std::snprintf(buf, sizeof buf, "metrics:  not collected: %s\n", m.error.c_str());
    return buf;
  }
  std::snprintf(buf, sizeof buf, "metrics:  %d pass(es), %.1f ms in-process%s%s\n", m.passes, m.profile_ms,
                m.kernel.empty() ? "" : ", main kernel ", m.kernel.c_str());
  out += buf;
  for (const auto& d : metric_catalog()) {
    auto it = m.values.find(d.name);
    if (it == m.values.end()) continue;
    std::snprintf(buf, sizeof buf, "  %-30s %14s%s\n", d.short_name.c_str(), format_metric_value(d, it->second).c_str(),
                  d.name == "ws__theoretical_occupancy_pct" && !m.occupancy_limiter.empty()
                      ? ("  (limited by " + m.occupancy_limiter + ")").c_str() : "");
    out += buf;
  }
  if (!m.lines.empty()) {
    out += "  per line:                        warp inst   lanes/inst\n";
    for (const auto& l : m.lines) {
      std::snprintf(buf, sizeof buf, "    %-24s %14.0f %11.1f\n", (l.file + ":" + std::to_string(l.line)).c_str(),
                    l.warp_instructions, l.lanes_per_instruction());
      out += buf;
    }
  }
  for (const auto& w : m.warnings) out += "  warning: " + w + "\n";
  if (!m.error.empty()) out += "  note: " + m.error + "\n";
  return out;
}

}  // namespace ws::cli
