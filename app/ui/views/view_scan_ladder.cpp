#include "views/view_scan_ladder.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "launch_rules.hpp"
#include "registry.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/draw_shapes.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::format_value;

namespace {

std::string row_name(const LadderRow& r) {
  if (r.step < 0) return r.label;
  return r.phase == TracePhase::UpSweep || r.phase == TracePhase::DownSweep ? to_string(r.phase) + (", " + r.label)
                                                                            : r.label;
}

}  // namespace

void ScanLadderView::draw(const controller::ViewContext& ctx, controller::ViewActions& actions) {
  if (!TraceHeader(ctx, actions)) return;
  controller::TraceState& trace = actions.trace();  // the player's step, block and switches
  const Theme& th = theme();
  const Trace& tr = *trace.trace;
  if (built_from_ != &tr || !key_ || !trace.key || *key_ != *trace.key) {
    std::int64_t elements = tr.n;  // the traced block scans min(n - its start, its window) elements
    if (const VariantInfo* v = find_variant(tr.variant)) {
      const std::int64_t window = window_elems(*v, tr.block_size);
      elements = std::min<std::int64_t>(window, tr.n - std::int64_t(tr.block_index) * window);
    }
    graph_ = scan_graph(tr, elements);
    rows_ = scan_ladder(graph_, kMaxSlots);
    built_from_ = &tr;
    key_ = trace.key;
    zoom_.reset();
  }
  LayoutProbe& probe = layout_probe();
  if (rows_.empty()) {
    ImGui::Spacing();
    TextWrappedColored(th.colors().lesson,
                       graph_.note.empty() ? tr.variant +
                                                 " adds no pairs of a shared array step by step: the ladder "
                                                 "draws block scans (stevens.kogge_stone, kogge_stone_db, brent_kung)"
                                           : graph_.note);
    return;
  }
  const int step = trace.step;
  const bool show_future = trace.show_future_values;
  const int rows = int(rows_.size());
  const int slots = int(rows_.front().values.size());

  // One line above the picture (8 rows of values at 28 px need the rest): the work, the future toggle.
  LabelValue("work (traced block)", work_summary(graph_));
  ItemTooltip(
      std::string("every step at once: an arrow from x[i - stride] in the row above to each x[i] it adds into\n") +
      ZoomHint());
  const char* future = "later values";
  if (!Handout()) {
    SameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(future).x,
                   th.px(24));
    ImGui::Checkbox(future, &trace.show_future_values);
    ItemTooltip("show the values of steps not reached yet");
  }
  if (graph_.elements > kMaxSlots)
    TextDim("showing elements 0.." + std::to_string(kMaxSlots - 1) + " of " + std::to_string(graph_.elements) +
            " (the slides draw 8 or 16: --n 16 --block 16)");

  const ZoomCanvas c = zoom_.begin("ladder_canvas");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float min_fs = th.min_text();
  ImFont* regular = th.fonts().regular;
  ImFont* mono = th.fonts().mono;
  const ImVec2 o = c.origin;

  // Gutter: each row's name at the body size when it leaves the boxes most of the width.
  const float row_h = c.size.y / float(rows);
  float label_1px = 0;
  for (const LadderRow& r : rows_)
    label_1px = std::max(label_1px, regular->CalcTextSizeA(1.f, 1e9f, 0, row_name(r).c_str()).x);
  float label_fs = std::min(ImGui::GetFontSize(), row_h * 0.5f);
  if (label_1px * label_fs > c.size.x * 0.25f)
    label_fs = std::max(min_fs, c.size.x * 0.25f / std::max(label_1px, 1e-3f));
  const bool labels = label_fs >= min_fs && label_1px * label_fs <= c.size.x * 0.3f;
  const float gutter = labels ? label_1px * label_fs + th.px(14) : th.px(4);
  const float slot_w = (c.size.x - gutter) / float(std::max(1, slots));
  const float box_h = std::clamp(row_h * 0.52f, 2.f, th.px(40));
  float widest = 0;
  for (const LadderRow& r : rows_)
    for (double v : r.values)
      widest = std::max(widest, mono->CalcTextSizeA(1.f, 1e9f, 0, format_value(v, tr.type).c_str()).x);
  // Digits fill about 0.75 of the font size: a value may use a font up to 1 / 0.8 of its box's height.
  const float value_fs = std::min({ImGui::GetFontSize(), box_h / 0.8f, (slot_w - th.px(6)) / std::max(widest, 1e-3f)});
  const bool values = value_fs >= min_fs;
  auto row_y = [&](int r) { return o.y + float(r) * row_h + (row_h - box_h) * 0.5f; };  // top of row r's boxes
  auto cx = [&](std::int64_t i) { return o.x + gutter + (float(i) + 0.5f) * slot_w; };
  probe.picture("scan ladder", o, ImVec2(o.x + gutter + slot_w * float(slots), row_y(rows - 1) + box_h));

  int arrows = 0, value_labels = 0, hidden_rows = 0;
  const ImU32 dim = ImGui::GetColorU32(th.colors().text_dim);
  for (int r = 0; r < rows; ++r) {
    const LadderRow& row = rows_[std::size_t(r)];
    const bool reached = show_future || row.step <= step;
    const float y = row_y(r);
    if (row.step == step)
      dl->AddRectFilled(
          ImVec2(o.x, y - (row_h - box_h) * 0.5f),
          ImVec2(o.x + gutter + slot_w * float(slots), y + box_h + (row_h - box_h) * 0.5f),
          ImGui::GetColorU32(ImVec4(th.colors().accent.x, th.colors().accent.y, th.colors().accent.z, 0.14f)));
    // Brent-Kung: a rule between the up-sweep tree and the down-sweep tree.
    if (r > 0 && rows_[std::size_t(r - 1)].step >= 0 && rows_[std::size_t(r - 1)].phase != row.phase) {
      const float ly = y - (row_h - box_h) * 0.5f;
      dl->AddLine(ImVec2(o.x, ly), ImVec2(o.x + gutter + slot_w * float(slots), ly), dim, th.px(2.f));
    }
    if (labels) {
      const std::string l = row_name(row);
      DrawText(dl, regular, label_fs, ImVec2(o.x, y + (box_h - label_fs) * 0.5f),
               ImGui::GetColorU32(row.step == step ? th.colors().accent : th.colors().text), l.c_str());
    }
    std::vector<int> writer(std::size_t(slots), -1);
    for (const ScanEdge& e : row.edges) writer[std::size_t(e.to)] = e.thread;
    if (!reached) ++hidden_rows;
    for (int i = 0; i < slots && i < int(row.values.size()); ++i) {
      const float x0 = o.x + gutter + float(i) * slot_w + th.px(2), x1 = x0 + slot_w - th.px(4);
      const bool written = writer[std::size_t(i)] >= 0;
      const ImU32 fill = Legible(written ? WarpColor(writer[std::size_t(i)] / 32, 1.f)
                                         : ImGui::GetColorU32(theme().colors().thread_idle));
      const bool input = row.step < 0;
      if (reached && (written || input))
        dl->AddRectFilled(ImVec2(x0, y), ImVec2(x1, y + box_h), fill, th.px(3));
      else
        dl->AddRect(ImVec2(x0, y), ImVec2(x1, y + box_h), fill, th.px(3), 0, th.px(1.5f));
      if (!reached || !values) continue;
      const std::string v = format_value(row.values[std::size_t(i)], tr.type);
      const ImVec2 ts = mono->CalcTextSizeA(value_fs, 1e9f, 0, v.c_str());
      DrawText(dl, mono, value_fs, ImVec2((x0 + x1 - ts.x) * 0.5f, y + (box_h - ts.y) * 0.5f),
               written || input ? TextOn(fill) : ImGui::GetColorU32(th.colors().text_dim), v.c_str());
      ++value_labels;
    }
    if (r == 0) continue;
    // x[to] keeps its own value (a faint vertical) and takes x[from] of the row above (an arrow).
    const float y_from = row_y(r - 1) + box_h, y_to = y;
    for (const ScanEdge& e : row.edges) {
      dl->AddLine(ImVec2(cx(e.to), y_from), ImVec2(cx(e.to), y_to),
                  ImGui::GetColorU32(theme().colors().graph_edge_ladder), th.px(1.5f));
      DrawArrow(dl, ImVec2(cx(e.from), y_from), ImVec2(cx(e.to), y_to), WarpColor(e.thread / 32, reached ? 1.f : 0.45f),
                th.px(2.f), std::min(th.px(9), slot_w * 0.35f));
      ++arrows;
    }
  }
  probe.counts["ladder rows"] = rows;
  probe.counts["ladder slots"] = slots;
  probe.counts["ladder arrows"] = arrows;
  probe.counts["ladder value labels"] = value_labels;
  probe.counts["ladder hidden rows"] = hidden_rows;
  zoom_.end();
}

/// The slides' own pictures: a block scan's steps stacked.
/// Its tab stands at position 150 (all_views() sorts by it).
ViewInfo scan_ladder_view_info() { return make_view_info<ScanLadderView>(150, "ladder", "Ladder", kSteps); }

}  // namespace ws::ui
