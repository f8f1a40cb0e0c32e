#include "views/view_steps.hpp"

#include <filesystem>

#include <algorithm>
#include <string>

#include "format.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::export_path;
using controller::format_grouped;
using controller::kMaxTraceBlocks;
using controller::kTracePassesShown;
using controller::NavKey;
using controller::TraceState;

namespace {
int g_compact_headers = 0;  // CompactTraceHeaders alive
}  // namespace

CompactTraceHeaders::CompactTraceHeaders() { ++g_compact_headers; }
CompactTraceHeaders::~CompactTraceHeaders() { --g_compact_headers; }

ImU32 WarpColor(int warp, float alpha) {
  const unsigned c = theme().colors().warp_hues[unsigned(warp) % 8];
  return ImGui::GetColorU32(
      ImVec4(float((c >> 16) & 0xff) / 255.f, float((c >> 8) & 0xff) / 255.f, float(c & 0xff) / 255.f, alpha));
}

void HandleStepKeys(TraceState& t, const std::vector<NavKey>& keys, bool space) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || t.steps() == 0) return;
  for (NavKey k : keys) {
    if (k == NavKey::Left)
      t.move(-1), t.playing = false;
    else if (k == NavKey::Right)
      t.move(+1);
  }
  if (space && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) {
    if (!t.playing && t.step >= t.steps() - 1) t.step = 0;  // play again from the start
    t.playing = !t.playing;
    t.clock = 0;
  }
}

bool TraceHeader(const controller::ViewContext& c, controller::ViewActions& act) {
  const Theme& th = theme();
  TraceState& t = act.trace();
  if (!t.trace) {
    ImGui::Spacing();
    TextWrappedColored(th.colors().lesson, t.why_none.empty() ? "no trace" : t.why_none);
    return false;
  }
  const Trace& tr = *t.trace;
  // The loaders refuse such traces; a view must still never index an empty step list or divide by zero warps.
  if (tr.steps.empty() || tr.block_size <= 0 || tr.block_size > 1024) {
    ImGui::Spacing();
    TextWrappedColored(th.colors().lesson, tr.steps.empty()
                                               ? "the trace of " + tr.variant + " has no steps to show"
                                               : "the trace of " + tr.variant + " has a block of " +
                                                     std::to_string(tr.block_size) + " threads: nothing to draw");
    return false;
  }
  t.step = std::clamp(t.step, 0, t.steps() - 1);
  // Where the trace came from: a lecturer must be able to say "this is the CPU model, not the GPU".
  std::string src = tr.source == "sim" ? "sim (CPU model of the kernel)" : "recorded on the GPU, " + tr.source;
  if (t.origin == "report") src += " (stored in the open report)";
  if (tr.compared_with_model)
    src += tr.model_difference.empty() ? ", equal to the sim model"
                                       : ", differs from the sim model: " + tr.model_difference;
  if (g_compact_headers > 0) {
    const std::string line = tr.variant + "  \u00b7  " +
                             (tr.source == "sim" ? std::string("sim") : "GPU " + tr.source) +
                             (tr.racy_model ? "  \u00b7  racy" : "");
    ImGui::PushFont(th.fonts().bold);
    TextEllipsis(line, ImGui::GetContentRegionAvail().x, &th.colors().accent);
    ImGui::PopFont();
    ItemTooltip("trace: " + src + "\n" + t.origin_note + (tr.interleaving.empty() ? "" : "\n" + tr.interleaving));
    return true;
  }
  if (Handout()) return true;  // a handout picture: the view's content only
  const std::string where = tr.variant + "  \u00b7  block " + std::to_string(tr.block_index) + " of " +
                            std::to_string(tr.launch.grid) + ", " + std::to_string(tr.block_size) + " threads (" +
                            std::to_string(tr.warps()) + (tr.warps() == 1 ? " warp)" : " warps)") +
                            "  \u00b7  n = " + format_grouped(tr.n) + " " + to_string(tr.type);
  if (c.perf.present.focus) {
    // Focus mode: the views need the rows. Where the trace came from and why stay on one line (all of it
    // on hover), the recording switch beside it, then the step controls: two rows instead of five.
    const std::string full = "trace: " + src + "  \u00b7  " + where +
                             (t.origin_note.empty() ? "" : "\n" + t.origin_note) +
                             (tr.interleaving.empty() ? "" : "\n" + tr.interleaving);
    const std::string brief = (tr.source == "sim" ? std::string("sim model") : "GPU recording (" + tr.source + ")") +
                              (tr.compared_with_model && tr.model_difference.empty() ? ", = sim" : "") +
                              (tr.racy_model ? ", racy" : "") + "  \u00b7  " + where;
    const float box_w =
        t.recorded_available ? ImGui::GetFrameHeight() + ImGui::CalcTextSize("GPU recording").x + th.px(24) : 0;
    TextEllipsis(brief, ImGui::GetContentRegionAvail().x - box_w,
                 t.origin_note.empty()  ? &th.colors().text_dim
                 : t.origin == "report" ? &th.colors().ok
                                        : &th.colors().lesson);
    ItemTooltip(full);
    if (t.recorded_available) {
      ImGui::SameLine(0, th.px(16));
      ImGui::Checkbox("GPU recording", &t.use_recorded);
      ItemTooltip(
          "on: the trace the instrumented kernel recorded on the GPU (stored in the open report)\n"
          "off: the sim model run now on the parameters' input");
    }
    StepControls(t, "", c.params.n());
    return true;
  }
  TextDim("trace: " + src + "  \u00b7  " + where, true);
  if (tr.racy_model || !tr.interleaving.empty()) {
    ImGui::SameLine();
    Badge(tr.racy_model ? "racy" : "lock-step", th.colors().lesson);
    ItemTooltip(tr.interleaving);
  }

  // Which trace this is and why: a recording is shown only when it is of what the parameters ask.
  if (!t.origin_note.empty())
    TextWrappedColored(t.origin == "report" ? th.colors().ok : th.colors().lesson, t.origin_note);
  if (t.recorded_available) {
    ImGui::Checkbox("GPU recording from the report", &t.use_recorded);
    ItemTooltip(
        "on: the trace the instrumented kernel recorded on the GPU (stored in the open report)\n"
        "off: the sim model run now on the parameters' input");
  }

  ImGui::BeginDisabled(!c.perf.steps_request.empty());
  if (ImGui::Button("Export steps")) act.perf().steps_request = export_path(c.perf, "warpscope-steps-" + tr.variant);
  ImGui::EndDisabled();
  ItemTooltip(
      "this view at every step: one PNG per step and an animated GIF at the playback speed, into "
      "warpscope-steps-<variant> in the export folder (--export-dir; --export-steps DIR without a window)");
  ImGui::SameLine();
  StepControls(t, "", c.params.n());
  return true;
}

void StepControls(TraceState& t, const std::string& label, std::int64_t n) {
  const Theme& th = theme();
  if (!t.trace || t.trace->steps.empty() || Handout()) return;
  const Step& cur = t.trace->steps[std::size_t(std::clamp(t.step, 0, t.steps() - 1))];
  t.tick(ImGui::GetIO().DeltaTime);
  const int last = t.steps() - 1;
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) t.move(-1), t.playing = false;
  ItemTooltip("previous step (Left arrow)");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) t.move(+1);
  ItemTooltip("next step (Right arrow)");
  ImGui::SameLine();
  if (ImGui::Button(t.playing ? "Pause" : "Play", ImVec2(th.px(80), 0))) {
    if (!t.playing && t.step >= last) t.step = 0;
    t.playing = !t.playing;
    t.clock = 0;
  }
  ItemTooltip("play / pause (Space)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(th.px(130));
  ImGui::SliderFloat("##speed", &t.speed, 0.25f, 10.f, "%.2g steps/s", ImGuiSliderFlags_Logarithmic);
  ItemTooltip("playback speed");
  // The block the views show, of the small grid the trace covers ([ and ] too; past the last block
  // the trace takes one more block of the input).
  if (n >= 0) {
    const Trace& tr = *t.trace;
    const int grid = int(t.whole_launch ? tr.launch.grid : std::min<std::int64_t>(tr.launch.grid, kMaxTraceBlocks));
    ImGui::SameLine(0, th.px(16));
    ImGui::BeginDisabled(t.block_index <= 0);
    if (ImGui::ArrowButton("##block_prev", ImGuiDir_Left)) t.switch_block(-1, n);
    ImGui::EndDisabled();
    ItemTooltip("previous block ([)");
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::Text("block %d of %d", tr.block_index, grid);
    if (t.whole_launch)
      ItemTooltip("the block every step-through view draws, of the whole launch over n = " + format_grouped(tr.n) +
                  " (opened from the Grid view)");
    else
      ItemTooltip("the block every step-through view draws, of the " + std::to_string(grid) +
                  (grid == 1 ? " block" : " blocks") + " the trace covers (up to " + std::to_string(kMaxTraceBlocks) +
                  "; grid-stride kernels launch that many blocks, each thread making up to " +
                  std::to_string(kTracePassesShown) + " passes)");
    ImGui::SameLine();
    if (ImGui::ArrowButton("##block_next", ImGuiDir_Right)) t.switch_block(+1, n);
    ItemTooltip(t.whole_launch ? "next block of the launch (])"
                               : "next block (]): past the last, the trace takes one more block of the input");
  }
  ImGui::SameLine();
  const std::string fmt = "step %d / " + std::to_string(last);
  ImGui::SetNextItemWidth(std::max(th.px(160), ImGui::GetContentRegionAvail().x * 0.35f));
  if (ImGui::SliderInt("##step", &t.step, 0, std::max(0, last), fmt.c_str(), ImGuiSliderFlags_AlwaysClamp))
    t.playing = false, t.pending_step = -1;
  ImGui::SameLine();
  if (!label.empty()) {
    TextEllipsis(label, ImGui::GetContentRegionAvail().x);
    ItemTooltip(label);
    return;
  }
  ImGui::PushFont(th.fonts().bold);
  ImGui::TextUnformatted(to_string(cur.phase));
  ImGui::PopFont();
  ImGui::SameLine();
  TextEllipsis(cur.label, ImGui::GetContentRegionAvail().x);  // a long statement ends in "..." (all of it on hover)
  ItemTooltip(cur.label);
}

}  // namespace ws::ui
