#include "editor/kernel_editor.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // the text field's child window (its scroll), for the margin and "go to line"
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "editor/bound_panel.hpp"
#include "kernel_compile.hpp"
#include "kernel_copy.hpp"
#include "kernel_trace_points.hpp"
#include "metric_catalog.hpp"
#include "registry.hpp"
#include "views/line_counters.hpp"
#include "views/stall_bars.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::changed_line_marks;
using controller::find_section;
using controller::find_text;
using controller::KernelCopy;
using controller::KernelEdit;
using controller::line_of_offset;
using controller::make_kernel_copy;
using controller::Message;
using controller::traced_kernel_copy;
using controller::ViewActions;
using controller::ViewContext;

namespace {

constexpr const char* kTextLabel = "##kernel_text";

/// The child window ImGui's multiline text field `id` scrolls in (made by the field this frame).
ImGuiWindow* text_child(ImGuiID id) {
  ImGuiWindow* parent = ImGui::GetCurrentWindow();
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->ParentWindow == parent && w->ChildId == id) return w;
  return nullptr;
}

/// The edited kernel's latest run with per-line metrics or PC samples, if any.
const RunResult* edited_metrics_run(const ViewContext& c) {
  for (auto it = c.session.runs.rbegin(); it != c.session.runs.rend(); ++it)
    if (it->variant == c.edit.run_label() && (!it->metrics.lines.empty() || it->metrics.pc_sampling.collected))
      return &*it;
  return nullptr;
}

}  // namespace

void KernelEditor::open(ViewActions& act, const VariantInfo& v) {
  const KernelCopy copy = make_kernel_copy(v, find_section(v.id));
  act.edit().open(v.id, v.pattern, copy.text, copy.note);
  act.edit().set_traced_copy(traced_kernel_copy(v));  // the step views' trace of an edit (edit_step_trace)
  act.bound().close();                                // a search is of one variant's text
  find_from_ = 0;
  marked_line_ = 0;
  goto_line_ = copy.kernel_line;  // the slide's kernel in view, its comment above it, rather than the copy's header
  focus_text_ = true;
  marks_for_.clear();
}

void KernelEditor::open_exercise(ViewActions& act, const Exercise& ex) {
  if (std::string err = act.edit().open_exercise(ex); !err.empty()) {
    act.say(Message::Error, "exercise " + ex.id + ": " + err);
    return;
  }
  find_from_ = 0;
  marked_line_ = 0;
  goto_line_ = 0;
  const std::size_t todo = act.edit().text.find("TODO");  // the part to write in view
  if (todo != std::string::npos) goto_line_ = marked_line_ = line_of_offset(act.edit().text, todo);
  focus_text_ = true;
  marks_for_.clear();
}

void KernelEditor::compile_and_run(const ViewContext& c, ViewActions& act) {
  if (c.device.opened && c.device.device.available && act.edit().exercise()) {
    act.edit().check();  // exchange_with_worker (app/controller/worker_exchange.cpp) queues its runs one at a time
    return;
  }
  if (c.device.opened && c.device.device.available) {
    const VariantInfo* v = find_variant(act.edit().variant());
    if (!v) return;
    act.queue_run(act.edit().run_request(c.params.to_request(v->id)));
    act.edit().run_queued(c.session.runs);
    return;
  }
  act.edit().compile();  // no GPU here: compile only (NVRTC needs none), so errors still land on their lines
}

bool KernelEditor::draw(const ViewContext& c, ViewActions& act) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  KernelEdit& e = act.edit();
  const ImGuiIO& io = ImGui::GetIO();
  const bool ctrl_enter = io.KeyCtrl && (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) ||
                                         ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter)));
  bool run = std::exchange(e.request_run, false);
  e.poll();  // also done by exchange_with_worker each frame, for a result that comes while another view is open
  e.take_run(c.session.runs);
  // Find the bound (--edit-bound presses both of its buttons once the run worker has said where the GPU is).
  if (std::exchange(act.bound().request_open, false) && !e.exercise()) find_the_bound(act);
  if (act.bound().request_run && c.device.opened) {
    act.bound().request_run = false;
    if (act.bound().is_open()) run_the_three(c, act);
  }
  act.bound().take(c.session.runs);

  // Row 1: back, compile and run, reset, find.
  if (ImGui::Button("Back to the slide")) {
    e.save();
    e.close();
    return false;
  }
  ItemTooltip("the variant's source as it was built; your copy stays saved" +
              (e.save_path().empty() ? std::string() : " (" + e.save_path() + ")"));
  const bool busy = e.compiling() || e.running();
  const Exercise* ex = e.exercise();
  const char* run_label = ex ? "Check (Ctrl+Enter)" : "Compile and run (Ctrl+Enter)";
  SameLineIfFits(ButtonWidth(run_label));
  ImGui::BeginDisabled(busy);
  if (ImGui::Button(run_label)) run = true;
  ImGui::EndDisabled();
  ItemTooltip(ex ? "grades the text as warpscope-cli grade --exercise " + ex->id +
                       " does, on the GPU the runs go to: compiled with NVRTC, checked against the CPU reference on "
                       "hidden cases, then timed against " +
                       ex->reference + " in the same worker"
                 : "compiled with NVRTC (-lineinfo) where the GPU is, launched with " + e.variant() +
                       "'s launch, checked against the CPU and timed: a row '" + e.run_label() +
                       "' in Results and Compare");
  const char* reset_label = ex ? "Reset to the starter" : "Reset to the slide";
  SameLineIfFits(ButtonWidth(reset_label));
  if (ImGui::Button(reset_label)) {
    e.reset();
    marks_for_.clear();
  }
  if (!ex) {
    SameLineIfFits(ButtonWidth("Find the bound"));
    if (ImGui::Button("Find the bound")) find_the_bound(act);
    ItemTooltip(
        "the bottleneck search of \"Code Optimizations\" (J. Filipovic, slides \"Code Modifications\"): a "
        "memory-only and a compute-only copy of this text to adjust, then the three runs and the slides' "
        "verdict: memory, compute or latency bound");
  }
  SameLineIfFits(th.px(200) + ButtonWidth("Next") + ImGui::GetStyle().ItemSpacing.x, th.px(24));
  ImGui::SetNextItemWidth(th.px(200));
  const bool find_enter = ImGui::InputTextWithHint(
      "##find", "find", &find_, ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
  if (ImGui::IsItemEdited()) find_from_ = 0;
  ImGui::SameLine();
  bool find_next = find_enter;
  if (ImGui::Button("Next")) find_next = true;
  if (find_next) {
    const std::size_t at = find_text(e.text, find_, find_from_, true);
    if (at != std::string::npos) {
      goto_line_ = marked_line_ = line_of_offset(e.text, at);
      find_from_ = at + 1;
    } else {
      marked_line_ = 0;
    }
    if (find_enter) ImGui::SetKeyboardFocusHere(-1);
  }
  if (!find_.empty() && find_next && marked_line_ == 0) {
    ImGui::SameLine();
    ImGui::TextColored(p.bad, "not found");
  }

  // Save as .cu / Open .cu: the user's own files, beside the copy kept in the data folder.
  SameLineIfFits(
      th.px(260) + ButtonWidth("Save as .cu") + ButtonWidth("Open .cu") + 2 * ImGui::GetStyle().ItemSpacing.x,
      th.px(24));
  ImGui::SetNextItemWidth(th.px(260));
  ImGui::InputTextWithHint("##cu_path", "file.cu", &path_);
  ImGui::SameLine();
  if (ImGui::Button("Save as .cu")) {
    const std::string err = e.save_as(path_);
    act.say(err.empty() ? Message::Info : Message::Error, err.empty() ? "saved the edited kernel to " + path_ : err);
  }
  ImGui::SameLine();
  if (ImGui::Button("Open .cu")) {
    const std::string err = e.open_file(path_);
    if (!err.empty()) act.say(Message::Error, err);
    marks_for_.clear();
  }
  ItemTooltip("replaces the text with the file's (your copy of " + e.variant() +
              " is kept until then: Ctrl+Z does not "
              "reach past an open); it runs with " +
              e.variant() + "'s launch");

  // Row 2: the state in one line each: the result, why it cannot run here, the copy's note, restored text.
  if (!e.status().empty()) TextEllipsis(e.status(), ImGui::GetContentRegionAvail().x, e.status_bad() ? &p.bad : &p.ok);
  if (c.device.opened && !c.device.device.available) {
    const std::string line = needs_gpu_line(ex ? "Checking it" : "Running it") + "; " +
                             std::string(built_with_nvrtc() ? "Ctrl+Enter compiles it here and shows its errors."
                                                            : "this build has no NVRTC to compile it either.");
    TextEllipsis(line, ImGui::GetContentRegionAvail().x, &p.lesson);
    ItemTooltip(line);
    layout_probe().text(ImGui::GetFontSize());
  }
  if (!e.note().empty()) {
    TextEllipsis(e.note(), ImGui::GetContentRegionAvail().x, &p.lesson);
    ItemTooltip(e.note());
  }
  if (e.restored())
    TextEllipsis("your earlier edit, restored from " + e.save_path(), ImGui::GetContentRegionAvail().x, &p.text_dim);
  if (!e.save_error().empty()) TextEllipsis(e.save_error(), ImGui::GetContentRegionAvail().x, &p.bad);

  // The text field and its margin, then the messages (up to 5 lines, scrolling beyond). New messages scroll
  // the first one's line into view.
  const std::vector<KernelDiagnostic>& diags = e.diagnostics();
  if (e.diagnostics_generation() != diags_seen_) {
    diags_seen_ = e.diagnostics_generation();
    for (const KernelDiagnostic& d : diags)
      if (d.line > 0) {
        goto_line_ = marked_line_ = d.line;
        break;
      }
  }
  // An exercise's statement stands beside the text, in a third of the width; Find the bound's panel in 45 %.
  const bool bound = !ex && act.bound().is_open();
  const float side_w = ex      ? std::clamp(ImGui::GetContentRegionAvail().x * 0.34f, th.px(320), th.px(640))
                       : bound ? std::max(ImGui::GetContentRegionAvail().x * 0.45f, th.px(360))
                               : 0.f;
  if (ex || bound) ImGui::BeginChild("editor_text", ImVec2(ImGui::GetContentRegionAvail().x - side_w, 0), false);
  const float msg_h = diags.empty()
                          ? 0.f
                          : std::min<float>(5.f, float(diags.size())) * ImGui::GetTextLineHeightWithSpacing() +
                                2 * ImGui::GetStyle().WindowPadding.y + ImGui::GetStyle().ItemSpacing.y;
  ImGui::PushFont(th.fonts().mono);
  const RunResult* mr = edited_metrics_run(c);
  std::map<int, double> inst;
  if (mr)
    for (const LineMetrics& lm : mr->metrics.lines)
      if (lm.file == e.file()) inst[lm.line] += lm.warp_instructions;
  static const MetricDef kInst = [] {
    MetricDef d;
    d.unit = "warp inst";
    return d;
  }();
  // Stall reasons per line (PC sampling: --metrics pcsampling), a bar left of the counters.
  const StallColumn stalls = mr ? stall_column(mr->metrics.pc_sampling, e.file()) : StallColumn{};
  const float stall_w = stalls.empty() ? 0.f : StallColumnWidth();
  // Memory per line, right of the counters: bank-conflict ways ("2.0 w/i") or sectors per request ("4.0 s/r").
  const std::map<int, LineMetrics> per_line =
      mr ? lines_of_file(mr->metrics.lines, e.file()) : std::map<int, LineMetrics>{};
  const bool mem =
      std::any_of(per_line.begin(), per_line.end(), [](const auto& l) { return !line_memory_label(l.second).empty(); });
  const float mem_w = mem ? ImGui::CalcTextSize("00.0 w/i").x + th.px(8) : 0.f;
  const float inst_w = (inst.empty() ? 0.f : ImGui::CalcTextSize("000.0 M").x + th.px(8)) + stall_w + mem_w;
  const float num_w = ImGui::CalcTextSize("0000").x;
  const float margin_w = inst_w + num_w + th.px(28);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float text_h = std::max(avail.y - msg_h, ImGui::GetTextLineHeight() * 4);
  ImGui::SetCursorScreenPos(ImVec2(origin.x + margin_w, origin.y));
  const ImGuiID text_id = ImGui::GetID(kTextLabel);
  if (focus_text_) ImGui::SetKeyboardFocusHere(), focus_text_ = false;
  const bool enter =
      ImGui::InputTextMultiline(kTextLabel, &e.text, ImVec2(avail.x - margin_w, text_h),
                                ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::IsItemEdited()) e.changed();
  const ImVec2 fmin = ImGui::GetItemRectMin(), fmax = ImGui::GetItemRectMax();
  layout_probe().text(ImGui::GetFontSize());
  if (enter && io.KeyCtrl) run = true, focus_text_ = true;  // Ctrl+Enter leaves the field: give it back
  if (ctrl_enter && !io.WantTextInput) run = true;

  // Margin: numbers aligned with the field's lines (its scroll), marks, changed lines, counters.
  ImGuiWindow* child = text_child(text_id);
  const float scroll = child ? child->Scroll.y : 0.f;
  const float line_h = ImGui::GetFontSize();
  const float top = fmin.y + ImGui::GetStyle().FramePadding.y - scroll;
  if (e.text != marks_for_) {
    changed_ = changed_line_marks(e.original(), e.text);
    marks_for_ = e.text;
  }
  const std::vector<int> marks = e.line_marks();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(origin.x, fmin.y), ImVec2(fmin.x, fmax.y), true);
  const int lines = int(marks.size());
  const int first = std::max(0, int((fmin.y - top) / line_h));
  const int last = std::min(lines, int((fmax.y - top) / line_h) + 1);
  for (int i = first; i < last; ++i) {
    const float y = top + float(i) * line_h;
    const int mark = marks[std::size_t(i)];
    if (mark) {
      const ImVec4& c = mark == 2 ? p.bad : p.lesson;
      dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(fmin.x - th.px(2), y + line_h),
                        ImGui::GetColorU32(ImVec4(c.x, c.y, c.z, 0.22f)));
      dl->AddCircleFilled(ImVec2(origin.x + inst_w + th.px(7), y + line_h / 2), line_h * 0.28f, ImGui::GetColorU32(c));
    }
    if (i + 1 == marked_line_)
      dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(origin.x + th.px(3), y + line_h), ImGui::GetColorU32(p.accent));
    if (std::size_t(i) < changed_.size() && changed_[std::size_t(i)]) {
      const float x = fmin.x - th.px(7);
      if (changed_[std::size_t(i)] == 1)
        dl->AddRectFilled(ImVec2(x, y + 1), ImVec2(x + th.px(4), y + line_h - 1), ImGui::GetColorU32(p.ok));
      else
        dl->AddTriangleFilled(ImVec2(x, y - th.px(4)), ImVec2(x + th.px(5), y), ImVec2(x, y + th.px(4)),
                              ImGui::GetColorU32(p.bad));
    }
    const std::string n = std::to_string(i + 1);
    const ImVec4& nc = mark == 2 ? p.bad : mark == 1 ? p.lesson : p.text_dim;
    dl->AddText(ImVec2(origin.x + inst_w + th.px(14) + num_w - ImGui::CalcTextSize(n.c_str()).x, y),
                ImGui::GetColorU32(nc), n.c_str());
    if (auto st = stalls.lines.find(i + 1); st != stalls.lines.end())
      StallBar(dl, ImVec2(origin.x, y), stall_w - th.px(4), line_h, st->second, stalls);
    if (auto it = inst.find(i + 1); it != inst.end()) {
      const std::string v = format_metric_value(kInst, it->second);
      dl->AddText(ImVec2(origin.x + inst_w - mem_w - th.px(6) - ImGui::CalcTextSize(v.c_str()).x, y),
                  ImGui::GetColorU32(p.accent), v.c_str());
    }
    if (auto it = per_line.find(i + 1); mem && it != per_line.end()) {
      const std::string v = line_memory_label(it->second);
      const ImVec2 a(origin.x + inst_w - th.px(6) - ImGui::CalcTextSize(v.c_str()).x, y);
      if (!v.empty()) {
        dl->AddText(a, ImGui::GetColorU32(line_memory_costly(it->second) ? p.lesson : p.text_dim), v.c_str());
        layout_probe().label(v, a, ImVec2(origin.x + inst_w - th.px(6), y + line_h));
      }
    }
  }
  dl->PopClipRect();
  // Hovering the counters: the line's counters in words, and what the memory column means.
  if (!per_line.empty() && ImGui::IsMouseHoveringRect(ImVec2(origin.x, fmin.y), ImVec2(origin.x + inst_w, fmax.y))) {
    const int hovered = int((io.MousePos.y - top) / line_h) + 1;
    const auto it = per_line.find(hovered);
    const std::string tip = (it != per_line.end() ? line_counters_tooltip(it->second) + "\n\n" : std::string()) +
                            (mem ? kLineMemoryLegend : "warp instructions issued per line");
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.f);
    ImGui::TextUnformatted(tip.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  if (!changed_.empty() && std::any_of(changed_.begin(), changed_.end(), [](int m) { return m != 0; }))
    layout_probe().picture("editor changed lines", ImVec2(fmin.x - th.px(7), fmin.y), ImVec2(fmin.x, fmax.y));
  if (!inst.empty() || !stalls.empty())
    layout_probe().picture("editor line counters", origin, ImVec2(origin.x + inst_w, fmax.y));
  if (std::any_of(marks.begin(), marks.end(), [](int m) { return m == 2; }))
    layout_probe().picture("editor error mark", origin, ImVec2(fmin.x, fmax.y));
  if (goto_line_ > 0 && child) {
    ImGui::SetScrollY(child, std::max(0.f, float(goto_line_ - 1) * line_h - (fmax.y - fmin.y) / 3));
    goto_line_ = 0;
  }
  ImGui::PopFont();

  // Messages: one row each, a click goes to its line.
  if (!diags.empty()) {
    ImGui::BeginChild("kernel_messages", ImVec2(0, 0), true);
    for (std::size_t i = 0; i < diags.size(); ++i) {
      const KernelDiagnostic& d = diags[i];
      const std::string where = d.line > 0 ? "line " + std::to_string(d.line) : d.file.empty() ? "" : d.file;
      const std::string row = where + (where.empty() ? "" : ": ") + d.severity + ": " + d.message;
      ImGui::PushStyleColor(ImGuiCol_Text, d.severity == "error" ? p.bad : d.severity == "warning" ? p.lesson : p.text);
      // Never drawn selected: red on the selection's blue does not read on a projector (the margin marks the line).
      if (ImGui::Selectable((row + "##diag" + std::to_string(i)).c_str(), false) && d.line > 0) {
        goto_line_ = marked_line_ = d.line;
        focus_text_ = true;
      }
      ImGui::PopStyleColor();
    }
    ImGui::EndChild();
  }
  if (ex) {
    ImGui::EndChild();
    ImGui::SameLine();
    draw_exercise(c, *ex);
  } else if (bound) {
    ImGui::EndChild();
    ImGui::SameLine();
    draw_bound_panel(c, act, 0.f);
  }
  if (run && !busy) compile_and_run(c, act);
  return true;
}

void KernelEditor::draw_exercise(const ViewContext& c, const Exercise& ex) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  const KernelEdit& e = c.edit;
  ImGui::BeginChild("exercise", ImVec2(0, 0), true);
  const ImVec2 top = ImGui::GetWindowPos();
  ImGui::PushFont(th.fonts().heading);
  ImGui::TextWrapped("%s", ex.title.c_str());
  ImGui::PopFont();
  TextDim("exercise " + ex.id + " (lesson " + ex.lesson + ")", true);
  ImGui::Spacing();
  ImGui::TextWrapped("%s", ex.statement.c_str());
  ImGui::Spacing();
  std::string goal =
      "Goal: correct on " + std::to_string(ex.cases.size()) + " hidden cases (sizes and inputs not shown)";
  if (ex.min_speed > 0) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.2fx", ex.min_speed);
    goal += ", and at least " + std::string(ratio) + " of " + ex.reference + "'s speed, timed in the same worker";
  }
  TextWrappedColored(p.accent, goal + ".");
  ImGui::Spacing();
  SectionTitle("Check");
  if (e.checking()) {
    TextWrappedColored(p.text_dim, e.check_progress());
  } else if (const GradeReport* g = e.grade()) {
    for (const GradeCheck& c : g->checks) {
      const char* tag = !c.ran ? "SKIP" : c.passed ? "PASS" : "FAIL";
      TextWrappedColored(!c.ran     ? p.text_dim
                         : c.passed ? p.ok
                                    : p.bad,
                         std::string(tag) + "  " + c.name + (c.detail.empty() ? "" : ": " + c.detail));
    }
    ImGui::Spacing();
    ImGui::PushFont(th.fonts().bold);
    TextWrappedColored(g->passed() ? p.ok : p.bad, g->passed() ? "Passed: every check" : "Not passed yet");
    ImGui::PopFont();
  } else {
    TextDim("Ctrl+Enter (Check) grades the text on the GPU as warpscope-cli grade does; the verdicts come here.", true);
  }
  ImGui::Spacing();
  if (!ex.hints.empty() && ImGui::CollapsingHeader(("Hints (" + std::to_string(ex.hints.size()) + ")").c_str()))
    for (const std::string& h : ex.hints) {
      ImGui::Bullet();
      ImGui::SameLine();
      ImGui::TextWrapped("%s", h.c_str());
    }
  layout_probe().picture("exercise statement", top,
                         ImVec2(top.x + ImGui::GetWindowWidth(), top.y + ImGui::GetWindowHeight()));
  ImGui::EndChild();
}

}  // namespace ws::ui
