#include "editor/bound_panel.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

#include "registry.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::BoundEdit;
using controller::ViewActions;
using controller::ViewContext;

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/// One copy's text field, in the monospace font, `height` high.
void copy_field(const char* title, const char* id, std::string& text, float height) {
  SectionTitle(title);
  ImGui::PushFont(theme().fonts().mono);
  ImGui::InputTextMultiline(id, &text, ImVec2(-1, height), ImGuiInputTextFlags_AllowTabInput);
  layout_probe().text(ImGui::GetFontSize());
  ImGui::PopFont();
}

/// The three runs: time, x of the original, DRAM MB read, occupancy, the check.
void runs_table(const std::vector<RunResult>& runs) {
  const Palette& p = theme().colors();
  const char* names[3] = {"original", "memory-only", "compute-only"};
  if (!ImGui::BeginTable("bound_runs", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
  for (const char* h : {"copy", "time ms", "x orig", "DRAM rd MB", "occupancy", "check"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  const double t0 = runs.empty() ? 0 : bound_measure(runs[0]).ms;
  for (std::size_t i = 0; i < runs.size() && i < 3; ++i) {
    const BoundMeasure m = bound_measure(runs[i]);
    const bool failed = runs[i].status == RunStatus::Error || runs[i].status == RunStatus::Faulted;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(names[i]);
    ImGui::TableNextColumn();
    TextRight(m.ms > 0 ? fmt("%.4f", m.ms) : "-");
    ImGui::TableNextColumn();
    TextRight(m.ms > 0 && t0 > 0 ? fmt("%.2f", m.ms / t0) : "-");
    ImGui::TableNextColumn();
    TextRight(m.dram_bytes >= 0 ? fmt("%.1f", m.dram_bytes / 1e6) : "-");
    ImGui::TableNextColumn();
    TextRight(m.occupancy_pct >= 0 ? fmt("%.1f %%", m.occupancy_pct) : "-");
    ImGui::TableNextColumn();
    // The copies' answers are wrong by design, not checked: only the original's check matters (as format_bound).
    if (i == 0 || failed)
      ImGui::TextColored(runs[i].status == RunStatus::Ok ? p.ok : p.bad, "%s", to_string(runs[i].status));
    else
      ImGui::TextColored(p.text_dim, "a copy");
  }
  ImGui::EndTable();
}

}  // namespace

std::string needs_gpu_line(const std::string& what) {
  return what + " needs an NVIDIA GPU (here, --gpu ssh:HOST or --gpu 'slurm:ARGS')";
}

void find_the_bound(ViewActions& act) { act.bound().open(act.edit().variant(), act.edit().pattern(), act.edit().text); }

void run_the_three(const ViewContext& c, ViewActions& act) {
  if (act.bound().running()) return;
  const VariantInfo* v = find_variant(act.bound().variant());
  if (!v) return;
  if (!(c.device.opened && c.device.device.available)) {
    act.bound().cannot_run(needs_gpu_line("Running the three") + ".");
    return;
  }
  RunRequest base = c.params.to_request(v->id);
  base.backend = BackendKind::Cuda;
  for (RunRequest& r : act.bound().requests(base, act.edit().text)) act.queue_run(std::move(r));
  act.bound().queued(c.session.runs);
}

bool draw_bound_panel(const ViewContext& c, ViewActions& act, float width) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  BoundEdit& b = act.bound();
  bool open = true;
  ImGui::BeginChild("bound_panel", ImVec2(width, 0), true);
  const ImVec2 top = ImGui::GetWindowPos();
  ImGui::PushFont(th.fonts().heading);
  ImGui::TextUnformatted("Find the bound");
  ImGui::PopFont();
  TextDim("\"Code Optimizations\", J. Filipovic: slides \"Code Modifications\"", true);
  TextWrappedColored(p.lesson, b.note());
  ImGui::BeginDisabled(b.running());
  if (ImGui::Button("Run the three")) run_the_three(c, act);
  ImGui::EndDisabled();
  ItemTooltip("the editor's text, the memory-only and the compute-only copy, run like " + b.variant() +
              " with DRAM bytes and achieved occupancy collected, as warpscope-cli bound --variant " + b.variant() +
              " does; the runs are rows of Results too");
  ImGui::SameLine();
  if (ImGui::Button("Close##bound")) open = false;
  const BoundReading* r = b.reading();
  const std::string status = b.status();
  if (!status.empty() && (!r || b.running()))  // running, or why it cannot run; else the verdict says it
    TextWrappedColored(b.running() ? p.text_dim : p.lesson, status);
  if (r && !b.running()) {
    // The verdict first, so it is in view whatever the copies' length; then the numbers it rests on.
    ImGui::PushFont(th.fonts().heading);
    const bool unsure = r->verdict == BoundVerdict::Unclear || r->verdict == BoundVerdict::NotTimed;
    TextWrappedColored(unsure ? p.lesson : p.accent, std::string("Verdict: ") + to_string(r->verdict));
    ImGui::PopFont();
    ImGui::TextWrapped("%s", r->reason.c_str());
    runs_table(b.runs());
    for (const BoundCheck& c : r->checks) {
      const bool failed = c.state == BoundCheck::Failed;
      TextWrappedColored(c.state == BoundCheck::Passed ? p.ok
                         : failed                      ? p.bad
                                                       : p.text_dim,
                         std::string(c.state == BoundCheck::Passed ? "fair: "
                                     : failed                      ? "UNFAIR: "
                                                                   : "unknown: ") +
                             c.name + " (" + c.detail + ")");
    }
    layout_probe().picture("bound verdict", top,
                           ImVec2(top.x + ImGui::GetWindowWidth(), ImGui::GetCursorScreenPos().y));
  }
  // The two copies share the rest of the height.
  const float titles = 2 * (ImGui::GetTextLineHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y);
  const float copy_h = std::max(th.px(90), (ImGui::GetContentRegionAvail().y - titles) / 2);
  copy_field("Memory-only copy", "##bound_memory", b.memory, copy_h);
  copy_field("Compute-only copy", "##bound_compute", b.compute, copy_h);
  ImGui::EndChild();
  if (!open) b.close();
  return open;
}

}  // namespace ws::ui
