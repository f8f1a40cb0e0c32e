#include "view_warps.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "sim/analyses.hpp"
#include "theme.hpp"
#include "view_steps.hpp"
#include "widgets.hpp"

namespace ws::ui {

namespace {

struct LaneColors {
  ImU32 active, divergent, idle_warp, none;
};

LaneColors lane_colors() {
  const Palette& p = theme().colors();
  return {ImGui::GetColorU32(p.ok), ImGui::GetColorU32(p.lesson), ImGui::GetColorU32(ImVec4(0.25f, 0.27f, 0.31f, 1.f)),
          ImGui::GetColorU32(ImVec4(0.12f, 0.13f, 0.15f, 1.f))};
}

void LegendSwatch(ImU32 color, const char* label) {
  const Theme& th = theme();
  const float sz = ImGui::GetFontSize() * 0.8f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float dy = (ImGui::GetTextLineHeight() - sz) * 0.5f;
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + dy), ImVec2(p.x + sz, p.y + dy + sz), color, th.px(2));
  ImGui::Dummy(ImVec2(sz, ImGui::GetTextLineHeight()));
  ImGui::SameLine(0, th.px(6));
  ImGui::TextUnformatted(label);
  ImGui::SameLine(0, th.px(22));
}

void Counter(const char* label, const std::string& value, const ImVec4& color) {
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

void WarpsView::draw(AppState& s) {
  if (!TraceHeader(s)) return;
  const Theme& th = theme();
  const Palette& p = th.colors();
  const Trace& tr = *s.trace.trace;
  const Step& step = tr.steps[std::size_t(s.trace.step)];
  const int warps = tr.warps();
  const std::vector<std::uint32_t> masks = active_masks(tr, step);
  const WarpActivity act = warp_activity(tr, masks);
  const LaneColors lc = lane_colors();

  ImGui::Spacing();
  Counter("active warps", std::to_string(act.active_warps) + " / " + std::to_string(warps), p.ok);
  Counter("divergent warps", std::to_string(act.divergent_warps), act.divergent_warps ? p.lesson : p.text);
  Counter("active lanes", std::to_string(act.active_lanes) + " / " + std::to_string(tr.block_size), p.text);
  ImGui::NewLine();
  LegendSwatch(lc.active, "working lane");
  LegendSwatch(lc.divergent, "idle lane in an active warp (divergence)");
  LegendSwatch(lc.idle_warp, "warp idle / retired");
  ImGui::NewLine();

  // Layout: the grid takes what the strip below leaves; cells square, as large as fit but never
  // below a size readable on a projector (the canvas scrolls instead).
  ImGui::BeginChild("warps_canvas", ImVec2(0, 0), false);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float label_w = ImGui::CalcTextSize("warp 31").x + th.px(10);
  const float strip_h = std::clamp(avail.y * 0.24f, th.px(70), th.px(200));
  const float grid_h = avail.y - strip_h - ImGui::GetTextLineHeightWithSpacing() * 2 - th.px(12);
  const float head_h = ImGui::GetTextLineHeight();
  const float cell = std::max(th.px(12), std::min((avail.x - label_w - th.px(8)) / 32.f, (grid_h - head_h) / float(warps)));
  const float gap = cell >= th.px(10) ? std::max(1.f, cell * 0.12f) : 0.f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float fs = std::min(ImGui::GetFontSize(), std::max(cell * 0.95f, th.px(11)));
  const ImU32 dim = ImGui::GetColorU32(p.text_dim);
  // Lane numbers every 8 lanes.
  for (int l = 0; l < 32; l += 8) {
    const std::string t = std::to_string(l);
    dl->AddText(th.fonts().regular, fs, ImVec2(o.x + label_w + float(l) * cell, o.y), dim, t.c_str());
  }
  dl->AddText(th.fonts().regular, fs, ImVec2(o.x, o.y), dim, "lane");
  const float gy = o.y + head_h;
  for (int w = 0; w < warps; ++w) {
    const float y = gy + float(w) * cell;
    const std::uint32_t exist = existing_lanes(tr.block_size, w);
    const std::uint32_t m = masks[std::size_t(w)];
    const bool div = is_divergent(m, tr.block_size, w);
    if (warps <= 32 && cell >= th.px(9)) {
      const std::string t = "warp " + std::to_string(w);
      dl->AddText(th.fonts().regular, fs, ImVec2(o.x, y + (cell - fs) * 0.5f), div ? ImGui::GetColorU32(p.lesson) : dim, t.c_str());
    }
    for (int l = 0; l < 32; ++l) {
      const bool exists = (exist >> l) & 1u, on = (m >> l) & 1u;
      const ImU32 c = !exists ? lc.none : on ? lc.active : m ? lc.divergent : lc.idle_warp;
      const ImVec2 a(o.x + label_w + float(l) * cell, y);
      dl->AddRectFilled(ImVec2(a.x + gap * 0.5f, a.y + gap * 0.5f), ImVec2(a.x + cell - gap * 0.5f, a.y + cell - gap * 0.5f), c,
                        gap > 0 ? th.px(2) : 0.f);
    }
    if (div) {  // outline the whole divergent warp so it reads from the back row
      dl->AddRect(ImVec2(o.x + label_w - 1, y), ImVec2(o.x + label_w + 32 * cell + 1, y + cell), ImGui::GetColorU32(p.lesson), 0, 0,
                  std::max(1.f, th.px(1.5f)));
    }
  }
  const ImVec2 grid_mouse = ImGui::GetIO().MousePos;
  ImGui::Dummy(ImVec2(label_w + 32 * cell, head_h + float(warps) * cell));
  if (ImGui::IsItemHovered()) {
    const int l = int((grid_mouse.x - o.x - label_w) / cell), w = int((grid_mouse.y - gy) / cell);
    if (l >= 0 && l < 32 && w >= 0 && w < warps) {
      const int thread = w * 32 + l;
      const bool on = (masks[std::size_t(w)] >> l) & 1u;
      ImGui::SetTooltip("thread %d (warp %d, lane %d): %s", thread, w, l,
                        on ? "working" : masks[std::size_t(w)] ? "idle while its warp works (divergence)" : "idle (whole warp idle)");
    }
  }

  // The strip: one column per step, one thin row per warp.
  ImGui::Spacing();
  TextDim("all steps (column = step, row = warp; green = all lanes work, amber = divergent, grey = idle); click to jump", true);
  const ImVec2 so = ImGui::GetCursorScreenPos();
  const int n_steps = s.trace.steps();
  const float sw = std::max(2.f, std::min((ImGui::GetContentRegionAvail().x - th.px(4)) / float(n_steps), th.px(48)));
  const float sh = std::max(2.f, (strip_h - th.px(4)) / float(warps));
  for (int k = 0; k < n_steps; ++k) {
    const Step& st = tr.steps[std::size_t(k)];
    const std::vector<std::uint32_t> mk = active_masks(tr, st);
    for (int w = 0; w < warps; ++w) {
      const std::uint32_t m = mk[std::size_t(w)];
      const ImU32 c = !m ? lc.idle_warp : is_divergent(m, tr.block_size, w) ? lc.divergent : lc.active;
      const ImVec2 a(so.x + float(k) * sw, so.y + float(w) * sh);
      dl->AddRectFilled(ImVec2(a.x + (sw > 6 ? 1.f : 0.f), a.y), ImVec2(a.x + sw - (sw > 6 ? 1.f : 0.f), a.y + sh), c);
    }
  }
  const float strip_total_h = sh * float(warps);
  dl->AddRect(ImVec2(so.x + float(s.trace.step) * sw - 1, so.y - 2), ImVec2(so.x + float(s.trace.step + 1) * sw + 1, so.y + strip_total_h + 2),
              IM_COL32_WHITE, 0, 0, th.px(2.5f));
  ImGui::InvisibleButton("##strip", ImVec2(std::max(1.f, sw * float(n_steps)), strip_total_h));
  if (ImGui::IsItemHovered()) {
    const int k = std::clamp(int((ImGui::GetIO().MousePos.x - so.x) / sw), 0, n_steps - 1);
    const Step& st = tr.steps[std::size_t(k)];
    ImGui::SetTooltip("step %d: %s %s", k, st.phase.c_str(), st.label.c_str());
    if (ImGui::IsItemClicked()) {
      s.trace.step = k;
      s.trace.playing = false;
    }
  }
  ImGui::EndChild();
}

}  // namespace ws::ui
