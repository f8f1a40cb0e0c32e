#include "view_roofline.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "compare_model.hpp"
#include "format.hpp"
#include "perf_state.hpp"
#include "roofline.hpp"
#include "views/view_registry.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::chosen_variants;
using controller::export_path;
using controller::export_policy;
using controller::Message;
using controller::ViewActions;
using controller::ViewContext;

namespace {

std::string rate(double v, const char* unit) {
  const char* p[] = {"", "k", "M", "G", "T", "P"};
  int k = 0;
  while (v >= 1000 && k < 5) v /= 1000, ++k;
  char b[64];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f %s%s" : v >= 10 ? "%.1f %s%s" : "%.2f %s%s", v, p[k], unit);
  return b;
}

/// A dashed line (ImGui 1.86 has none).
void DashedLine(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float w, float dash) {
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  if (len <= 0) return;
  const ImVec2 d((b.x - a.x) / len, (b.y - a.y) / len);
  for (float t = 0; t < len; t += 2 * dash) {
    const float e = std::min(len, t + dash);
    dl->AddLine(ImVec2(a.x + d.x * t, a.y + d.y * t), ImVec2(a.x + d.x * e, a.y + d.y * e), col, w);
  }
}

}  // namespace

std::vector<std::size_t> roofline_runs(const Report& r, const std::vector<std::string>& ids) {
  std::vector<std::size_t> out;
  for (const std::string& id : ids) {
    long best = -1, any = -1;
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
      if (r.runs[i].variant != id) continue;
      any = long(i);
      if (r.runs[i].metrics.values.count("dram__bytes_read.sum")) best = long(i);
    }
    if (best >= 0)
      out.push_back(std::size_t(best));
    else if (any >= 0)
      out.push_back(std::size_t(any));
  }
  return out;
}

void RooflineView::draw(const ViewContext& c, ViewActions& act) {
  const Theme& th = theme();
  const Report& rep = c.shown;
  const std::vector<std::string> ids = chosen_variants(c.perf, c.lesson);
  const Roofline rl = build_roofline(rep, roofline_runs(rep, ids), range_wrong_);
  const std::string title = "Roofline: " + (rep.device.name.empty() ? std::string("no device") : rep.device.name);

  // Controls: the exports, then what is not on the chart.
  if (!Handout()) {
    if (ImGui::Button("PNG")) act.perf().png_request = export_path(c.perf, "warpscope-roofline.png");
    ItemTooltip("save this view as a PNG for slides (warpscope-roofline.png in the export folder)");
    ImGui::SameLine();
    if (ImGui::Button("SVG")) {
      const std::string path = export_path(c.perf, "warpscope-roofline.svg");
      if (std::string err = write_text_file(path, roofline_svg(rl, title, 1600, 900), export_policy(c.perf));
          !err.empty())
        act.say(Message::Error, err);
      else
        act.say(Message::Info, "wrote " + path);
    }
    ItemTooltip(
        "save the chart as SVG (warpscope-roofline.svg in the export folder): vector lines and text for slides");
    ImGui::SameLine();
    ImGui::Checkbox("scale to wrong results", &range_wrong_);
    ItemTooltip(
        "widen the axes to the racy and slide-bug runs too (crossed in red: their answer is wrong); off, a point "
        "outside the range sits on the edge, marked off scale");
    ImGui::SameLine();
    TextDim(
        "x: operations per DRAM byte (CUPTI dram__bytes_read + write) · y: operations / median time · "
        "hover a point",
        true);
  }
  if (!rl.compute_note.empty()) TextWrappedColored(th.colors().lesson, rl.compute_note);
  if (!rl.left_out.empty()) {
    std::string line = "not on the chart: " + rl.left_out.front();
    if (rl.left_out.size() > 1) line += " (and " + std::to_string(rl.left_out.size() - 1) + " more; hover)";
    TextDim(line);
    if (rl.left_out.size() > 1) {
      std::string all;
      for (const std::string& l : rl.left_out) all += l + "\n";
      ItemTooltip(all);
    }
  }
  if (!rl.points.empty() && !c.perf.svg_request.empty()) {  // --export-view FILE.svg: the chart as drawn
    act.perf().svg_error = write_text_file(
        c.perf.svg_request, roofline_svg(rl, title, c.perf.svg_size[0], c.perf.svg_size[1]), export_policy(c.perf));
    act.perf().svg_request.clear();
  }
  if (rl.points.empty()) {
    TextWrappedColored(th.colors().lesson,
                       "No run of this lesson in the report shown has DRAM metrics: open a report recorded with "
                       "--metrics default (assets/reports/nvidia-h200-metrics.json) or run with metrics on a GPU.");
    return;
  }

  // The roofs' legend, one coloured label each (the measured copy is the dashed line).
  std::vector<ImU32> roof_cols;
  for (std::size_t i = 0; i < rl.roofs.size(); ++i) {
    const RooflineRoof& f = rl.roofs[i];
    const ImVec4 c = f.ops_per_s > 0 ? th.colors().bad : f.measured ? th.colors().cpu : th.colors().accent;
    roof_cols.push_back(ImGui::GetColorU32(c));
    const std::string label = std::string(f.measured ? "- - " : "— ") + f.label;
    if (i > 0) SameLineIfFits(ImGui::CalcTextSize(label.c_str()).x, th.px(24));
    ImGui::TextColored(c, "%s", label.c_str());
  }

  // The chart fills the rest of the view.
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImFont* font = th.fonts().regular;
  const float fs = ImGui::GetFontSize();
  const float tick_w = font->CalcTextSizeA(fs, 1e9f, 0, "100 Gop/s").x;
  float label_w = 0;
  for (const RooflinePoint& p : rl.points)
    label_w =
        std::max(label_w, font->CalcTextSizeA(fs, 1e9f, 0, (p.label + (p.wrong ? " (off scale)" : "")).c_str()).x);
  const float left = o.x + tick_w + fs * 1.8f, top = o.y + fs * 0.5f;
  const float w = std::max(avail.x - (left - o.x) - label_w - fs * 1.5f, fs * 10),
              h = std::max(avail.y - fs * 3.2f, fs * 8);
  // A lesson has up to 40 points: their labels shrink until the column of them fits the plot's height.
  const float lfs = std::max(fs * 0.5f, std::min(fs, h / (float(rl.points.size()) + 1.f) / 1.15f));
  const RooflineLayout L = roofline_layout(rl, left, top, w, h, lfs * 1.15);
  const ImU32 grid =
      ImGui::GetColorU32(ImVec4(th.colors().text_dim.x, th.colors().text_dim.y, th.colors().text_dim.z, 0.25f));
  const ImU32 ink = ImGui::GetColorU32(th.colors().text), dim = ImGui::GetColorU32(th.colors().text_dim);
  dl->AddRect(ImVec2(left, top), ImVec2(left + w, top + h), dim);
  for (double e = std::ceil(L.lx0 - 1e-9); e <= L.lx1 + 1e-9; e += 1) {
    const float x = float(L.x_of(std::pow(10.0, e)));
    dl->AddLine(ImVec2(x, top), ImVec2(x, top + h), grid);
    char b[32];
    std::snprintf(b, sizeof b, "%g", std::pow(10.0, e));
    const float tw = font->CalcTextSizeA(fs, 1e9f, 0, b).x;
    DrawText(dl, font, fs, ImVec2(x - tw / 2, top + h + fs * 0.2f), dim, b);
  }
  for (double e = std::ceil(L.ly0 - 1e-9); e <= L.ly1 + 1e-9; e += 1) {
    const float y = float(L.y_of(std::pow(10.0, e)));
    dl->AddLine(ImVec2(left, y), ImVec2(left + w, y), grid);
    const std::string t = rate(std::pow(10.0, e), "op/s");
    const float tw = font->CalcTextSizeA(fs, 1e9f, 0, t.c_str()).x;
    DrawText(dl, font, fs, ImVec2(left - tw - fs * 0.3f, y - fs / 2), dim, t.c_str());
  }
  const char* xl = "arithmetic intensity (operations per DRAM byte)";
  DrawText(dl, font, fs, ImVec2(left + w / 2 - font->CalcTextSizeA(fs, 1e9f, 0, xl).x / 2, top + h + fs * 1.4f), ink,
           xl);
  layout_probe().picture("roofline", ImVec2(left, top), ImVec2(left + w, top + h));

  // Roofs, clipped to the plot (their legend is above the chart, where no point can sit).
  dl->PushClipRect(ImVec2(left, top), ImVec2(left + w, top + h), true);
  for (std::size_t i = 0; i < rl.roofs.size(); ++i) {
    const RooflineRoof& f = rl.roofs[i];
    const double y0 = f.bytes_per_s > 0 ? f.bytes_per_s * rl.x_min : f.ops_per_s;
    const double y1 = f.bytes_per_s > 0 ? f.bytes_per_s * rl.x_max : f.ops_per_s;
    const ImVec2 a(float(L.x_of(rl.x_min)), float(L.y_of(y0))), b(float(L.x_of(rl.x_max)), float(L.y_of(y1)));
    if (f.measured)
      DashedLine(dl, a, b, roof_cols[i], th.px(2.5f), th.px(10));
    else
      dl->AddLine(a, b, roof_cols[i], th.px(2.5f));
  }
  dl->PopClipRect();

  // Points and their labels; hover shows the numbers behind them.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hovered = -1;
  const ImU32 pt = ImGui::GetColorU32(th.colors().lesson), bad = ImGui::GetColorU32(th.colors().bad);
  int wrong_marked = 0;
  for (std::size_t i = 0; i < rl.points.size(); ++i) {
    const ImVec2 c(float(L.px[i]), float(L.py[i]));
    const RooflinePoint& p = rl.points[i];
    if (p.wrong) {  // a wrong answer: a red cross and a red label, never a point like the others
      const float d = th.px(8);
      dl->AddLine(ImVec2(c.x - d, c.y - d), ImVec2(c.x + d, c.y + d), bad, th.px(3.5f));
      dl->AddLine(ImVec2(c.x - d, c.y + d), ImVec2(c.x + d, c.y - d), bad, th.px(3.5f));
      ++wrong_marked;
    } else {
      dl->AddCircleFilled(c, th.px(7), pt);
      dl->AddCircle(c, th.px(7), ink, 0, th.px(1.5f));
    }
    const ImVec2 lp(float(L.label_x[i]), float(L.label_y[i]) - lfs / 2);
    if (std::fabs(L.label_y[i] - L.py[i]) > 1)
      dl->AddLine(c, ImVec2(lp.x - th.px(2), float(L.label_y[i])), dim, th.px(1));
    const std::string label = p.label + (L.off_scale[i] ? " (off scale)" : "");
    DrawText(dl, font, lfs, lp, p.wrong ? bad : ink, label.c_str());
    if (std::hypot(mouse.x - c.x, mouse.y - c.y) <= th.px(12)) hovered = int(i);
  }
  layout_probe().counts["roofline points"] = int(rl.points.size());
  layout_probe().counts["roofline wrong points marked"] = wrong_marked;
  layout_probe().counts["roofline roofs"] = int(rl.roofs.size());
  ImGui::Dummy(avail);
  if (hovered >= 0) {
    const RooflinePoint& p = rl.points[std::size_t(hovered)];
    char b[512];
    std::snprintf(
        b, sizeof b,
        "%s (n = %lld, %s)\n%.4g operations / %.4g DRAM bytes = %.4g ops per byte\n%.4g operations / %.4g ms = %s\n"
        "roof at this intensity: %s (%.0f %% of it)",
        p.variant.c_str(), (long long)p.n, to_string(p.type), p.operations, p.dram_bytes, p.intensity, p.operations,
        p.seconds * 1e3, rate(p.ops_per_s, "op/s").c_str(), rate(roof_at(rl, p.intensity), "op/s").c_str(),
        100.0 * p.ops_per_s / std::max(roof_at(rl, p.intensity), 1.0));
    ImGui::SetTooltip("%s", b);
  }
}

/// The Roofline tab.
/// Its tab stands at position 130 (all_views() sorts by it).
ViewInfo roofline_view_info() { return make_view_info<RooflineView>(130, "roofline", "Roofline", false); }

}  // namespace ws::ui
