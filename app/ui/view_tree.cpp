#include "view_tree.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "sim/analyses.hpp"
#include "theme.hpp"
#include "view_steps.hpp"
#include "widgets.hpp"

namespace ws::ui {

namespace {

/// Leaves up to this many are drawn with their values; beyond, the tree is an overview (hover for values).
constexpr int kMaxLabelledLeaves = 64;

}  // namespace

void TreeView::draw(AppState& s) {
  if (!TraceHeader(s)) return;
  const Theme& th = theme();
  const Trace& tr = *s.trace.trace;
  if (laid_out_ != &tr || !key_ || !s.trace.key || *key_ != *s.trace.key) {
    layout_ = tree_layout(tr);
    laid_out_ = &tr;
    key_ = s.trace.key;
  }
  const TreeLayout& L = layout_;
  if (!L.note.empty()) {
    ImGui::Spacing();
    TextWrappedColored(th.colors().lesson, L.note);
    return;
  }
  const int rows = int(L.row_step.size());
  const int cur_row = L.row_of_step(s.trace.step);
  const bool labelled = L.slots <= kMaxLabelledLeaves;

  // Node width: wide enough for the widest value when labelled; the canvas scrolls sideways if the
  // labelled tree is wider than the view, and fits the view as an overview otherwise.
  ImFont* font = th.fonts().mono;
  const float font_px = th.px(14);
  float value_w = 0;
  if (labelled)
    for (const TreeNode& n : L.nodes)
      value_w = std::max(value_w, font->CalcTextSizeA(font_px, 1e9f, 0, format_value(n.value, tr.type).c_str()).x);
  float gutter = 0;  // row labels on the left, as wide as the widest
  for (std::size_t r = 0; r < L.row_step.size(); ++r) {
    const Step& st = tr.steps[std::size_t(L.row_step[r])];
    gutter = std::max(gutter, ImGui::CalcTextSize(r == 0 ? ("leaves (" + st.phase + ")").c_str() : st.label.c_str()).x);
  }
  gutter += th.px(14);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float min_slot = labelled ? value_w + th.px(6) : 0.f;
  const float slot_w = std::max((avail.x - gutter - th.px(16)) / float(L.slots), min_slot);
  const float canvas_w = gutter + slot_w * float(L.slots) + th.px(8);
  TextDim(labelled ? "each box: the value a thread wrote (colour = warp, t = thread); hover a node for the operation"
                   : std::to_string(L.slots) + " leaves: overview without values (hover a node for its thread and value)");
  const float legend_h = ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("tree_canvas", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float canvas_h = std::max(ImGui::GetContentRegionAvail().y - th.px(4) - legend_h * 0, th.px(120));
  const float row_h = std::clamp(canvas_h / float(rows), th.px(14), th.px(70));
  ImGui::Dummy(ImVec2(canvas_w, row_h * float(rows)));
  const ImVec2 o = ImGui::GetItemRectMin();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();

  auto centre = [&](const TreeNode& n) {
    return ImVec2(o.x + gutter + (float(n.slot) + 0.5f) * slot_w, o.y + (float(n.row) + 0.5f) * row_h);
  };
  const float box_h = std::min(row_h * 0.62f, labelled ? th.px(26) : th.px(16));
  const float box_w = std::max(std::min(slot_w * 0.88f, labelled ? value_w + th.px(8) : th.px(16)), 2.f);
  const ImU32 dim = ImGui::GetColorU32(th.colors().text_dim);

  // Rows: the current one lit, labels in the gutter.
  for (int r = 0; r < rows; ++r) {
    const float y0 = o.y + float(r) * row_h;
    if (r == cur_row)
      dl->AddRectFilled(ImVec2(o.x, y0), ImVec2(o.x + canvas_w, y0 + row_h), ImGui::GetColorU32(ImVec4(0.30f, 0.64f, 1.f, 0.16f)),
                        th.px(4));
    const Step& st = tr.steps[std::size_t(L.row_step[std::size_t(r)])];
    const std::string label = r == 0 ? "leaves (" + st.phase + ")" : st.label;
    const float fs = std::min(ImGui::GetFontSize(), row_h * 0.9f);
    dl->AddText(th.fonts().regular, fs, ImVec2(o.x + th.px(4), y0 + (row_h - fs) * 0.5f),
                r == cur_row ? ImGui::GetColorU32(th.colors().text) : dim, label.c_str());
  }
  // Edges first, nodes on top.
  const float edge_w = labelled ? th.px(1.6f) : std::max(th.px(0.8f), 1.f);
  for (const TreeNode& n : L.nodes) {
    if (n.thread < 0) continue;
    const ImVec2 c = centre(n);
    const ImU32 col = WarpColor(n.thread / kWarpSize, n.row == cur_row ? 0.95f : 0.45f);
    for (int from : {n.from_self, n.from_other}) {
      if (from < 0) continue;
      const ImVec2 p = centre(L.nodes[std::size_t(from)]);
      dl->AddLine(ImVec2(p.x, p.y + box_h * 0.5f), ImVec2(c.x, c.y - box_h * 0.5f), col, edge_w);
    }
  }
  const TreeNode* hovered = nullptr;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool canvas_hovered = ImGui::IsWindowHovered();
  for (const TreeNode& n : L.nodes) {
    const ImVec2 c = centre(n);
    const ImVec2 a(c.x - box_w * 0.5f, c.y - box_h * 0.5f), b(c.x + box_w * 0.5f, c.y + box_h * 0.5f);
    const bool future = cur_row >= 0 ? n.row > cur_row : false;
    const ImU32 fill = n.thread < 0 ? ImGui::GetColorU32(ImVec4(0.32f, 0.35f, 0.40f, 1.f))
                                    : WarpColor(n.thread / kWarpSize, future ? 0.35f : 1.f);
    dl->AddRectFilled(a, b, fill, labelled ? th.px(4) : 0.f);
    if (n.row == cur_row && cur_row > 0) dl->AddRect(a, b, IM_COL32_WHITE, th.px(4), 0, th.px(2));
    if (labelled && box_h >= font_px) {
      const std::string v = format_value(n.value, tr.type);
      const ImVec2 ts = font->CalcTextSizeA(font_px, 1e9f, 0, v.c_str());
      dl->AddText(font, font_px, ImVec2(c.x - ts.x * 0.5f, c.y - ts.y * 0.5f), ImGui::GetColorU32(th.colors().badge_text), v.c_str());
      // The thread under the box when the row has room for it.
      if (n.thread >= 0 && row_h - box_h >= th.px(30)) {
        const std::string tl = "t" + std::to_string(n.thread);
        const float fs = th.px(14);
        const ImVec2 ls = th.fonts().regular->CalcTextSizeA(fs, 1e9f, 0, tl.c_str());
        if (ls.x <= slot_w)
          dl->AddText(th.fonts().regular, fs, ImVec2(c.x - ls.x * 0.5f, b.y + th.px(1)), dim, tl.c_str());
      }
    }
    const float hx = std::max(box_w, slot_w) * 0.5f;
    if (canvas_hovered && std::abs(mouse.x - c.x) <= hx && std::abs(mouse.y - c.y) <= row_h * 0.5f) hovered = &n;
  }
  if (hovered) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(describe_node(*hovered, tr.type).c_str());
    ImGui::EndTooltip();
  }
  (void)style;
  ImGui::EndChild();
}

}  // namespace ws::ui
