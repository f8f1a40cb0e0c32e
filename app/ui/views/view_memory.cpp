#include "views/view_memory.hpp"

#include <imgui.h>

#include <algorithm>
#include <map>
#include <string>

#include "trace/analyses.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

namespace {

constexpr int kWordsPerSector = kSectorBytes / kWordBytes;  // 8

/// The sectors one request touched (ascending) with the words of each that some lane read.
std::map<std::int64_t, std::vector<bool>> request_sectors(const Step& step, const SectorRequest& r) {
  std::map<std::int64_t, std::vector<bool>> out;
  for (const ThreadOp& op : step.ops) {
    if (op.kind != OpKind::Load || op.space != Space::Global || op.thread / kWarpSize != r.warp ||
        op.access != r.access || op.buffer != r.buffer || op.address < 0)
      continue;
    auto& words = out[op.address / kWordsPerSector];
    words.resize(kWordsPerSector, false);
    words[std::size_t(op.address % kWordsPerSector)] = true;
  }
  return out;
}

const char* buffer_name(int b) { return b == 0 ? "input" : b == 1 ? "partials" : "accumulator"; }

}  // namespace

void MemoryView::draw(const controller::ViewContext& ctx, controller::ViewActions& actions) {
  if (!TraceHeader(ctx, actions)) return;
  controller::TraceState& trace = actions.trace();  // the player's step, block and switches
  const Theme& th = theme();
  const Palette& p = th.colors();
  const Trace& tr = *trace.trace;
  const Step& step = tr.steps[std::size_t(trace.step)];
  TextDim(
      "A warp's global load is served in 32-byte sectors (8 words of 4 bytes); 32 lanes reading 32 consecutive "
      "words fill the minimum, 4 sectors (coalesced).",
      true);
  TextDim(
      "Strided or scattered addresses touch more sectors for the same bytes (uncoalesced): the extra sectors "
      "are memory bandwidth spent on words nobody asked for.",
      true);

  const std::vector<SectorRequest> reqs = global_load_sectors(tr, step);
  if (reqs.empty()) {
    ImGui::Spacing();
    TextWrappedColored(p.lesson, "step " + std::to_string(step.index) + " (" + to_string(step.phase) +
                                     (step.label.empty() ? "" : ": " + step.label) + ") makes no global loads");
    for (const Step& k : tr.steps)
      if (!global_load_sectors(tr, k).empty()) {
        const std::string b =
            "Go to step " + std::to_string(k.index) + " (" + to_string(k.phase) + "), the first with global loads";
        if (!Handout() && ImGui::Button(b.c_str())) trace.step = k.index, trace.playing = false;
        break;
      }
    return;
  }
  int sectors = 0, min_sectors = 0;
  for (const SectorRequest& r : reqs) sectors += r.sectors, min_sectors += r.min_sectors;
  ImGui::PushFont(th.fonts().bold);
  ImGui::Text("%d warp requests: %d sectors, minimum %d", int(reqs.size()), sectors, min_sectors);
  ImGui::PopFont();
  ImGui::SameLine(0, th.px(16));
  if (sectors <= min_sectors)
    Badge("coalesced", p.ok);
  else
    Badge((std::to_string(sectors - min_sectors) + " extra sectors").c_str(), p.bad);

  ImGui::BeginChild("memory_rows", ImVec2(0, 0), false);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const bool many_buffers = std::any_of(reqs.begin(), reqs.end(), [](const SectorRequest& r) { return r.buffer != 0; });
  const bool many_access = std::any_of(reqs.begin(), reqs.end(), [](const SectorRequest& r) { return r.access != 0; });
  const float label_w =
      ImGui::CalcTextSize(many_access || many_buffers ? "warp 31 \u00b7 access 1 partials" : "warp 31").x + th.px(16);
  const float result_w = ImGui::CalcTextSize("32 sectors (minimum 4)").x + th.px(28);
  const float box_h = th.px(28), row_h = box_h + th.px(22);
  const ImU32 empty = ImGui::GetColorU32(theme().colors().cell_empty);
  const ImU32 dim = ImGui::GetColorU32(p.text_dim);
  // One colour for words read, whatever the warp: the other views' amber and red mean divergence and
  // conflicts, so only the sector count and the red border say "uncoalesced" here.
  const ImU32 read = WarpColor(0);
  for (const SectorRequest& r : reqs) {
    const auto sect = request_sectors(step, r);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    std::string label = "warp " + std::to_string(r.warp);
    if (many_access) label += " \u00b7 access " + std::to_string(r.access);
    if (many_buffers) label += std::string(" ") + buffer_name(r.buffer);
    dl->AddText(ImVec2(o.x, o.y + (box_h - ImGui::GetTextLineHeight()) * 0.5f), ImGui::GetColorU32(p.text),
                label.c_str());
    const std::string res = std::to_string(r.sectors) + " sectors (minimum " + std::to_string(r.min_sectors) + ")";
    ImGui::SetCursorScreenPos(ImVec2(o.x + label_w, o.y + (box_h - ImGui::GetFrameHeight()) * 0.5f + th.px(2)));
    if (r.sectors > r.min_sectors)
      Badge(res.c_str(), p.bad);
    else
      ImGui::TextColored(p.ok, "%s", res.c_str());
    // The sectors, in address order, each as 8 word cells (filled: some lane read the word).
    const float x0 = o.x + label_w + result_w;
    const float avail =
        std::max(th.px(100), ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x - x0 - th.px(8));
    const float gap = th.px(6);
    const float cell =
        std::clamp((avail - gap * float(sect.size())) / float(sect.size() * kWordsPerSector), th.px(2), th.px(10));
    float x = x0;
    const ImU32 border = ImGui::GetColorU32(r.sectors > r.min_sectors ? p.bad : p.text_dim);
    for (const auto& [index, words] : sect) {
      const float w = cell * kWordsPerSector;
      for (int k = 0; k < kWordsPerSector; ++k)
        dl->AddRectFilled(ImVec2(x + cell * float(k) + 1, o.y + 1),
                          ImVec2(x + cell * float(k + 1) - 1, o.y + box_h - 1), words[std::size_t(k)] ? read : empty);
      dl->AddRect(ImVec2(x, o.y), ImVec2(x + w, o.y + box_h), border, th.px(2), 0, th.px(1.5f));
      const std::string n = "#" + std::to_string(index);
      const float fs = th.px(14);
      const ImVec2 ts = th.fonts().regular->CalcTextSizeA(fs, 1e9f, 0, n.c_str());
      if (ts.x <= w + gap)
        DrawText(dl, th.fonts().regular, fs, ImVec2(x + (w - ts.x) * 0.5f, o.y + box_h + th.px(2)), dim, n.c_str());
      x += w + gap;
    }
    ImGui::SetCursorScreenPos(o);
    ImGui::Dummy(ImVec2(x - o.x, row_h));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("warp %d, access %d (%s): %d lanes, %d sectors touched; their %d distinct words fit in %d",
                        r.warp, r.access, buffer_name(r.buffer), r.lanes, r.sectors, r.min_sectors * kWordsPerSector,
                        r.min_sectors);
  }
  ImGui::EndChild();
}

/// The Memory tab.
/// Its tab stands at position 60 (all_views() sorts by it).
ViewInfo memory_view_info() { return make_view_info<MemoryView>(60, "memory", "Memory", kSteps); }

}  // namespace ws::ui
