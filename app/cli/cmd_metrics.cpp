// `warpscope-cli metrics`: the metric catalog (works without a GPU), and the metrics part of `run`.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.hpp"
#include "metric_catalog.hpp"
#include "stall_reasons.hpp"
#include "table.hpp"

namespace ws::cli {

int cmd_metrics(bool json, bool csv) {
  if (json || csv) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& d : metric_catalog())
      a.push_back({{"name", d.name},
                   {"short", d.short_name},
                   {"unit", d.unit},
                   {"group", d.group},
                   {"explain", d.explain},
                   {"default", d.in_default},
                   {"source", to_string(d.source)},
                   {"inputs", d.inputs},
                   {"prediction", d.prediction}});
    if (csv)
      std::fputs(csv_table(std::vector<nlohmann::json>(a.begin(), a.end())).c_str(), stdout);
    else
      std::printf("%s\n", with_format({{"metrics", a}}, "metrics").dump(2).c_str());
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
  std::printf("\nstall reasons (pcsampling: samples per source line and reason)\n");
  for (const auto& r : stall_reasons()) std::printf("  %-20s %s\n", r.name.c_str(), r.explain.c_str());
  std::printf("\nrun --metrics default | all | NAME,NAME (full or short names)\n");
  return kOk;
}

std::string human_stalls(const PcSampling& p) {
  std::string out;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "  stalls (PC sampling, one sample per 2^%d cycles per SM sub-partition): %.0f samples\n",
                p.period_log2, p.samples());
  out += buf;
  auto pct = [](double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; };
  for (const auto& k : p.kernels) {
    std::snprintf(buf, sizeof buf, "    kernel %s: %.0f samples\n", k.kernel.c_str(), k.samples);
    out += buf;
    for (const auto& c : k.reasons) {
      if (pct(c.samples, k.samples) < 1) break;
      std::snprintf(buf, sizeof buf, "      %-20s %5.1f %%\n", c.reason.c_str(), pct(c.samples, k.samples));
      out += buf;
    }
    // The lines with the most samples, each with its top three reasons.
    std::vector<const LineStalls*> top;
    for (const auto& l : k.lines) top.push_back(&l);
    std::stable_sort(top.begin(), top.end(),
                     [](const LineStalls* a, const LineStalls* b) { return a->samples > b->samples; });
    if (top.size() > 8) top.resize(8);
    if (!top.empty()) out += "      lines with the most samples:\n";
    for (const LineStalls* l : top) {
      std::string reasons;
      for (std::size_t i = 0; i < l->reasons.size() && i < 3; ++i) {
        std::snprintf(buf, sizeof buf, "%s%s %.0f %%", i ? ", " : "", l->reasons[i].reason.c_str(),
                      pct(l->reasons[i].samples, l->samples));
        reasons += buf;
      }
      std::snprintf(buf, sizeof buf, "        %-22s %5.1f %%  %s\n", (l->file + ":" + std::to_string(l->line)).c_str(),
                    pct(l->samples, k.samples), reasons.c_str());
      out += buf;
    }
  }
  return out;
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
                      ? ("  (limited by " + m.occupancy_limiter + ")").c_str()
                      : "");
    out += buf;
  }
  if (!m.lines.empty()) {
    // Memory per line where the line has it: shared wavefronts per shared instruction (bank-conflict ways),
    // sectors per global request.
    out += "  per line:                        warp inst   lanes/inst   wavefronts/shared inst   sectors/request\n";
    for (const auto& l : m.lines) {
      char ways[32] = "", sectors[32] = "";
      if (l.shared_instructions() > 0 && l.shared_wavefronts > 0)
        std::snprintf(ways, sizeof ways, "%.2f", l.wavefronts_per_shared_instruction());
      if (l.global_requests() > 0 && l.global_sectors > 0)
        std::snprintf(sectors, sizeof sectors, "%.2f", l.sectors_per_request());
      std::snprintf(buf, sizeof buf, "    %-24s %14.0f %11.1f %24s %17s\n",
                    (l.file + ":" + std::to_string(l.line)).c_str(), l.warp_instructions, l.lanes_per_instruction(),
                    ways, sectors);
      out += buf;
    }
  }
  if (m.pc_sampling.collected) out += human_stalls(m.pc_sampling);
  for (const auto& w : m.warnings) out += "  warning: " + w + "\n";
  if (!m.error.empty()) out += "  note: " + m.error + "\n";
  return out;
}

}  // namespace ws::cli
