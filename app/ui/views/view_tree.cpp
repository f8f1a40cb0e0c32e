#include "views/view_tree.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "trace/analyses.hpp"
#include "views/hazard_marks.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::describe_node;
using controller::format_value;
using controller::tree_layout;
using controller::tree_node_text;
using controller::TreeLayout;
using controller::TreeNode;

void TreeView::draw(const controller::ViewContext& ctx, controller::ViewActions& actions) {
  if (!TraceHeader(ctx, actions)) return;
  controller::TraceState& trace = actions.trace();  // the player's step, block and switches
  const Theme& th = theme();
  const Trace& tr = *trace.trace;
  if (laid_out_ != &tr || !key_ || !trace.key || *key_ != *trace.key) {
    layout_ = tree_layout(tr);
    laid_out_ = &tr;
    key_ = trace.key;
    zoom_.reset();
  }
  const TreeLayout& L = layout_;
  const std::vector<const Hazard*> hazards = HazardLegend(TraceHazards(trace), trace.step);
  if (!L.note.empty()) {
    ImGui::Spacing();
    TextWrappedColored(th.colors().lesson, L.note);
    return;
  }
  const int rows = int(L.row_step.size());
  const int step = trace.step;
  const int cur_row = L.row_of_step(step);
  const int reached = L.last_row_reached(step);
  const bool show_future = trace.show_future_values;

  if (!Handout()) {
    const std::string hint = std::string("colour = warp, t = thread; hover a node for its operation; ") + ZoomHint();
    ImGui::Checkbox("show the values of steps not reached yet", &trace.show_future_values);
    ItemTooltip("off: rows below the current step show their shape only, so the class can predict the numbers\n" +
                hint);
    // The hint where at least its first part fits (a half of Pair has room for "col..." only: left out).
    const float room =
        ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - ImGui::GetItemRectMax().x - th.px(24);
    if (room >= ImGui::CalcTextSize("colour = warp, t = thread; ...").x) {
      ImGui::SameLine(0, th.px(24));
      TextEllipsis(hint, ImGui::GetContentRegionAvail().x, &th.colors().text_dim);
    }
  }

  const ZoomCanvas c = zoom_.begin("tree_canvas");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 dim = ImGui::GetColorU32(th.colors().text_dim);
  const float min_fs = th.min_text();
  ImFont* mono = th.fonts().mono;
  ImFont* regular = th.fonts().regular;

  // Row labels in a gutter on the left, at the body size when that leaves the tree most of the width.
  auto row_label = [&](int r) {
    return r == 0 ? std::string("leaves") : tr.steps[std::size_t(L.row_step[std::size_t(r)])].label;
  };
  float label_1px = 0;  // widest row label at 1 px
  for (int r = 0; r < rows; ++r)
    label_1px = std::max(label_1px, regular->CalcTextSizeA(1.f, 1e9f, 0, row_label(r).c_str()).x);
  const float row_h = c.size.y / float(rows);
  // Values: the largest size up to the body text at which the widest one fits its slot; none below
  // the smallest readable size (zoom in, or hover). The gutter takes the body size when the values
  // still fit beside it, else the smallest readable size.
  float value_1px = 0;
  for (const TreeNode& n : L.nodes)
    value_1px = std::max(value_1px, mono->CalcTextSizeA(1.f, 1e9f, 0, format_value(n.value, tr.type).c_str()).x);
  auto value_size = [&](float gutter) {
    const float slot = (c.size.x - gutter - th.px(4)) / float(L.slots);
    return std::min({ImGui::GetFontSize(), (slot - th.px(1)) / std::max(value_1px, 1e-3f), row_h * 0.42f});
  };
  auto gutter_for = [&](float fs) { return fs > 0 ? label_1px * fs + th.px(12) : th.px(4); };
  float gutter_fs = std::min(ImGui::GetFontSize(), row_h * 0.6f);
  if (value_size(gutter_for(gutter_fs)) < min_fs || gutter_for(gutter_fs) > c.size.x * 0.2f) gutter_fs = min_fs;
  const bool gutter_text = gutter_fs >= min_fs && gutter_for(gutter_fs) <= c.size.x * 0.2f;
  if (!gutter_text) gutter_fs = 0;
  const float gutter = gutter_for(gutter_fs);
  const float slot_w = (c.size.x - gutter - th.px(4)) / float(L.slots);
  const float value_fs = value_size(gutter);
  const bool values = value_fs >= min_fs;
  // Thread ids under the nodes at the smallest readable size, when the slot and the row have room.
  const float tid_fs = min_fs;
  const float tid_w =
      regular->CalcTextSizeA(tid_fs, 1e9f, 0, ("t" + std::to_string(std::max(0, tr.block_size - 1))).c_str()).x;
  const float box_h = values ? std::min(value_fs * 1.35f, row_h * 0.5f) : std::clamp(row_h * 0.35f, 2.f, th.px(18));
  const bool tids = tid_w <= slot_w - th.px(2) && row_h - box_h >= 2.f * tid_fs + th.px(4);
  const float box_w = std::max(values ? slot_w - std::max(2.f, th.px(2)) : slot_w * 0.8f, 1.f);
  const float box_y = tids ? 0.38f : 0.5f;  // where the box sits in its row (room below for the thread id)
  const ImVec2 o = c.origin;
  const float canvas_w = c.size.x;
  auto centre = [&](const TreeNode& n) {
    return ImVec2(o.x + gutter + (float(n.slot) + 0.5f) * slot_w, o.y + (float(n.row) + box_y) * row_h);
  };

  // Rows: the current one lit, labels in the gutter.
  for (int r = 0; r < rows; ++r) {
    const float y0 = o.y + float(r) * row_h;
    if (r == cur_row)
      dl->AddRectFilled(ImVec2(o.x, y0), ImVec2(o.x + canvas_w, y0 + row_h),
                        ImGui::GetColorU32(theme().colors().tree_highlight), th.px(4));
    if (gutter_text)
      DrawText(dl, regular, gutter_fs, ImVec2(o.x + th.px(4), y0 + box_y * row_h - gutter_fs * 0.5f),
               r == cur_row ? ImGui::GetColorU32(th.colors().text) : dim, row_label(r).c_str());
  }
  // Edges first, nodes on top.
  const float edge_w = std::max(th.px(values ? 1.6f : 1.f), 1.f);
  for (const TreeNode& n : L.nodes) {
    if (n.thread < 0) continue;
    const ImVec2 cn = centre(n);
    const bool future = n.row > reached;
    const ImU32 col = WarpColor(n.thread / kWarpSize, n.row == cur_row ? 0.95f : future ? 0.25f : 0.45f);
    for (int from : {n.from_self, n.from_other}) {
      if (from < 0) continue;
      const ImVec2 p = centre(L.nodes[std::size_t(from)]);
      dl->AddLine(ImVec2(p.x, p.y + box_h * 0.5f), ImVec2(cn.x, cn.y - box_h * 0.5f), col, edge_w);
    }
  }
  const TreeNode* hovered = nullptr;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool canvas_hovered = ImGui::IsWindowHovered();
  int labels = 0, hidden = 0, tid_labels = 0;
  for (const TreeNode& n : L.nodes) {
    const ImVec2 cn = centre(n);
    const ImVec2 a(cn.x - box_w * 0.5f, cn.y - box_h * 0.5f), b(cn.x + box_w * 0.5f, cn.y + box_h * 0.5f);
    const std::string v = tree_node_text(L, n, step, show_future, tr.type);
    const bool future = n.row > reached;
    const float round = values ? th.px(4) : 0.f;
    if (future && !show_future) {
      // The shape of what is to come: an outline in the warp's colour, no number.
      dl->AddRectFilled(a, b, ImGui::GetColorU32(theme().colors().tree_node_bg), round);
      dl->AddRect(a, b, WarpColor(std::max(0, n.thread) / kWarpSize, 0.7f), round, 0, std::max(1.f, th.px(1.5f)));
      ++hidden;
    } else {
      const ImU32 fill = n.thread < 0 ? ImGui::GetColorU32(theme().colors().thread_idle)
                                      : WarpColor(n.thread / kWarpSize, future ? 0.35f : 1.f);
      dl->AddRectFilled(a, b, fill, round);
      if (n.row == cur_row && cur_row > 0) dl->AddRect(a, b, IM_COL32_WHITE, th.px(4), 0, th.px(2));
      if (values && !v.empty()) {
        const ImVec2 ts = mono->CalcTextSizeA(value_fs, 1e9f, 0, v.c_str());
        const ImU32 ink = TextOn(fill);  // 7:1 or more on the warp colours and on the slate of an input
        DrawText(dl, mono, value_fs, ImVec2(cn.x - ts.x * 0.5f, cn.y - ts.y * 0.5f), ink, v.c_str());
        ++labels;
      }
    }
    if (tids && n.thread >= 0) {
      const std::string tl = "t" + std::to_string(n.thread);
      const ImVec2 ls = regular->CalcTextSizeA(tid_fs, 1e9f, 0, tl.c_str());
      // On a patch of background: the edges to the next row pass under the thread ids.
      dl->AddRectFilled(ImVec2(cn.x - ls.x * 0.5f - 1, b.y + th.px(2)),
                        ImVec2(cn.x + ls.x * 0.5f + 1, b.y + th.px(2) + ls.y), ImGui::GetColorU32(ImGuiCol_WindowBg));
      DrawText(dl, regular, tid_fs, ImVec2(cn.x - ls.x * 0.5f, b.y + th.px(2)), dim, tl.c_str());
      ++tid_labels;
    }
    layout_probe().picture("tree", a, ImVec2(b.x, b.y + (tids && n.thread >= 0 ? tid_fs + th.px(2) : 0.f)));
    const float hx = std::max(box_w, slot_w) * 0.5f;
    if (canvas_hovered && std::abs(mouse.x - cn.x) <= hx && std::abs(mouse.y - cn.y) <= row_h * 0.5f) hovered = &n;
  }
  // Hazards of this step: each access outlined in red in its row (a write at the word's slot, a read
  // at the reading thread's node), a red edge between them (the legend above says who and what).
  int hazard_marks = 0;
  for (const Hazard* h : hazards) {
    if (h->buffer != 0 || h->word < 0 || h->word >= L.slots) continue;
    ImVec2 ends[2];
    int n_ends = 0;
    for (const HazardAccess* a : {&h->first, &h->second}) {
      const int r = L.row_of_step(a->step);
      if (r < 0) continue;
      int slot = int(h->word);
      if (a->kind == OpKind::Load)
        for (const TreeNode& n : L.nodes)
          if (n.row == r && n.thread == a->thread) slot = n.slot;
      const ImVec2 cn(o.x + gutter + (float(slot) + 0.5f) * slot_w, o.y + (float(r) + box_y) * row_h);
      const float hw = std::max(box_w, th.px(8)) * 0.5f + th.px(3), hh = box_h * 0.5f + th.px(3);
      dl->AddRect(ImVec2(cn.x - hw, cn.y - hh), ImVec2(cn.x + hw, cn.y + hh), HazardColor(), th.px(3), 0, th.px(3));
      ends[n_ends++] = cn;
      ++hazard_marks;
    }
    if (n_ends == 2 && (ends[0].x != ends[1].x || ends[0].y != ends[1].y))
      dl->AddLine(ends[0], ends[1], HazardColor(), th.px(3));
  }
  layout_probe().counts["tree hazard marks"] = hazard_marks;
  if (gutter_text) layout_probe().picture("tree", o, ImVec2(o.x + gutter, o.y + row_h));
  LayoutProbe& probe = layout_probe();
  probe.counts["tree value labels"] = labels;
  probe.counts["tree hidden nodes"] = hidden;
  probe.counts["tree thread ids"] = tid_labels;
  probe.counts["tree leaves"] = L.slots;
  if (hovered) {
    ImGui::BeginTooltip();
    const bool secret = !show_future && hovered->row > reached;
    ImGui::TextUnformatted(secret ? ("thread " + std::to_string(hovered->thread) + ": a step not reached yet").c_str()
                                  : describe_node(*hovered, tr.type).c_str());
    ImGui::EndTooltip();
  }
  zoom_.end();
}

/// The Tree tab.
/// Its tab stands at position 20 (all_views() sorts by it).
ViewInfo tree_view_info() { return make_view_info<TreeView>(20, "tree", "Tree", kSteps); }

}  // namespace ws::ui
