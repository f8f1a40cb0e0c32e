#include "views/view_source.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "kernel_copy.hpp"
#include "metric_catalog.hpp"
#include "views/line_counters.hpp"
#include "views/stall_bars.hpp"
#include "views/view_metrics.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::diff_code_lines;
using controller::DiffLine;
using controller::exercises_of;
using controller::find_section;
using controller::gui_exercises;
using controller::section_for_trace;
using controller::step_rows;
using controller::step_rows_note;
using controller::variant_source;
using controller::ViewActions;
using controller::ViewContext;
using controller::why_not_editable;

namespace {

/// The variant before the selected one in its lesson, "" when it is the first (or not in one).
std::string previous_variant(const ViewContext& c) {
  const Lesson* l = c.lesson;
  const int i = c.step_index;
  return l && i > 0 && i <= int(l->steps.size()) ? l->steps[std::size_t(i - 1)].variant : "";
}

}  // namespace

void SourceView::draw(const ViewContext& c, ViewActions& act) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  const VariantInfo* v = c.variant;
  if (!v) {
    TextDim("select a variant to see its source");
    return;
  }
  // The editor: opened by "Edit a copy" (or --edit), on the selected variant; another variant closes it.
  if (c.edit.request_open) {
    act.edit().request_open = false;
    const Exercise* ex = find_exercise(gui_exercises(), c.edit.request_exercise);
    if (ex)
      editor_.open_exercise(act, *ex);
    else
      editor_.open(act, *v);
    act.edit().request_exercise.clear();
    if (!c.edit.request_text.empty()) {
      act.edit().text = std::move(act.edit().request_text);
      act.edit().request_text.clear();
    }
  }
  if (c.edit.is_open() && c.edit.variant() != v->id) act.edit().close();
  if (c.edit.is_open() && editor_.draw(c, act)) return;
  const std::string prev = previous_variant(c);
  const bool want_diff = diff_ && !prev.empty();
  // The helpers' regions join the section when the trace ran lines there (not in a diff, which compares sections).
  const std::string trace_key = c.trace.trace ? c.trace.trace->source_file + "|" + c.trace.trace->variant + "|" +
                                                    std::to_string(c.trace.trace->steps.size()) + "|" +
                                                    std::to_string(c.trace.trace->has_lines())
                                              : "";
  if (id_ != v->id || prev_ != prev || built_diff_ != want_diff || trace_key_ != trace_key) {
    id_ = v->id, prev_ = prev, built_diff_ = want_diff, trace_key_ = trace_key;
    section_ = !want_diff && c.trace.trace ? section_for_trace(id_, *c.trace.trace) : find_section(id_);
    lines_.clear();
    if (want_diff)
      lines_ = diff_code_lines(variant_source(prev), section_.text);
    else
      for (std::string& l : split_lines(section_.text)) lines_.push_back({DiffLine::Same, std::move(l)});
  }

  // The step controls (shared with the other step-through views) pick the step whose lines light up.
  const Step* step = nullptr;
  if (c.trace.trace) {
    TraceHeader(c, act);  // the step views' header
    step = c.trace.current();
  } else {
    TextDim("no trace for this variant, so no line highlight" +
                (c.trace.why_none.empty() ? std::string() : " (" + c.trace.why_none + ")"),
            true);
  }

  // Focus mode keeps the code's rows: the diff switch, the file and the highlight's caption share one row.
  const bool focus = c.perf.present.focus;
  const std::string where =
      section_.file.empty()
          ? "(no kernel file)"
          : section_.file +
                ", embedded at build time; line numbers count its lines without the trace instrumentation (WS_T)";
  const std::string not_editable = section_.text.empty() ? "no source section" : why_not_editable(*v);
  ImGui::BeginDisabled(!not_editable.empty());
  if (ImGui::Button("Edit a copy")) editor_.open(act, *v);
  ImGui::EndDisabled();
  ItemTooltip(not_editable.empty() ? "edit a copy of this kernel and run it (Ctrl+Enter) with " + v->id +
                                         "'s launch: checked, timed, a row of its own in Results and Compare"
                                   : not_editable);
  // The lesson's exercises that take this variant's launch: a starter to complete and a Check button.
  for (const Exercise* ex : exercises_of(v->id)) {
    const std::string label = "Exercise: " + ex->title + "##" + ex->id;
    SameLineIfFits(ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Button(label.c_str())) editor_.open_exercise(act, *ex);
    ItemTooltip(ex->statement);
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(prev.empty());
  ImGui::Checkbox(prev.empty() ? (focus ? "diff" : "diff against the previous variant (this is the first)")
                               : ("diff against " + prev).c_str(),
                  &diff_);
  ImGui::EndDisabled();
  ItemTooltip("the code of the previous variant of the lesson against this one: comments and white space are ignored" +
              (focus ? "\n" + where : std::string()));
  ImGui::SameLine(0, th.px(24));
  if (!focus) {
    TextEllipsis(where, ImGui::GetContentRegionAvail().x, &p.text_dim);
    ItemTooltip(where);
  }
  // The rows the step ran, from the source lines its trace events carry.
  std::vector<bool> rows;
  if (step) {
    rows = step_rows(section_, *c.trace.trace, *step);
    const std::string note = step_rows_note(section_, *c.trace.trace, *step);
    const std::string caption =
        note.empty() ? (focus ? section_.file + ": the lines step " + std::to_string(step->index) + " ran"
                              : "highlighted: the lines step " + std::to_string(step->index) + " ran (" + step->label +
                                    "), from its trace events")
                     : note;
    TextEllipsis(caption, ImGui::GetContentRegionAvail().x, note.empty() ? &p.lesson : &p.bad);
    ItemTooltip(caption);
  } else if (focus) {
    TextEllipsis(section_.file, ImGui::GetContentRegionAvail().x, &p.text_dim);
    ItemTooltip(where);
  }
  if (want_diff) {
    ImGui::TextColored(p.ok, "+ added in %s", id_.c_str());
    ImGui::SameLine(0, th.px(20));
    ImGui::TextColored(p.bad, "- removed from %s", prev.c_str());
    ImGui::SameLine(0, th.px(20));
    TextDim("(code only: comments and white space ignored)");
  }
  if (section_.text.empty()) {
    TextWrappedColored(p.lesson, "no source section for " + id_ + " in kernels/reduction");
    return;
  }
  // Per-line hardware counters of the variant's latest run with metrics (SASS metrics, -lineinfo).
  std::map<int, const LineMetrics*> per_line;
  const RunResult* mr = metrics_run(c);
  if (mr)
    for (const LineMetrics& lm : mr->metrics.lines)
      if (lm.file == section_.file) per_line[lm.line] = &lm;
  const bool columns = !per_line.empty();
  const std::map<int, LineMetrics> summed =
      mr ? lines_of_file(mr->metrics.lines, section_.file) : std::map<int, LineMetrics>{};
  const bool mem_col =
      std::any_of(summed.begin(), summed.end(), [](const auto& l) { return !line_memory_label(l.second).empty(); });
  // Stall reasons per line (PC sampling): a bar column after the counters.
  const StallColumn stalls = mr ? stall_column(mr->metrics.pc_sampling, section_.file) : StallColumn{};
  const float stall_w = stalls.empty() ? 0 : StallColumnWidth();
  if (!stalls.empty()) StallLegend(stalls);
  if (columns)
    TextEllipsis(
        "columns from the " + std::string(c.showing_replay ? "opened report" : "session") +
            "'s run with metrics: warp instructions issued per line, and active lanes per instruction (of 32)" +
            (mem_col ? "; memory: shared wavefronts per instruction (w/i, bank-conflict ways) or sectors per "
                       "global request (s/r)"
                     : ""),
        ImGui::GetContentRegionAvail().x, &p.text_dim);
  if (columns && mem_col) ItemTooltip(kLineMemoryLegend);

  // In focus mode the code is set at 0.75 of the body text (15 px x the font scale: 30 px at 2x, above
  // the 14 px x scale floor), so a step's line shows with a screenful of its context.
  const float code_k = focus ? 0.75f : 1.f;
  // A column is as wide as its numbers or its header (set in the body's bold text, wider than the
  // code's numbers in focus mode), so no header runs into its neighbour.
  auto header_w = [&](const char* text) {
    return th.fonts().bold->CalcTextSizeA(ImGui::GetFontSize(), 1e9f, 0, text).x;
  };
  const bool headers = columns || stall_w > 0;
  ImGui::PushFont(th.fonts().mono);
  const float num_w = std::max(ImGui::CalcTextSize("0000").x * code_k, headers ? header_w("line") : 0.f);
  const float mark_w = ImGui::CalcTextSize("+ ").x * code_k;
  const float inst_w = columns ? std::max(ImGui::CalcTextSize("000.0 M").x * code_k, header_w("warp inst")) : 0;
  const float lanes_w = columns ? std::max(ImGui::CalcTextSize("00.0").x * code_k, header_w("lanes")) : 0;
  const float mem_w = mem_col ? std::max(ImGui::CalcTextSize("00.0 w/i").x * code_k, header_w("memory")) : 0;
  const float cols_w = (columns ? inst_w + lanes_w + th.px(24) : 0) + (mem_col ? mem_w + th.px(12) : 0) + stall_w;
  ImGui::PopFont();
  if (headers) {
    // Headers over the per-line columns, aligned with the list below (inside its border and padding).
    const ImVec2 h = ImGui::GetCursorScreenPos();
    const float x0 = h.x + ImGui::GetStyle().WindowPadding.x + ImGui::GetStyle().ChildBorderSize;
    ImDrawList* hdl = ImGui::GetWindowDrawList();
    const ImU32 col = ImGui::GetColorU32(p.text_dim);
    ImFont* bold = th.fonts().bold;
    const float fs = ImGui::GetFontSize();
    auto right = [&](const char* text, float right_x) {
      DrawText(hdl, bold, fs, ImVec2(right_x - bold->CalcTextSizeA(fs, 1e9f, 0, text).x, h.y), col, text);
    };
    if (columns) {
      right("warp inst", x0 + th.px(4) + inst_w);
      const float lanes_right = x0 + th.px(16) + inst_w + lanes_w;
      right("lanes",
            std::max(lanes_right, x0 + th.px(4) + inst_w + th.px(8) + bold->CalcTextSizeA(fs, 1e9f, 0, "lanes").x));
      if (mem_col) right("memory", x0 + th.px(28) + inst_w + lanes_w + mem_w);
    }
    if (stall_w > 0) DrawText(hdl, bold, fs, ImVec2(x0 + cols_w - stall_w + th.px(4), h.y), col, "stalls");
    right("line", x0 + cols_w + th.px(8) + num_w);
    DrawText(hdl, bold, fs, ImVec2(x0 + cols_w + th.px(8) + num_w + th.px(12) + mark_w, h.y), col, "code");
    ImGui::Dummy(ImVec2(1, ImGui::GetTextLineHeight()));
  }

  ImGui::BeginChild("source_lines", ImVec2(0, 0), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::SetWindowFontScale(code_k);
  ImGui::PushFont(th.fonts().mono);
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  layout_probe().text(ImGui::GetFontSize());
  ImDrawList* dl = ImGui::GetWindowDrawList();
  static const MetricDef kInst = [] {
    MetricDef d;
    d.unit = "warp inst";
    return d;
  }();
  const float full_w = std::max(ImGui::GetContentRegionAvail().x, th.px(400));
  // Per row of the new side of a diff (removed lines have none): the line in the file (what metrics
  // and traces name), the number shown, and whether the step ran it.
  std::vector<int> number(lines_.size(), 0), shown(lines_.size(), 0);
  std::vector<char> hot_row(lines_.size(), 0);
  for (std::size_t i = 0, k = 0; i < lines_.size(); ++i)
    if (lines_[i].kind != DiffLine::Removed && k < section_.line_numbers.size()) {
      number[i] = section_.line_numbers[k];
      shown[i] = section_.display_numbers[k];
      hot_row[i] = k < rows.size() && rows[k];
      ++k;
    }
  // A new step (or variant, or diff) scrolls its first highlighted line to a third of the way down.
  if (step) {
    const std::string where =
        id_ + "|" + std::to_string(step->index) + "|" + to_string(step->phase) + (want_diff ? "|diff" : "");
    if (where != scrolled_for_) {
      scrolled_for_ = where;
      for (std::size_t i = 0; i < lines_.size(); ++i)
        if (hot_row[i]) {
          ImGui::SetScrollY(std::max(0.f, float(i) * line_h - ImGui::GetWindowHeight() / 3.f));
          break;
        }
    }
  }
  ImGuiListClipper clip;
  clip.Begin(int(lines_.size()), line_h);
  while (clip.Step()) {
    for (int i = clip.DisplayStart; i < clip.DisplayEnd; ++i) {
      const DiffLine& l = lines_[std::size_t(i)];
      const ImVec2 o = ImGui::GetCursorScreenPos();
      const bool hot = hot_row[std::size_t(i)] != 0;
      ImVec4 bg(0, 0, 0, 0), fg = p.text;
      if (l.kind == DiffLine::Added) bg = ImVec4(p.ok.x, p.ok.y, p.ok.z, 0.16f), fg = p.ok;
      if (l.kind == DiffLine::Removed) bg = ImVec4(p.bad.x, p.bad.y, p.bad.z, 0.16f), fg = p.bad;
      if (hot) bg = ImVec4(p.lesson.x, p.lesson.y, p.lesson.z, 0.22f);
      if (bg.w > 0) dl->AddRectFilled(o, ImVec2(o.x + full_w, o.y + line_h), ImGui::GetColorU32(bg));
      if (hot) dl->AddRectFilled(o, ImVec2(o.x + th.px(4), o.y + line_h), ImGui::GetColorU32(p.lesson));
      if (hot && !layout_probe().pictures.count("source highlight"))
        layout_probe().picture("source highlight", o, ImVec2(o.x + th.px(200), o.y + line_h));
      if (columns) {
        auto lm = per_line.find(number[std::size_t(i)]);
        if (lm != per_line.end()) {
          const std::string inst = format_metric_value(kInst, lm->second->warp_instructions);
          char lanes[16];
          std::snprintf(lanes, sizeof lanes, "%.1f", lm->second->lanes_per_instruction());
          ImGui::SetCursorScreenPos(ImVec2(o.x + th.px(4) + inst_w - ImGui::CalcTextSize(inst.c_str()).x, o.y));
          ImGui::TextColored(p.accent, "%s", inst.c_str());
          const float lv = float(lm->second->lanes_per_instruction());
          ImGui::SetCursorScreenPos(ImVec2(o.x + th.px(16) + inst_w + lanes_w - ImGui::CalcTextSize(lanes).x, o.y));
          ImGui::TextColored(lv < 16 ? p.lesson : p.ok, "%s", lanes);
          if (mem_col) {
            const LineMetrics& sum = summed.at(lm->first);
            const std::string m = line_memory_label(sum);
            ImGui::SetCursorScreenPos(
                ImVec2(o.x + th.px(28) + inst_w + lanes_w + mem_w - ImGui::CalcTextSize(m.c_str()).x, o.y));
            ImGui::TextColored(line_memory_costly(sum) ? p.lesson : p.text_dim, "%s", m.c_str());
            if (!m.empty()) ++layout_probe().counts["source memory counters"];
            ItemTooltip(line_counters_tooltip(sum) + "\n\n" + kLineMemoryLegend);
          }
        }
      }
      if (stall_w > 0)
        if (auto st = stalls.lines.find(number[std::size_t(i)]); st != stalls.lines.end())
          StallBar(dl, ImVec2(o.x + cols_w - stall_w, o.y), stall_w, line_h, st->second, stalls);
      const float ox = o.x + cols_w;
      const std::string n = shown[std::size_t(i)] ? std::to_string(shown[std::size_t(i)]) : "";
      ImGui::SetCursorScreenPos(ImVec2(ox + th.px(8) + num_w - ImGui::CalcTextSize(n.c_str()).x, o.y));
      ImGui::TextColored(p.text_dim, "%s", n.c_str());
      ImGui::SameLine(0, 0);
      ImGui::SetCursorScreenPos(ImVec2(ox + th.px(8) + num_w + th.px(12), o.y));
      const char* mark = l.kind == DiffLine::Added ? "+" : l.kind == DiffLine::Removed ? "-" : " ";
      ImGui::TextColored(fg, "%s", mark);
      ImGui::SameLine(0, 0);
      ImGui::SetCursorScreenPos(ImVec2(ox + th.px(8) + num_w + th.px(12) + mark_w, o.y));
      ImGui::TextColored(hot ? p.text : fg, "%s", l.text.c_str());
    }
  }
  clip.End();
  ImGui::PopFont();
  ImGui::EndChild();
}

/// The Source tab.
/// Its tab stands at position 50 (all_views() sorts by it).
ViewInfo source_view_info() { return make_view_info<SourceView>(50, "source", "Source", kSteps); }

}  // namespace ws::ui
