#include "views/view_scan.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <string>

#include "launch_rules.hpp"
#include "registry.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::format_value;

namespace {
/// Elements drawn with their values at most; longer arrays (or values too wide for the view at the
/// smallest text) show their first elements.
constexpr int kMaxSlots = 64;
}  // namespace

void ScanView::draw(const controller::ViewContext& ctx, controller::ViewActions& actions) {
  if (!TraceHeader(ctx, actions)) return;
  controller::TraceState& trace = actions.trace();  // the player's step, block and switches
  const Theme& th = theme();
  const Trace& tr = *trace.trace;
  if (built_from_ != &tr || !key_ || !trace.key || *key_ != *trace.key) {
    // The traced block scans min(n - its start, its window) elements.
    std::int64_t elements = tr.n;
    if (const VariantInfo* v = find_variant(tr.variant)) {
      const std::int64_t window = window_elems(*v, tr.block_size);
      elements = std::min<std::int64_t>(window, tr.n - std::int64_t(tr.block_index) * window);
    }
    graph_ = scan_graph(tr, elements);
    built_from_ = &tr;
    key_ = trace.key;
  }
  const ScanGraph& g = graph_;
  if (!g.note.empty()) {
    ImGui::Spacing();
    TextWrappedColored(th.colors().lesson, g.note);
    return;
  }
  const int cur = std::clamp(trace.step, 0, int(g.steps.size()) - 1);
  const ScanStepView& st = g.steps[std::size_t(cur)];

  // Work count: this step, so far, all steps, against the sequential scan of the same elements.
  LabelValue("work (traced block)", work_summary(g));
  LabelValue("this step",
             std::to_string(st.additions) + " additions; " + std::to_string(st.additions_so_far) + " so far");
  {
    std::vector<float> per_step;
    for (const ScanStepView& v : g.steps) per_step.push_back(float(v.additions));
    // The label on its own line: as the histogram's overlay it sat on the bars.
    TextDim("additions per step (step " + std::to_string(cur) + ": " + std::to_string(st.additions) + ")");
    ImGui::PlotHistogram("##adds", per_step.data(), int(per_step.size()), 0, nullptr, 0.f, FLT_MAX,
                         ImVec2(ImGui::GetContentRegionAvail().x, th.px(60)));
    // The step shown, outlined in its slot (the histogram's bars fill the frame less its padding).
    if (!per_step.empty()) {
      const ImVec2 pad = ImGui::GetStyle().FramePadding;
      const ImVec2 a(ImGui::GetItemRectMin().x + pad.x, ImGui::GetItemRectMin().y + pad.y);
      const ImVec2 b(ImGui::GetItemRectMax().x - pad.x, ImGui::GetItemRectMax().y - pad.y);
      const float w = (b.x - a.x) / float(per_step.size());
      ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x + w * float(cur), a.y), ImVec2(a.x + w * float(cur + 1), b.y),
                                          IM_COL32_WHITE, 0, 0, th.px(2.5f));
    }
  }

  // Active lanes per warp: a bar per warp, green for the working lanes.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  {
    TextDim("active lanes per warp (working threads of this step)");
    const int warps = int(st.active_lanes.size());
    const float cell =
        std::clamp((ImGui::GetContentRegionAvail().x - th.px(8)) / float(std::max(1, warps)), th.px(6), th.px(90));
    const float h = th.px(16);
    const bool counts = cell >= th.px(40);  // each bar's count under it, on the background: read on any fill
    const float text_h = counts ? ImGui::GetFontSize() + th.px(2) : 0.f;
    ImGui::Dummy(ImVec2(cell * float(warps), h + text_h + th.px(4)));
    const ImVec2 o = ImGui::GetItemRectMin();
    for (int w = 0; w < warps; ++w) {
      const float x0 = o.x + float(w) * cell, x1 = x0 + cell - th.px(2);
      dl->AddRectFilled(ImVec2(x0, o.y), ImVec2(x1, o.y + h), ImGui::GetColorU32(theme().colors().cell_empty));
      const float frac = float(st.active_lanes[std::size_t(w)]) / 32.f;
      if (frac > 0)
        dl->AddRectFilled(ImVec2(x0, o.y), ImVec2(x0 + (x1 - x0) * frac, o.y + h), ImGui::GetColorU32(th.colors().ok));
      if (counts) {
        const std::string t = std::to_string(st.active_lanes[std::size_t(w)]) + "/32";
        dl->AddText(ImVec2(x0, o.y + h + th.px(2)), ImGui::GetColorU32(th.colors().text), t.c_str());
      }
    }
  }

  // The graph: the array before the step (top) and after it (bottom), one edge per addition.
  const int elements = std::max<int>(int(st.after.size()), int(st.before.size()));
  int slots = std::min(kMaxSlots, elements);
  if (slots == 0) {
    TextDim("this step keeps no shared array (registers only): only its additions are counted", true);
    return;
  }
  {
    // As many elements as keep every value readable at the smallest text size (presentation mode
    // enlarges the text, so fewer elements then), at least 8.
    std::size_t widest = 1;
    for (int i = 0; i < slots; ++i) {
      if (i < int(st.before.size())) widest = std::max(widest, format_value(st.before[std::size_t(i)], tr.type).size());
      if (i < int(st.after.size())) widest = std::max(widest, format_value(st.after[std::size_t(i)], tr.type).size());
    }
    const float digit = th.fonts().mono->CalcTextSizeA(th.min_text(), 1e9f, 0, "0").x;
    const float gutter_est =
        ImGui::CalcTextSize(g.top.size() > g.bottom.size() ? g.top.c_str() : g.bottom.c_str()).x + th.px(18);
    const float need = digit * float(widest) + th.px(6);
    const int fit = int((ImGui::GetContentRegionAvail().x - gutter_est) / need);
    slots = std::max(std::min(slots, 8), std::min(slots, fit));
  }
  if (elements > slots)
    TextDim("showing elements 0.." + std::to_string(slots - 1) + " of " + std::to_string(elements) +
                " (as many as fit with readable values; a smaller block, where the kernel takes one, shows them all)",
            true);
  else if (!Handout() && g.registers)
    TextDim(
        "no shared array: top, the input x in global memory; bottom, each thread's sum (a register) after the step; "
        "an edge: a thread reads x[j] from global memory and adds it (colour = warp)",
        true);
  else if (!Handout())
    TextEllipsis(
        std::string("top: before the step, bottom: after it; an edge runs from each element added in to the element it "
                    "updates (colour = warp); ") +
            ZoomHint(),
        ImGui::GetContentRegionAvail().x, &th.colors().text_dim);
  // The graph fills the rest of the view (zoom and pan inside it); no text below the smallest size.
  const ZoomCanvas c = zoom_.begin("scan_canvas");
  const ImVec2 avail = c.size;
  const float min_fs = th.min_text();
  ImFont* regular = th.fonts().regular;
  const float side_fs = std::max(min_fs, std::min(ImGui::GetFontSize(), avail.y * 0.08f));
  const float gutter = std::max(regular->CalcTextSizeA(side_fs, 1e9f, 0, g.top.c_str()).x,
                                regular->CalcTextSizeA(side_fs, 1e9f, 0, g.bottom.c_str()).x) +
                       th.px(10);
  const float slot_w = (avail.x - gutter - th.px(8)) / float(slots);
  const float box_h = std::clamp((avail.y - th.px(24)) * 0.25f, min_fs * 1.3f, th.px(34));
  const float gap = std::max(avail.y - 2 * box_h - min_fs * 1.4f, th.px(20));
  const ImVec2 o = c.origin;
  ImDrawList* cdl = ImGui::GetWindowDrawList();
  const float top_y = o.y, bot_y = o.y + box_h + gap;
  DrawText(cdl, regular, side_fs, ImVec2(o.x, top_y + (box_h - side_fs) * 0.5f),
           ImGui::GetColorU32(th.colors().text_dim), g.top.c_str());
  DrawText(cdl, regular, side_fs, ImVec2(o.x, bot_y + (box_h - side_fs) * 0.5f),
           ImGui::GetColorU32(th.colors().text_dim), g.bottom.c_str());
  layout_probe().picture("scan graph", o, ImVec2(o.x + gutter + slot_w * float(slots), bot_y + box_h));
  std::vector<int> writer(std::size_t(slots), -1);
  std::vector<int> reader(std::size_t(slots), -1);  // no shared array: the x[j] the step's threads read
  for (const ScanEdge& e : st.edges) {
    if (e.to >= 0 && e.to < slots) writer[std::size_t(e.to)] = e.thread;
    if (g.registers && e.from >= 0 && e.from < slots) reader[std::size_t(e.from)] = e.thread;
  }
  ImFont* mono = th.fonts().mono;
  const float fs = std::clamp(std::min(box_h * 0.7f, ImGui::GetFontSize()), min_fs, ImGui::GetFontSize());
  auto box = [&](float y, int i, double value, bool lit, int thread) {
    const float x0 = o.x + gutter + float(i) * slot_w, x1 = x0 + slot_w - th.px(2);
    const ImU32 fill = Legible(lit ? WarpColor(thread / 32, 1.f) : ImGui::GetColorU32(theme().colors().thread_idle));
    cdl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + box_h), fill, th.px(3));
    const std::string v = format_value(value, tr.type);
    const ImVec2 ts = mono->CalcTextSizeA(fs, 1e9f, 0, v.c_str());
    if (ts.x <= slot_w - th.px(2))
      DrawText(cdl, mono, fs, ImVec2((x0 + x1 - ts.x) * 0.5f, y + (box_h - ts.y) * 0.5f), TextOn(fill), v.c_str());
  };
  for (int i = 0; i < slots; ++i) {
    if (i < int(st.before.size()))
      box(top_y, i, st.before[std::size_t(i)], reader[std::size_t(i)] >= 0, std::max(0, reader[std::size_t(i)]));
    if (i < int(st.after.size()))
      box(bot_y, i, st.after[std::size_t(i)], writer[std::size_t(i)] >= 0, std::max(0, writer[std::size_t(i)]));
  }
  auto cx = [&](std::int64_t i) { return o.x + gutter + (float(i) + 0.5f) * slot_w; };
  for (const ScanEdge& e : st.edges) {
    if (e.to < 0 || e.to >= slots || e.from < 0 || e.from >= slots) continue;
    const ImU32 col = WarpColor(e.thread / 32, 0.9f);
    // Two edges into each updated element: its own old value and the one added in.
    cdl->AddLine(ImVec2(cx(e.from), top_y + box_h), ImVec2(cx(e.to), bot_y), col, th.px(1.6f));
    if (!g.registers)  // a register sum's old value is not in the top row (that is the input x)
      cdl->AddLine(ImVec2(cx(e.to), top_y + box_h), ImVec2(cx(e.to), bot_y),
                   ImGui::GetColorU32(theme().colors().graph_edge), th.px(1.f));
  }
  // Thread ids under the updated elements when each fits its slot at the smallest readable size.
  for (const ScanEdge& e : st.edges) {
    if (e.to >= slots) continue;
    const std::string tl = "t" + std::to_string(e.thread);
    const ImVec2 ts = regular->CalcTextSizeA(min_fs, 1e9f, 0, tl.c_str());
    if (ts.x > slot_w - th.px(2)) continue;
    DrawText(cdl, regular, min_fs, ImVec2(cx(e.to) - ts.x * 0.5f, bot_y + box_h + th.px(2)),
             ImGui::GetColorU32(th.colors().text_dim), tl.c_str());
  }
  zoom_.end();
}

/// The Scan tab.
/// Its tab stands at position 80 (all_views() sorts by it).
ViewInfo scan_view_info() { return make_view_info<ScanView>(80, "scan", "Scan", kSteps); }

}  // namespace ws::ui
