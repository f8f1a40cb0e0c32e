#include "views/view_race.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/draw_shapes.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::format_value;

namespace {

/// Header labels of a run of columns of one kind, longest first (the view takes the first that fits).
std::vector<const char*> kind_names(RaceEvent::Kind k, bool many) {
  switch (k) {
    case RaceEvent::Input: return {"load x", "x"};
    case RaceEvent::Read: return {"read", "r"};
    case RaceEvent::Add: return {"add", "+"};
    case RaceEvent::Write:
      return many ? std::vector<const char*>{"writes in lane order (red: lost, \u2192 the write that replaced it)",
                                             "writes, one after another (lane order)", "writes, one after another",
                                             "writes", "w"}
                  : std::vector<const char*>{"write", "w"};
  }
  return {};
}

}  // namespace

void RaceView::draw(const controller::ViewContext& ctx, controller::ViewActions& actions) {
  if (!TraceHeader(ctx, actions)) return;
  controller::TraceState& trace = actions.trace();  // the player's step, block and switches
  const Theme& th = theme();
  const Trace& tr = *trace.trace;
  if (built_from_ != &tr || !key_ || !trace.key || *key_ != *trace.key) {
    timeline_ = race_timeline(tr);
    built_from_ = &tr;
    key_ = trace.key;
    zoom_.reset();
  }
  const RaceTimeline& T = timeline_;
  LayoutProbe& probe = layout_probe();
  if (!T.note.empty()) {
    ImGui::Spacing();
    TextWrappedColored(th.colors().lesson, T.note);
    return;
  }
  const int step = trace.step;
  const bool show_future = trace.show_future_values;
  const DType type = tr.type;

  // The lesson in one line: what the block's threads added, what survived, what was lost.
  {
    const std::string line =
        T.location + ": " + format_value(T.first_value, type) + " \u2192 " + format_value(T.final_value, type) + ": " +
        std::to_string(T.writes) + " writes should add " + format_value(T.added, type) + "; " +
        std::to_string(T.lost_updates) + " lost, overwritten unread (" + format_value(T.lost, type) + ")";
    ImGui::PushFont(th.fonts().bold);
    TextEllipsis(line, ImGui::GetContentRegionAvail().x, &th.colors().bad);
    ImGui::PopFont();
    ItemTooltip(line + "\ntraced block only; the order is the model's stated interleaving:\n" + tr.interleaving +
                "\nrow = thread; red = lost write, its arrow points to the write that replaced it\n" + ZoomHint());
  }
  // The picture needs every line it can get (16 rows with values at 28 px): the checkbox shares the line.
  const char* future = "later values";
  if (!Handout()) {
    SameLineIfFits(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(future).x,
                   th.px(24));
    ImGui::Checkbox(future, &trace.show_future_values);
    ItemTooltip("show the values of steps not reached yet");
  }
  if (T.threads < T.block_threads)
    TextDim("showing threads 0.." + std::to_string(T.threads - 1) + " of " + std::to_string(T.block_threads) +
            " (counts cover all of them; a block of 8 or 16 threads shows every one)");

  const ZoomCanvas c = zoom_.begin("race_canvas");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float min_fs = th.min_text();
  ImFont* regular = th.fonts().regular;
  ImFont* mono = th.fonts().mono;
  const int rows = std::max(1, T.threads), cols = std::max(1, T.columns);
  const float header_h = std::max(min_fs * 1.25f, std::min(ImGui::GetFontSize() * 1.3f, c.size.y * 0.08f));
  const float row_h = (c.size.y - header_h) / float(rows);
  const float label_fs = std::clamp(row_h * 0.8f, min_fs, ImGui::GetFontSize());
  const bool row_labels = row_h >= min_fs * 0.95f;
  const float gutter =
      row_labels ? regular->CalcTextSizeA(label_fs, 1e9f, 0, ("t" + std::to_string(rows - 1)).c_str()).x + th.px(10)
                 : th.px(4);
  const float col_w = (c.size.x - gutter) / float(cols);
  const ImVec2 o = c.origin;
  auto cell_min = [&](int col, int row) {
    return ImVec2(o.x + gutter + float(col) * col_w, o.y + header_h + float(row) * row_h);
  };
  probe.picture("race timeline", o, ImVec2(o.x + gutter + col_w * float(cols), o.y + header_h + row_h * float(rows)));
  probe.counts["race rows"] = T.threads;
  probe.counts["race columns"] = T.columns;

  // The current step's columns on a faint band; the header names each run of columns of one kind.
  for (int col = 0; col < cols && col < int(T.column_step.size()); ++col)
    if (T.column_step[std::size_t(col)] == step) {
      const ImVec2 a = cell_min(col, 0);
      dl->AddRectFilled(
          ImVec2(a.x, o.y), ImVec2(a.x + col_w, o.y + header_h + row_h * float(rows)),
          ImGui::GetColorU32(ImVec4(th.colors().accent.x, th.colors().accent.y, th.colors().accent.z, 0.12f)));
    }
  int header_labels = 0;
  for (int col = 0; col < int(T.column_kind.size());) {
    int end = col + 1;
    while (end < int(T.column_kind.size()) && T.column_kind[std::size_t(end)] == T.column_kind[std::size_t(col)] &&
           T.column_step[std::size_t(end)] == T.column_step[std::size_t(col)])
      ++end;
    const float x0 = o.x + gutter + float(col) * col_w, x1 = o.x + gutter + float(end) * col_w;
    for (const char* label : kind_names(T.column_kind[std::size_t(col)], end - col > 1)) {
      const float fs = std::min(ImGui::GetFontSize(), header_h * 0.8f);
      const ImVec2 ts = regular->CalcTextSizeA(fs, 1e9f, 0, label);
      if (fs < min_fs || ts.x > x1 - x0 - th.px(2)) continue;
      DrawText(dl, regular, fs, ImVec2((x0 + x1 - ts.x) * 0.5f, o.y + (header_h - ts.y) * 0.5f),
               ImGui::GetColorU32(th.colors().text_dim), label);
      ++header_labels;
      break;
    }
    if (end - col > 1)
      dl->AddLine(ImVec2(x0 + th.px(2), o.y + header_h - th.px(2)), ImVec2(x1 - th.px(2), o.y + header_h - th.px(2)),
                  ImGui::GetColorU32(th.colors().text_dim), th.px(1.5f));
    col = end;
  }
  probe.counts["race header labels"] = header_labels;

  // Row labels: the thread, coloured by warp.
  if (row_labels)
    for (int r = 0; r < rows; ++r) {
      const std::string l = "t" + std::to_string(r);
      DrawText(dl, regular, label_fs, ImVec2(o.x, cell_min(0, r).y + (row_h - label_fs) * 0.5f), WarpColor(r / 32),
               l.c_str());
    }

  // The events: a box per event, its value when it fits and its step is reached.
  const float pad = std::max(1.f, std::min(th.px(2), std::min(col_w, row_h) * 0.06f));
  // Digits fill about 0.75 of the font size: a value may use a font up to 1 / 0.8 of its box's height.
  float value_fs = std::min({ImGui::GetFontSize(), (row_h - 2 * pad) / 0.8f});
  float widest = 0;
  for (const RaceEvent& e : T.events)
    widest = std::max(widest, mono->CalcTextSizeA(1.f, 1e9f, 0, format_value(e.value, type).c_str()).x);
  value_fs = std::min(value_fs, (col_w - 2 * pad - th.px(2)) / std::max(widest, 1e-3f));
  const bool values = value_fs >= min_fs;
  int value_labels = 0, lost_marks = 0, hidden = 0;
  const ImU32 lost_col = ImGui::GetColorU32(th.colors().bad), ok_col = ImGui::GetColorU32(th.colors().ok);
  auto box_of = [&](const RaceEvent& e, ImVec2& a, ImVec2& b) {
    a = cell_min(e.column, e.thread);
    b = ImVec2(a.x + col_w - pad, a.y + row_h - pad);
    a = ImVec2(a.x + pad, a.y + pad);
  };
  for (const RaceEvent& e : T.events) {
    ImVec2 a, b;
    box_of(e, a, b);
    const bool reached = show_future || e.step <= step;
    ImU32 fill = ImGui::GetColorU32(theme().colors().thread_idle);
    if (e.kind == RaceEvent::Read) fill = ImGui::GetColorU32(theme().colors().race_read);
    if (e.kind == RaceEvent::Add) fill = WarpColor(e.thread / 32, 0.85f);
    if (e.kind == RaceEvent::Write) fill = e.lost ? lost_col : ok_col;
    fill = Legible(fill);  // its value in TextOn(fill), 7:1 or more
    if (reached)
      dl->AddRectFilled(a, b, fill, th.px(3));
    else
      dl->AddRect(a, b, fill, th.px(3), 0, th.px(1.5f)), ++hidden;
    if (reached && e.lost) {  // crossed out, under its value
      const ImU32 mark = ImGui::GetColorU32(theme().colors().race_mark);
      dl->AddLine(a, b, mark, th.px(2.f));
      dl->AddLine(ImVec2(a.x, b.y), ImVec2(b.x, a.y), mark, th.px(2.f));
    }
    if (reached && values) {
      const std::string v = format_value(e.value, type);
      const ImVec2 ts = mono->CalcTextSizeA(value_fs, 1e9f, 0, v.c_str());
      DrawText(dl, mono, value_fs, ImVec2((a.x + b.x - ts.x) * 0.5f, (a.y + b.y - ts.y) * 0.5f), TextOn(fill),
               v.c_str());
      ++value_labels;
    }
  }
  // Lost writes: an arrow from each to the write that replaced it.
  for (const RaceEvent& e : T.events) {
    if (!e.lost || (!show_future && e.step > step)) continue;
    ImVec2 a, b;
    box_of(e, a, b);
    const ImU32 mark = ImGui::GetColorU32(th.colors().text);
    ++lost_marks;
    if (e.overwritten_by < 0) continue;
    ImVec2 a2, b2;
    box_of(T.events[std::size_t(e.overwritten_by)], a2, b2);
    DrawArrow(dl, ImVec2(b.x, (a.y + b.y) * 0.5f), ImVec2(a2.x, (a2.y + b2.y) * 0.5f), mark, th.px(2.f),
              std::min(th.px(10), col_w * 0.3f));
  }
  probe.counts["race value labels"] = value_labels;
  probe.counts["race lost marks"] = lost_marks;
  probe.counts["race hidden events"] = hidden;
  zoom_.end();
}

/// The slides' own pictures (race, ladder, pair): the race as a timeline.
/// Its tab stands at position 140 (all_views() sorts by it).
ViewInfo race_view_info() { return make_view_info<RaceView>(140, "race", "Race", kSteps); }

}  // namespace ws::ui
