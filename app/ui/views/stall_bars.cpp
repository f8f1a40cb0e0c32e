#include "stall_bars.hpp"

#include <algorithm>
#include <cstdio>

#include "metric_catalog.hpp"
#include "stall_reasons.hpp"
#include "widgets/plot.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

namespace {

constexpr std::size_t kTopPerLine = 3;
constexpr std::size_t kLegend = 6;

ImU32 OtherColor() { return theme().colors().stall_other; }

std::string percent(double part, double whole) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", whole > 0 ? 100.0 * part / whole : 0.0);
  return b;
}

std::string explanation(const std::string& reason) {
  const StallReasonDef* d = find_stall_reason(reason);
  return d ? d->explain : "a reason CUPTI reports that warpscope does not explain yet";
}

}  // namespace

ImU32 StallColor(const std::string& reason) {
  // By the table's order: barrier red, long scoreboard blue, short scoreboard purple, wait yellow, math
  // pipe orange, mio cyan, lg pink, not selected grey, selected green (work), branch resolving amber.
  static const int series[] = {3, 0, 4, 7, 9, 5, 6, 8, 2, 1};
  const std::size_t i = stall_reason_order(reason);
  return i < sizeof series / sizeof series[0] ? SeriesColor(series[i]) : OtherColor();
}

StallColumn stall_column(const PcSampling& p, const std::string& file) {
  StallColumn c;
  c.run_samples = p.samples();
  std::map<std::string, double> legend;
  for (const auto& k : p.kernels)
    for (const auto& l : k.lines) {
      if (l.file != file) continue;
      LineStalls& m = c.lines[l.line];
      m.file = l.file;
      m.line = l.line;
      m.samples += l.samples;
      for (const auto& r : l.reasons) {
        auto it =
            std::find_if(m.reasons.begin(), m.reasons.end(), [&](const StallCount& x) { return x.reason == r.reason; });
        if (it == m.reasons.end())
          m.reasons.push_back(r);
        else
          it->samples += r.samples;
        legend[r.reason] += r.samples;
      }
    }
  for (auto& [n, l] : c.lines) {
    sort_by_samples(l.reasons);
    c.max_line = std::max(c.max_line, l.samples);
    c.file_samples += l.samples;
  }
  for (const auto& [r, s] : legend) c.legend.push_back({r, s});
  sort_by_samples(c.legend);
  if (c.legend.size() > kLegend) c.legend.resize(kLegend);
  return c;
}

float StallColumnWidth() { return theme().px(150); }

void StallLegend(const StallColumn& c) {
  const Theme& th = theme();
  char head[200];
  std::snprintf(head, sizeof head,
                "stalls (PC sampling): %.0f samples on these lines, %s of the run's; top reasons:", c.file_samples,
                percent(c.file_samples, c.run_samples).c_str());
  TextDim(head);
  ItemTooltip(
      "Every 2^k cycles each SM sub-partition samples one warp: the line it is at and why it did not issue. "
      "A bar is a line's samples (full length: the busiest line), coloured by its top three reasons; grey: the rest.");
  // Swatches wrap onto further lines rather than run off a narrow window.
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  ImGui::SameLine(0, th.px(12));
  for (const auto& r : c.legend) {
    const std::string label = r.reason + " " + percent(r.samples, c.file_samples);
    const float w = ImGui::GetFontSize() * 0.8f + th.px(6) + ImGui::CalcTextSize(label.c_str()).x;
    if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    LegendSwatch(StallColor(r.reason), label.c_str());
    ItemTooltip(r.reason + ": " + explanation(r.reason));
  }
  ImGui::NewLine();
}

void StallBar(ImDrawList* dl, ImVec2 origin, float width, float height, const LineStalls& line, const StallColumn& c) {
  if (!(c.max_line > 0) || !(line.samples > 0)) return;
  const Theme& th = theme();
  const float pad = th.px(3);
  const float y0 = origin.y + pad, y1 = origin.y + height - pad;
  const float full = width - th.px(8);
  float x = origin.x + th.px(4);
  const float scale = full / float(c.max_line);
  double shown = 0;
  for (std::size_t i = 0; i < line.reasons.size() && i < kTopPerLine; ++i) {
    const float w = float(line.reasons[i].samples) * scale;
    dl->AddRectFilled(ImVec2(x, y0), ImVec2(x + w, y1), StallColor(line.reasons[i].reason));
    x += w;
    shown += line.reasons[i].samples;
  }
  if (line.samples > shown)
    dl->AddRectFilled(ImVec2(x, y0), ImVec2(x + float(line.samples - shown) * scale, y1), OtherColor());
  if (ImGui::IsMouseHoveringRect(origin, ImVec2(origin.x + width, origin.y + height)) && ImGui::IsWindowHovered()) {
    std::string tip = line.file + ":" + std::to_string(line.line) + ": " + std::to_string((long long)line.samples) +
                      " samples, " + percent(line.samples, c.file_samples) + " of the file's";
    for (const auto& r : line.reasons)
      tip += "\n  " + r.reason + " " + percent(r.samples, line.samples) + ": " + explanation(r.reason);
    ImGui::SetTooltip("%s", tip.c_str());
  }
}

void StallTableRows(const PcSampling& p) {
  if (!p.collected) return;
  const Palette& pal = theme().colors();
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextColored(pal.accent, "stalls per kernel");
  ImGui::TableSetColumnIndex(3);
  TextDim("PC sampling: one sample every 2^" + std::to_string(p.period_log2) +
              " cycles per SM sub-partition; per line: the Source tab",
          true);
  if (p.kernels.empty()) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    TextDim("no sample landed in the run's kernels", true);
  }
  for (const auto& k : p.kernels) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    TextEllipsis(k.kernel, ImGui::GetContentRegionAvail().x);
    ItemTooltip(k.kernel);
    ImGui::TableSetColumnIndex(1);
    static const MetricDef kSamples = [] {
      MetricDef d;
      d.unit = "samples";
      return d;
    }();
    TextRight(format_metric_value(kSamples, k.samples));
    ItemTooltip(std::to_string((long long)k.samples) + " samples");
    ImGui::TableSetColumnIndex(2);
    if (k.unmapped_samples > 0) TextDim(percent(k.unmapped_samples, k.samples) + " without a line");
    for (const auto& r : k.reasons) {
      if (r.samples < 0.01 * k.samples) break;
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::Indent();
      LegendSwatch(StallColor(r.reason), r.reason.c_str());
      ImGui::NewLine();
      ImGui::Unindent();
      ImGui::TableSetColumnIndex(1);
      TextRight(percent(r.samples, k.samples));
      ImGui::TableSetColumnIndex(3);
      TextDim(explanation(r.reason), true);
    }
  }
}

}  // namespace ws::ui
