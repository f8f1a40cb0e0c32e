#include "views/view_banks.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "trace/analyses.hpp"
#include "trace_source.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::warp_shared_accesses;
using controller::WarpAccess;

namespace {

std::string access_title(const WarpAccess& a, const Step& step, int w) {
  // The address pattern of lane 0 and 1 ("s[0], s[2], ...") tells the student which expression it is.
  std::string words;
  int shown = 0;
  for (int l = 0; l < kWarpSize && shown < 3; ++l)
    if (a.lane_word[std::size_t(l)] >= 0) {
      words += (shown ? ", " : "") + std::string("s[") + std::to_string(a.lane_word[std::size_t(l)]) + "]";
      ++shown;
    }
  (void)step;
  (void)w;
  return std::string(to_string(a.kind)) + " (access " + std::to_string(a.access) + "): " + words + ", ...";
}

/// One access in `height` pixels (its title line included): lane boxes on top, bank boxes below, a
/// line per lane to its bank, "Nx" under a bank that serves N distinct words.
void DrawAccess(const WarpAccess& a, const Step& step, int w, float height) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  const ImVec2 top = ImGui::GetCursorScreenPos();
  ImGui::PushFont(th.fonts().bold);
  ImGui::TextUnformatted(access_title(a, step, w).c_str());
  ImGui::PopFont();
  ImGui::SameLine(0, th.px(16));
  if (a.ways <= 1) {
    Badge("conflict-free", p.ok);
  } else {
    const std::string b = std::to_string(a.ways) + "-way conflict";
    Badge(b.c_str(), p.bad);
  }
  height -= ImGui::GetCursorScreenPos().y - top.y;  // what the picture has under the title
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float min_fs = th.min_text();
  ImFont* regular = th.fonts().regular;
  const float side_fs = std::max(min_fs, std::min(ImGui::GetFontSize() * 0.8f, height * 0.18f));
  const float label_w = regular->CalcTextSizeA(side_fs, 1e9f, 0, "banks").x + th.px(12);
  const float cell = std::max(4.f, (ImGui::GetContentRegionAvail().x - label_w - th.px(6)) / 32.f);
  const float box = cell * 0.88f;
  // Numbers in the boxes at the largest size that fits the box, never below the smallest readable.
  const float num_fs = std::max(min_fs, std::min({ImGui::GetFontSize() * 0.8f, box * 0.6f, height * 0.16f}));
  const bool numbers = regular->CalcTextSizeA(num_fs, 1e9f, 0, "31").x <= box - 2.f;
  const float box_h = std::max(num_fs * 1.25f, std::min(height * 0.24f, th.px(30)));
  const float nx_h = num_fs + th.px(2);  // room under the banks for "Nx"
  const float lane_y = o.y, bank_y = o.y + std::max(height - box_h - nx_h, box_h + th.px(8));
  const ImU32 dim = ImGui::GetColorU32(p.text_dim), text = ImGui::GetColorU32(p.badge_text);
  const float fs = num_fs;
  DrawText(dl, regular, side_fs, ImVec2(o.x, lane_y + (box_h - side_fs) * 0.5f), dim, "lanes");
  DrawText(dl, regular, side_fs, ImVec2(o.x, bank_y + (box_h - side_fs) * 0.5f), dim, "banks");
  auto cx = [&](int i) { return o.x + label_w + (float(i) + 0.5f) * cell; };
  for (int l = 0; l < kWarpSize; ++l) {
    const std::int64_t word = a.lane_word[std::size_t(l)];
    if (word < 0) continue;
    const int bank = int(word % kBanks);
    const bool clash = a.bank_words[std::size_t(bank)] > 1;
    dl->AddLine(
        ImVec2(cx(l), lane_y + box_h), ImVec2(cx(bank), bank_y),
        ImGui::GetColorU32(clash ? ImVec4(p.bad.x, p.bad.y, p.bad.z, 0.85f) : ImVec4(p.ok.x, p.ok.y, p.ok.z, 0.6f)),
        th.px(clash ? 2.f : 1.3f));
  }
  for (int i = 0; i < kWarpSize; ++i) {
    const std::string n = std::to_string(i);
    const ImVec2 ts = regular->CalcTextSizeA(fs, 1e9f, 0, n.c_str());
    // lane
    const bool part = a.lane_word[std::size_t(i)] >= 0;
    const ImVec2 la(cx(i) - box * 0.5f, lane_y), lb(cx(i) + box * 0.5f, lane_y + box_h);
    dl->AddRectFilled(la, lb, part ? WarpColor(w) : ImGui::GetColorU32(theme().colors().cell_empty), th.px(3));
    if (numbers)
      DrawText(dl, regular, fs, ImVec2(cx(i) - ts.x * 0.5f, lane_y + (box_h - ts.y) * 0.5f), part ? text : dim,
               n.c_str());
    // bank
    const int words = a.bank_words[std::size_t(i)];
    const ImU32 bc = words > 1    ? ImGui::GetColorU32(p.bad)
                     : words == 1 ? ImGui::GetColorU32(p.ok)
                                  : ImGui::GetColorU32(theme().colors().cell_empty);
    const ImVec2 ba(cx(i) - box * 0.5f, bank_y), bb(cx(i) + box * 0.5f, bank_y + box_h);
    dl->AddRectFilled(ba, bb, bc, th.px(3));
    if (numbers)
      DrawText(dl, regular, fs, ImVec2(cx(i) - ts.x * 0.5f, bank_y + (box_h - ts.y) * 0.5f), words ? text : dim,
               n.c_str());
    if (words > 1) {  // "n-way" under the bank where distinct words collide
      const std::string wl = std::to_string(words) + "x";
      const ImVec2 ws = th.fonts().bold->CalcTextSizeA(fs, 1e9f, 0, wl.c_str());
      DrawText(dl, th.fonts().bold, fs, ImVec2(cx(i) - ws.x * 0.5f, bb.y + th.px(2)), ImGui::GetColorU32(p.bad),
               wl.c_str());
    }
  }
  layout_probe().picture("banks", top, ImVec2(o.x + label_w + 32 * cell, bank_y + box_h + nx_h));
  layout_probe().counts["bank accesses"] += 1;
  height = bank_y + box_h + nx_h - o.y;
  ImGui::Dummy(ImVec2(label_w + 32 * cell, height));
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (ImGui::IsItemHovered()) {
    const int i = int((m.x - o.x - label_w) / cell);
    if (i >= 0 && i < kWarpSize) {
      if (m.y < o.y + height * 0.5f) {
        const std::int64_t word = a.lane_word[std::size_t(i)];
        if (word >= 0)
          ImGui::SetTooltip("lane %d (thread %d): s[%lld] -> bank %lld", i, w * kWarpSize + i, (long long)word,
                            (long long)(word % kBanks));
        else
          ImGui::SetTooltip("lane %d: no access", i);
      } else {
        std::string words;
        for (int l = 0; l < kWarpSize; ++l)
          if (a.lane_word[std::size_t(l)] >= 0 && a.lane_word[std::size_t(l)] % kBanks == i &&
              words.find("s[" + std::to_string(a.lane_word[std::size_t(l)]) + "]") == std::string::npos)
            words +=
                (words.empty() ? "" : ", ") + std::string("s[") + std::to_string(a.lane_word[std::size_t(l)]) + "]";
        ImGui::SetTooltip("bank %d: %d distinct word(s) %s%s", i, a.bank_words[std::size_t(i)], words.c_str(),
                          a.bank_words[std::size_t(i)] > 1 ? " -> served one after another" : "");
      }
    }
  }
}

}  // namespace

void BanksView::draw(const controller::ViewContext& ctx, controller::ViewActions& actions) {
  if (!TraceHeader(ctx, actions)) return;
  controller::TraceState& trace = actions.trace();  // the player's step, block and switches
  const Theme& th = theme();
  const Trace& tr = *trace.trace;
  const Step& step = tr.steps[std::size_t(trace.step)];
  const int warps = tr.warps();
  trace.bank_warp = std::clamp(trace.bank_warp, 0, warps - 1);

  ImGui::AlignTextToFramePadding();
  if (Handout()) {
    ImGui::Text("warp %d", trace.bank_warp);  // which warp the picture shows, without the slider
  } else {
    ImGui::TextUnformatted("warp");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(th.px(180));
    ImGui::SliderInt("##bank_warp", &trace.bank_warp, 0, warps - 1, "%d", ImGuiSliderFlags_AlwaysClamp);
  }
  const int w = trace.bank_warp;
  ImGui::SameLine(0, th.px(24));
  const char* rule =
      "bank = word index % 32; lanes on the same word share it (broadcast), distinct words in one bank are "
      "served one after another";
  TextEllipsis(rule, ImGui::GetContentRegionAvail().x, &th.colors().text_dim);
  ItemTooltip(rule);

  const std::vector<WarpAccess> acc = warp_shared_accesses(step, w);
  if (acc.empty()) {
    ImGui::Spacing();
    TextWrappedColored(th.colors().text_dim,
                       "warp " + std::to_string(w) + " makes no shared-memory access in this step (" +
                           to_string(step.phase) + (step.label.empty() ? "" : ": " + step.label) + ")");
    return;
  }
  // Every access of the step in the view at once: each gets an equal share of the height.
  ImGui::BeginChild("banks_canvas", ImVec2(0, 0), false);
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  const float each = (ImGui::GetContentRegionAvail().y - gap * float(acc.size())) / float(acc.size());
  const float h = std::clamp(each, th.min_text() * 5.f, th.px(260));
  for (const WarpAccess& a : acc) DrawAccess(a, step, w, h);
  ImGui::EndChild();
}

/// The Banks tab.
/// Its tab stands at position 40 (all_views() sorts by it).
ViewInfo banks_view_info() { return make_view_info<BanksView>(40, "banks", "Banks", kSteps); }

}  // namespace ws::ui
