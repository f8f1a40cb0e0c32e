#include "views/view_warps.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "trace/analyses.hpp"
#include "views/hazard_marks.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

namespace {

struct LaneColors {
  ImU32 active, divergent, idle_warp, none;
};

LaneColors lane_colors() {
  const Palette& p = theme().colors();
  return {ImGui::GetColorU32(p.ok), ImGui::GetColorU32(p.lesson), ImGui::GetColorU32(p.cell_empty),
          ImGui::GetColorU32(p.cell_missing)};
}

void Counter(const char* label, const std::string& value, const ImVec4& color) {
  ImGui::PushFont(theme().fonts().heading);
  const float value_w = ImGui::CalcTextSize(value.c_str()).x;
  ImGui::PopFont();
  WrapUnlessFits(value_w + theme().px(6) + ImGui::CalcTextSize(label).x);
  ImGui::PushFont(theme().fonts().heading);
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::TextUnformatted(value.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::SameLine(0, theme().px(6));
  TextDim(label);
  ImGui::SameLine(0, theme().px(30));
}

}  // namespace

void WarpsView::draw(const controller::ViewContext& ctx, controller::ViewActions& actions) {
  if (!TraceHeader(ctx, actions)) return;
  controller::TraceState& trace = actions.trace();  // the player's step, block and switches
  const Theme& th = theme();
  const Palette& p = th.colors();
  const Trace& tr = *trace.trace;
  const Step& step = tr.steps[std::size_t(trace.step)];
  const int warps = tr.warps();
  const std::vector<std::uint32_t> masks = active_masks(tr, step);
  const WarpActivity act = warp_activity(tr, masks);
  const LaneColors lc = lane_colors();

  // A narrow view (half of the Pair view, large fonts) takes the short words, so the counters and the
  // legend keep to a line each and the grid keeps its rows.
  const bool narrow = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 30.f;
  ImGui::Spacing();
  Counter(narrow ? "warps on" : "active warps", std::to_string(act.active_warps) + " / " + std::to_string(warps), p.ok);
  Counter(narrow ? "divergent" : "divergent warps", std::to_string(act.divergent_warps),
          act.divergent_warps ? p.lesson : p.text);
  Counter(narrow ? "lanes" : "active lanes", std::to_string(act.active_lanes) + " / " + std::to_string(tr.block_size),
          p.text);
  ImGui::NewLine();
  LegendSwatch(lc.active, narrow ? "works" : "working lane");
  LegendSwatch(lc.divergent, narrow ? "idle, warp diverges" : "idle lane in an active warp (divergence)");
  LegendSwatch(lc.idle_warp, narrow ? "warp idle" : "warp idle / retired");
  ImGui::NewLine();
  const std::vector<Hazard>& all_hazards = TraceHazards(trace);
  const std::vector<const Hazard*> hazards = HazardLegend(all_hazards, trace.step);

  // Layout: the grid fills what the strip below leaves (zoom and pan inside it); cells square. Labels
  // are never drawn below the smallest readable size: with many warps only every k-th is named.
  const float strip_h = std::clamp(ImGui::GetContentRegionAvail().y * 0.16f, th.px(40), th.px(140));
  const float strip_caption_h = ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
  const ZoomCanvas c = zoom_.begin(
      "warps_canvas", ImVec2(0, std::max(th.px(80), ImGui::GetContentRegionAvail().y - strip_h - strip_caption_h)));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float min_fs = th.min_text();
  ImFont* regular = th.fonts().regular;
  const float body = ImGui::GetFontSize();
  // Cell size first at the body font's label width, then labels sized to the cell. Cells are square
  // up to 8 warps; with more they keep the width and flatten (at most 8:1, so 32 warps of a 1024-thread
  // block still span the width of a 1920-px screen) so the grid fills the view.
  const float label_w1 = regular->CalcTextSizeA(1.f, 1e9f, 0, ("warp " + std::to_string(warps - 1)).c_str()).x;
  float fs = body;
  float cell = 0, cell_h = 0, label_w = 0;
  for (int pass = 0; pass < 2; ++pass) {
    label_w = label_w1 * fs + th.px(10);
    const float head = fs * 1.2f;
    const float w_fit = (c.size.x - label_w - th.px(4)) / float(kWarpSize),
                h_fit = (c.size.y - head - th.px(4)) / float(warps);
    cell_h = std::min(w_fit, h_fit);
    cell = std::min(w_fit, 8.f * cell_h);
    fs = std::clamp(std::min(cell, cell_h) * 0.8f, min_fs, body);
  }
  const float head_h = fs * 1.2f;
  const float gap = cell_h >= th.px(10) ? std::max(1.f, cell_h * 0.12f) : cell_h >= 4.f ? 1.f : 0.f;
  const ImVec2 o = c.origin;
  const ImU32 dim = ImGui::GetColorU32(p.text_dim);
  // Lane numbers: every lane when they fit, else every 4th or 8th.
  const float num_w = regular->CalcTextSizeA(fs, 1e9f, 0, "31").x + th.px(4);
  const int lane_every = num_w <= cell ? 1 : num_w <= 4 * cell ? 4 : 8;
  for (int l = 0; l < kWarpSize; l += lane_every) {
    const std::string t = std::to_string(l);
    const float tw = regular->CalcTextSizeA(fs, 1e9f, 0, t.c_str()).x;
    const float x = o.x + label_w + float(l) * cell + (lane_every == 1 ? (cell - tw) * 0.5f : 0.f);
    DrawText(dl, regular, fs, ImVec2(x, o.y), dim, t.c_str());
  }
  DrawText(dl, regular, fs, ImVec2(o.x, o.y), dim, "lane");
  const int warp_every = std::max(1, int(std::ceil(fs * 1.05f / cell_h)));
  const float gy = o.y + head_h;
  for (int w = 0; w < warps; ++w) {
    const float y = gy + float(w) * cell_h;
    const std::uint32_t exist = existing_lanes(tr.block_size, w);
    const std::uint32_t m = masks[std::size_t(w)];
    const bool div = is_divergent(m, tr.block_size, w);
    if (w % warp_every == 0) {
      const std::string t = "warp " + std::to_string(w);
      DrawText(dl, regular, fs, ImVec2(o.x, y + (cell_h - fs) * 0.5f), div ? ImGui::GetColorU32(p.lesson) : dim,
               t.c_str());
    }
    for (int l = 0; l < kWarpSize; ++l) {
      const bool exists = (exist >> l) & 1u, on = (m >> l) & 1u;
      const ImU32 col = !exists ? lc.none : on ? lc.active : m ? lc.divergent : lc.idle_warp;
      const ImVec2 a(o.x + label_w + float(l) * cell, y);
      dl->AddRectFilled(ImVec2(a.x + gap * 0.5f, a.y + gap * 0.5f),
                        ImVec2(a.x + cell - gap * 0.5f, a.y + cell_h - gap * 0.5f), col, gap > 0 ? th.px(2) : 0.f);
    }
    if (div) {  // outline the whole divergent warp so it reads from the back row
      dl->AddRect(ImVec2(o.x + label_w - 1, y), ImVec2(o.x + label_w + kWarpSize * cell + 1, y + cell_h),
                  ImGui::GetColorU32(p.lesson), 0, 0, std::max(1.f, th.px(1.5f)));
    }
  }
  // Hazards of this step: the two threads' lanes outlined in red, joined by a red edge.
  int hazard_marks = 0;
  for (const Hazard* h : hazards) {
    ImVec2 ends[2];
    int k = 0;
    for (const HazardAccess* a : {&h->first, &h->second}) {
      const int w = a->thread / kWarpSize, l = a->thread % kWarpSize;
      if (w >= warps) continue;
      const ImVec2 lo(o.x + label_w + float(l) * cell, gy + float(w) * cell_h);
      dl->AddRect(lo, ImVec2(lo.x + cell, lo.y + cell_h), HazardColor(), 0, 0, std::max(2.f, th.px(3)));
      ends[k++] = ImVec2(lo.x + cell * 0.5f, lo.y + cell_h * 0.5f);
      ++hazard_marks;
    }
    if (k == 2) dl->AddLine(ends[0], ends[1], HazardColor(), std::max(1.5f, th.px(2)));
  }
  layout_probe().counts["warp hazard marks"] = hazard_marks;
  layout_probe().picture("warp grid", o, ImVec2(o.x + label_w + kWarpSize * cell, gy + float(warps) * cell_h));
  layout_probe().counts["warp labels every"] = warp_every;
  const ImVec2 grid_mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsWindowHovered()) {
    const int l = int(std::floor((grid_mouse.x - o.x - label_w) / cell)),
              w = int(std::floor((grid_mouse.y - gy) / cell_h));
    if (l >= 0 && l < kWarpSize && w >= 0 && w < warps) {
      const int thread = w * kWarpSize + l;
      const bool on = (masks[std::size_t(w)] >> l) & 1u;
      ImGui::SetTooltip("thread %d (warp %d, lane %d): %s", thread, w, l,
                        on                      ? "working"
                        : masks[std::size_t(w)] ? "idle while its warp works (divergence)"
                                                : "idle (whole warp idle)");
    }
  }
  zoom_.end();

  // The strip: one column per step, one thin row per warp.
  ImGui::Spacing();
  TextEllipsis(
      "all steps: column = step, row = warp (green: all lanes work, amber: divergent, grey: idle; red bar: hazard); "
      "click to jump",
      ImGui::GetContentRegionAvail().x, &p.text_dim);
  const ImVec2 so = ImGui::GetCursorScreenPos();
  ImDrawList* sdl = ImGui::GetWindowDrawList();
  const int n_steps = trace.steps();
  const float sw = std::max(2.f, std::min((ImGui::GetContentRegionAvail().x - th.px(4)) / float(n_steps), th.px(48)));
  const float sh = std::max(1.f, (strip_h - th.px(6)) / float(warps));
  for (int k = 0; k < n_steps; ++k) {
    const Step& st = tr.steps[std::size_t(k)];
    const std::vector<std::uint32_t> mk = active_masks(tr, st);
    for (int w = 0; w < warps; ++w) {
      const std::uint32_t m = mk[std::size_t(w)];
      const ImU32 c = !m ? lc.idle_warp : is_divergent(m, tr.block_size, w) ? lc.divergent : lc.active;
      const ImVec2 a(so.x + float(k) * sw, so.y + float(w) * sh);
      sdl->AddRectFilled(ImVec2(a.x + (sw > 6 ? 1.f : 0.f), a.y), ImVec2(a.x + sw - (sw > 6 ? 1.f : 0.f), a.y + sh), c);
    }
  }
  const float strip_total_h = sh * float(warps);
  for (int k = 0; k < n_steps; ++k)  // a red bar over the steps with a shared-memory hazard
    if (!hazards_at_step(all_hazards, k).empty())
      sdl->AddRectFilled(ImVec2(so.x + float(k) * sw, so.y - th.px(5)),
                         ImVec2(so.x + float(k + 1) * sw, so.y - th.px(1)), HazardColor());
  sdl->AddRect(ImVec2(so.x + float(trace.step) * sw - 1, so.y - 2),
               ImVec2(so.x + float(trace.step + 1) * sw + 1, so.y + strip_total_h + 2), IM_COL32_WHITE, 0, 0,
               th.px(2.5f));
  ImGui::InvisibleButton("##strip", ImVec2(std::max(1.f, sw * float(n_steps)), strip_total_h));
  if (ImGui::IsItemHovered()) {
    const int k = std::clamp(int((ImGui::GetIO().MousePos.x - so.x) / sw), 0, n_steps - 1);
    const Step& st = tr.steps[std::size_t(k)];
    ImGui::SetTooltip("step %d: %s %s", k, to_string(st.phase), st.label.c_str());
    if (ImGui::IsItemClicked()) {
      trace.step = k;
      trace.playing = false;
    }
  }
}

/// The Warps tab.
/// Its tab stands at position 30 (all_views() sorts by it).
ViewInfo warps_view_info() { return make_view_info<WarpsView>(30, "warps", "Warps", kSteps); }

}  // namespace ws::ui
