#include "views/view_allreduce.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "collective/link_model.hpp"
#include "paths.hpp"
#include "views/view_registry.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/plot.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::NavKey;
using controller::ViewActions;
using controller::ViewContext;

using namespace collective;

namespace {

int schedule_steps(const ViewContext::AllReduce& a) {
  return int(make_schedule(a.algorithm, std::clamp(a.gpus, 2, kMaxGpus)).steps.size());
}

std::string ms_text(double ms) {
  char b[32];
  if (ms >= 1)
    std::snprintf(b, sizeof b, "%.2f ms", ms);
  else
    std::snprintf(b, sizeof b, "%.0f us", ms * 1000);
  return b;
}

std::string gbs_text(double gbs) {
  char b[32];
  std::snprintf(b, sizeof b, gbs >= 10 ? "%.0f GB/s" : "%.2f GB/s", gbs);
  return b;
}

ImU32 mix(const ImVec4& a, const ImVec4& b, float t) {
  return ImGui::GetColorU32(ImVec4(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, 1.f));
}

}  // namespace

void HandleAllReduceKeys(controller::ViewActions& act, const std::vector<NavKey>& keys, bool space) {
  if (ImGui::GetIO().WantTextInput) return;
  auto& a = act.allreduce();
  const int steps = schedule_steps(a);
  for (NavKey k : keys) {
    if (k == NavKey::Left) a.step = std::max(0, a.step - 1), a.playing = false;
    if (k == NavKey::Right) a.step = std::min(steps, a.step + 1);
  }
  if (space && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) {
    if (!a.playing && a.step >= steps) a.step = 0;  // play again from the start
    a.playing = !a.playing;
    a.clock = 0;
  }
}

void AllReduceView::draw(const ViewContext& c, ViewActions& act) {
  const BundledAllReduce& bundled = bundled_allreduce();
  const Theme& t = theme();
  auto& a = act.allreduce();
  a.gpus = std::clamp(a.gpus, 2, kMaxGpus);
  a.bytes_log2 = std::clamp(a.bytes_log2, kPictureMinBytesLog2, kPictureMaxBytesLog2);
  const int steps = schedule_steps(c.allreduce);
  if (a.playing) {  // the trace views' player: c.trace.speed steps per second
    a.clock += ImGui::GetIO().DeltaTime;
    if (a.clock >= 1.0 / std::max(0.25f, c.trace.speed)) a.clock = 0, a.step = std::min(steps, a.step + 1);
    if (a.step >= steps) a.playing = false;
  }
  a.step = std::clamp(a.step, 0, steps);
  // This session's measurement of the picture's run first, then the bundled report's, then the model.
  const std::int64_t bytes = std::int64_t(1) << a.bytes_log2;
  AllReducePicture p = make_picture(a.algorithm, a.gpus, bytes, c.allreduce.measured, nvlink4_model(), "this session");
  if (!p.measured) p = make_picture(a.algorithm, a.gpus, bytes, bundled.results, nvlink4_model());

  // The step's headline: where we are and how long it takes (the controls say what runs, except in a handout),
  // on the controls' line where it fits, then where the time comes from.
  std::string head = Handout() ? std::string(to_string(a.algorithm)) + ", " + std::to_string(a.gpus) + " GPUs, " +
                                     bytes_text(p.bytes) + " per GPU  \u00b7  "
                               : std::string();
  if (a.step == 0)
    head += "before step 1: each GPU holds only its own vector";
  else
    head += "step " + std::to_string(a.step) + " of " + std::to_string(steps) + " (" +
            to_string(p.steps[std::size_t(a.step - 1)].phase) + "): " + ms_text(p.steps[std::size_t(a.step - 1)].ms);
  if (!Handout()) draw_controls(act, steps);
  ImGui::PushFont(t.fonts().bold);
  if (!Handout()) SameLineIfFits(ImGui::CalcTextSize(head.c_str()).x, t.px(24));
  TextEllipsis(head, ImGui::GetContentRegionAvail().x, &t.colors().accent);
  ImGui::PopFont();
  ItemTooltip(head);
  const std::string src = "times " + p.source;
  SameLineIfFits(ImGui::CalcTextSize(src.c_str()).x, t.px(24));
  TextEllipsis(src, ImGui::GetContentRegionAvail().x, p.measured ? &t.colors().ok : &t.colors().lesson);
  ItemTooltip(src + (bundled.files.empty() ? "\nno warpscope-allreduce report in assets/allreduce"
                                           : "\nbundled reports read: " + std::to_string(bundled.files.size())));
  draw_run_line(c, act);
  for (const auto& pr : bundled.problems) TextEllipsis(pr, ImGui::GetContentRegionAvail().x, &t.colors().bad);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float left_w = std::floor(avail.x * (p.chunks > 4 ? 0.62f : 0.56f));
  ImGui::BeginChild("##allreduce_picture", ImVec2(left_w, avail.y), false, ImGuiWindowFlags_NoScrollbar);
  draw_picture(c, p, ImGui::GetContentRegionAvail());
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##allreduce_numbers", ImVec2(0, avail.y), false, ImGuiWindowFlags_NoScrollbar);
  const float h = ImGui::GetContentRegionAvail().y;
  draw_step_times(c, p, std::floor(h * 0.4f));
  sweep_.draw(a.gpus, a.bytes_log2, ImGui::GetContentRegionAvail());
  ImGui::EndChild();
}

namespace {

/// The methods "Run on the GPUs" asks for, in the order of the line that reports them.
constexpr Method kRunMethods[] = {Method::Ring, Method::Tree, Method::NcclRing, Method::NcclTree};

/// The newest result of this session of `m` on `gpus` GPUs with `length` floats per GPU, null if none.
const AllReduceResult* newest(const std::vector<AllReduceResult>& measured, Method m, int gpus, std::int64_t length) {
  for (const auto& r : measured)
    if (r.method == m && r.gpus == gpus && r.length == length) return &r;
  return nullptr;
}

}  // namespace

void AllReduceView::draw_run_line(const ViewContext& c, ViewActions& act) {
  const Theme& t = theme();
  const auto& a = c.allreduce;
  LayoutProbe& probe = layout_probe();
  probe.counts["allreduce run button"] = 0;
  if (!c.device.opened) return;
  // Why the lesson's GPU variants do not run here: one line, always visible.
  if (!c.device.device.available) {
    const std::string why = gpu_variants_line(false, 0);
    TextEllipsis(why, ImGui::GetContentRegionAvail().x, &t.colors().lesson);
    ItemTooltip(why + (c.device.device.error.empty() ? "" : "\n" + c.device.device.error));
    return;
  }
  // A machine with fewer than two GPUs (its worker's hello or an answer said so): why, and no button.
  if (a.visible_gpus >= 0 && a.visible_gpus < 2) {
    const std::string why = gpu_variants_line(true, a.visible_gpus);
    TextEllipsis(why, ImGui::GetContentRegionAvail().x, &t.colors().lesson);
    ItemTooltip(why);
    return;
  }
  const std::int64_t length = (std::int64_t(1) << a.bytes_log2) / 4;
  const std::string where = std::to_string(a.gpus) + " GPUs, " + bytes_text(length * 4) + " per GPU";
  const bool too_many = a.visible_gpus >= 2 && a.gpus > a.visible_gpus;
  if (!Handout()) {
    ImGui::BeginDisabled(a.pending > 0 || too_many);
    const bool run = ImGui::Button("Run on the GPUs");
    probe.picture("allreduce run button", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    if (run) {
      act.allreduce().note.clear();
      for (Method m : kRunMethods) {
        collective::AllReduceRequest r;
        r.method = m;
        r.gpus = a.gpus;
        r.length = length;
        act.queue_allreduce(r);
      }
    }
    ImGui::EndDisabled();
    probe.counts["allreduce run button"] = 1;
    ItemTooltip("Runs the hand-written ring and tree and NCCL's ring and tree (NCCL_ALGO=Ring, Tree) on " + where +
                " of the worker's machine, each checked against the CPU; median of 20 launches after 3 warm-ups. "
                "The ring's and the tree's measured step times then replace the bundled ones.");
    ImGui::SameLine();
  }
  // Running: how many answers are still to come; else what this session measured at the picture's size and why
  // the latest ask did not run (either may be missing); with neither, what the button does.
  if (a.pending > 0) {
    const std::string line = "running on " + where + ": " + std::to_string(a.pending) + " to go";
    TextEllipsis(line, ImGui::GetContentRegionAvail().x, &t.colors().text_dim);
    return;
  }
  std::string line;
  bool wrong = false;
  for (Method m : kRunMethods)
    if (const AllReduceResult* r = newest(a.measured, m, a.gpus, length)) {
      line += std::string(line.empty() ? "measured here: " : "  \u00b7  ") + to_string(m) + " " +
              ms_text(r->median_ms) + ", bus " + gbs_text(r->busbw_gbs) + (r->correct ? "" : " WRONG");
      wrong |= !r->correct;
    }
  probe.counts["allreduce measured here"] = line.empty() ? 0 : 1;
  probe.counts["allreduce note"] = a.note.empty() ? 0 : 1;
  if (!line.empty()) {
    TextEllipsis(line, ImGui::GetContentRegionAvail().x, wrong ? &t.colors().bad : &t.colors().ok);
    ItemTooltip(line + (wrong ? "\nWRONG: a GPU's sum differs from the CPU's (the report's detail says where)" : ""));
    if (!a.note.empty()) SameLineIfFits(ImGui::CalcTextSize(a.note.c_str()).x, t.px(24));
  }
  if (!a.note.empty()) {
    TextEllipsis(a.note, ImGui::GetContentRegionAvail().x, &t.colors().bad);
    ItemTooltip(a.note);
  } else if (line.empty()) {
    const std::string hint = too_many ? "this machine has " + std::to_string(a.visible_gpus) + " GPUs: set GPUs to " +
                                            std::to_string(a.visible_gpus) + " or fewer to run here"
                                      : "ring, tree and NCCL on " + where + " of this machine";
    TextEllipsis(hint, ImGui::GetContentRegionAvail().x, too_many ? &t.colors().lesson : &t.colors().text_dim);
  }
}

void AllReduceView::draw_controls(ViewActions& act, int steps) {
  const Theme& t = theme();
  auto& a = act.allreduce();
  int alg = a.algorithm == Algorithm::Ring ? 0 : 1;
  ImGui::AlignTextToFramePadding();
  bool changed = ImGui::RadioButton("ring", &alg, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("tree", &alg, 1);
  if (changed) a.step = 0;
  ItemTooltip(
      "ring: reduce-scatter then all-gather, 2(n-1) steps, each GPU sends 1/n of the vector per step\n"
      "tree: binomial tree to GPU 0, then back, 2 log2(n) steps, each sender sends the whole vector");
  a.algorithm = alg == 0 ? Algorithm::Ring : Algorithm::Tree;
  const float sp = t.px(24);
  SameLineIfFits(t.px(150) + ImGui::CalcTextSize("GPUs").x, sp);
  ImGui::SetNextItemWidth(t.px(150));
  if (ImGui::SliderInt("GPUs", &a.gpus, 2, kMaxGpus)) a.step = 0;
  SameLineIfFits(t.px(190) + ImGui::CalcTextSize("per GPU").x, sp);
  ImGui::SetNextItemWidth(t.px(190));
  const std::string size = bytes_text(std::int64_t(1) << a.bytes_log2);
  ImGui::SliderInt("per GPU", &a.bytes_log2, kPictureMinBytesLog2, kPictureMaxBytesLog2, size.c_str());
  ItemTooltip("message size per GPU (float32): 4 KiB to 1 GiB");
  // The step controls of the trace views: previous / next, play, the slider (Left / Right, Space).
  SameLineIfFits(2 * ImGui::GetFrameHeight() + ButtonWidth("Pause") + t.px(200), sp);
  if (ImGui::ArrowButton("##ar_prev", ImGuiDir_Left)) a.step = std::max(0, a.step - 1), a.playing = false;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##ar_next", ImGuiDir_Right)) a.step = std::min(steps, a.step + 1);
  ImGui::SameLine();
  if (ImGui::Button(a.playing ? "Pause" : "Play")) {
    if (!a.playing && a.step >= steps) a.step = 0;
    a.playing = !a.playing, a.clock = 0;
  }
  ItemTooltip("Left / Right: previous / next step; Space: play / pause");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::min(t.px(300), ImGui::GetContentRegionAvail().x));
  char fmt[48];
  std::snprintf(fmt, sizeof fmt, a.step == 0 ? "start" : "step %%d / %d", steps);
  ImGui::SliderInt("##ar_step", &a.step, 0, steps, fmt);
}

void AllReduceView::draw_picture(const ViewContext& ctx, const AllReducePicture& p, ImVec2 size) {
  const Theme& t = theme();
  const auto& c = t.colors();
  const int k = ctx.allreduce.step;
  const std::vector<std::vector<GpuMask>>& masks = k == 0 ? p.steps.front().before : p.steps[std::size_t(k - 1)].after;
  static const std::vector<ChunkMove> kNone;
  const std::vector<ChunkMove>& moves = k == 0 ? kNone : p.steps[std::size_t(k - 1)].moves;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float legend_h = ImGui::GetTextLineHeightWithSpacing();
  const float label_w = ImGui::CalcTextSize("GPU 8").x + t.px(12);
  const float head_h = ImGui::GetTextLineHeightWithSpacing();
  const float rows_h = std::max(t.px(40), size.y - legend_h - head_h);
  const float row_h = rows_h / float(p.gpus);
  const float col_w = std::min(t.px(360), (size.x - label_w) / float(p.chunks));
  const float gap_x = std::min(t.px(44), col_w * 0.28f);  // arrows curve through the gaps beside the boxes
  const float box_w = col_w - gap_x, box_h = std::max(t.px(10), row_h - t.px(5));
  auto box_min = [&](int gpu, int chunk) {
    return ImVec2(o.x + label_w + float(chunk) * col_w, o.y + head_h + float(gpu) * row_h + t.px(2.5f));
  };
  // Column heads: the chunk (a 1/n slice of the vector in the ring, the whole vector in the tree).
  for (int ch = 0; ch < p.chunks; ++ch) {
    std::string l = p.chunks == 1 ? "whole vector" : "chunk " + std::to_string(ch);
    if (ImGui::CalcTextSize(l.c_str()).x > col_w - t.px(4)) l = "c" + std::to_string(ch);
    dl->AddText(ImVec2(box_min(0, ch).x, o.y), ImGui::GetColorU32(c.text_dim), l.c_str());
  }
  std::vector<std::vector<int>> received(std::size_t(p.gpus), std::vector<int>(std::size_t(p.chunks), 0));
  for (const auto& m : moves) received[std::size_t(m.dst_gpu)][std::size_t(m.chunk)] = m.add ? 1 : 2;
  const ImU32 amber = ImGui::GetColorU32(c.lesson);
  LayoutProbe& probe = layout_probe();  // for the tests: the picture's extent, its labels, boxes and arrows
  probe.counts["allreduce boxes"] = p.gpus * p.chunks;
  probe.counts["allreduce box labels"] = 0;
  probe.counts["allreduce arrows"] = int(moves.size());
  probe.counts["allreduce measured"] = p.measured ? 1 : 0;
  probe.counts["allreduce step us"] = k == 0 ? 0 : int(std::lround(p.steps[std::size_t(k - 1)].ms * 1000));
  probe.picture("allreduce picture", box_min(0, 0),
                ImVec2(box_min(p.gpus - 1, p.chunks - 1).x + col_w, box_min(p.gpus - 1, p.chunks - 1).y + box_h));
  for (int g = 0; g < p.gpus; ++g) {
    const ImVec2 lmin = box_min(g, 0);
    const std::string gl = "GPU " + std::to_string(g);
    dl->AddText(ImVec2(o.x, lmin.y + (box_h - ImGui::GetFontSize()) * 0.5f), ImGui::GetColorU32(c.text), gl.c_str());
    for (int ch = 0; ch < p.chunks; ++ch) {
      const GpuMask m = masks[std::size_t(g)][std::size_t(ch)];
      int n = 0;
      for (int b = 0; b < kMaxGpus; ++b) n += (m >> b) & 1;
      const bool full = m == all_gpus_mask(p.gpus);
      // Fill: grey holding one GPU's values, bluer with every contributor, green when it holds the sum.
      const ImU32 fill = full ? ImGui::GetColorU32(c.ok)
                              : mix(c.cell_empty, c.accent, p.gpus > 1 ? float(n - 1) / float(p.gpus - 1) : 0.f);
      const ImVec2 a = box_min(g, ch), b(a.x + box_w, a.y + box_h);
      dl->AddRectFilled(a, b, Legible(fill), t.px(4));
      if (received[std::size_t(g)][std::size_t(ch)] != 0) dl->AddRect(a, b, amber, t.px(4), 0, t.px(4));
      // The longest label that fits: "g0+g1+g2", "3 of 8", "3/8".
      std::string label = sum_label(m, p.gpus);
      if (ImGui::CalcTextSize(label.c_str()).x > box_w - t.px(8)) label = sum_label_short(m, p.gpus);
      if (ImGui::CalcTextSize(label.c_str()).x > box_w - t.px(8)) label = sum_label_tiny(m, p.gpus);
      if (ImGui::CalcTextSize(label.c_str()).x <= box_w - t.px(4) && ImGui::GetFontSize() <= box_h) {
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        const ImVec2 at(a.x + (box_w - ts.x) * 0.5f, a.y + (box_h - ts.y) * 0.5f);
        dl->AddText(at, TextOn(Legible(fill)), label.c_str());
        probe.label(label, at, ImVec2(at.x + ts.x, at.y + ts.y));
        ++probe.counts["allreduce box labels"];
        probe.text(ImGui::GetFontSize());
      }
    }
  }
  // The step's moves: from the sender's copy of the chunk to the receiver's, curving through the gap on
  // the right of the column; "+" where the receiver adds, "=" where it overwrites.
  for (const auto& m : moves) {
    const ImVec2 sa = box_min(m.src_gpu, m.chunk), da = box_min(m.dst_gpu, m.chunk);
    const ImVec2 from(sa.x + box_w, sa.y + box_h * 0.5f), to(da.x + box_w + t.px(2), da.y + box_h * 0.5f);
    const float bulge = std::min(gap_x - t.px(6), t.px(16) + std::fabs(to.y - from.y) * 0.15f);
    dl->AddBezierCubic(from, ImVec2(from.x + bulge * 1.6f, from.y), ImVec2(to.x + bulge * 1.6f, to.y), to, amber,
                       t.px(3));
    const float hs = t.px(9);  // arrowhead pointing left into the receiver
    dl->AddTriangleFilled(to, ImVec2(to.x + hs, to.y - hs * 0.6f), ImVec2(to.x + hs, to.y + hs * 0.6f), amber);
    const char* op = m.add ? "+" : "=";
    dl->AddText(ImVec2(to.x + hs + t.px(2), to.y - ImGui::GetFontSize() - t.px(1)), amber, op);
  }
  ImGui::Dummy(ImVec2(size.x, head_h + rows_h));
  const std::string legend = "box: GPUs summed  \u00b7  green: all  \u00b7  arrow: sent (+ add, = copy)";
  TextEllipsis(legend, size.x, &c.text_dim);
  ItemTooltip(legend);
}

void AllReduceView::draw_step_times(const ViewContext& ctx, const AllReducePicture& p, float height) {
  const Theme& t = theme();
  const auto& c = t.colors();
  ImGui::PushFont(t.fonts().bold);
  TextEllipsis(std::string("step times, ") + (p.measured ? "measured" : "simulated"), ImGui::GetContentRegionAvail().x);
  ImGui::PopFont();
  const std::string total = "total " + ms_text(p.total_ms) + "  \u00b7  busbw " + gbs_text(p.busbw_gbs);
  TextEllipsis(total, ImGui::GetContentRegionAvail().x);
  ItemTooltip("busbw = bytes / time x 2(n-1)/n (nccl-tests' all-reduce bus bandwidth); algbw " + gbs_text(p.algbw_gbs));
  // One column per step, the current one amber, step numbers under them where they fit.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float bars_h = std::max(t.px(24), height - 3 * line);
  const float col = w / float(p.steps.size());
  double max_ms = 0;
  for (const auto& st : p.steps) max_ms = std::max(max_ms, st.ms);
  const bool numbers = ImGui::CalcTextSize("14").x <= col - t.px(2);
  int hovered = -1;
  for (std::size_t k = 0; k < p.steps.size(); ++k) {
    const bool cur = int(k) + 1 == ctx.allreduce.step;
    const float x = o.x + float(k) * col;
    const float bh = max_ms > 0 ? float(p.steps[k].ms / max_ms) * bars_h : 0.f;
    dl->AddRectFilled(ImVec2(x + col * 0.12f, o.y + bars_h - bh), ImVec2(x + col * 0.88f, o.y + bars_h),
                      ImGui::GetColorU32(cur ? c.lesson : c.accent), t.px(2));
    const std::string n = std::to_string(k + 1);
    if (numbers || cur) {
      const float tw = ImGui::CalcTextSize(n.c_str()).x;
      dl->AddText(ImVec2(x + (col - tw) * 0.5f, o.y + bars_h + t.px(2)),
                  ImGui::GetColorU32(cur ? c.lesson : c.text_dim), n.c_str());
    }
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (m.x >= x && m.x < x + col && m.y >= o.y && m.y < o.y + bars_h + line) hovered = int(k);
  }
  ImGui::Dummy(ImVec2(w, bars_h + line));
  if (hovered >= 0 && ImGui::IsItemHovered())
    ImGui::SetTooltip("step %d (%s): %s", hovered + 1, to_string(p.steps[std::size_t(hovered)].phase),
                      ms_text(p.steps[std::size_t(hovered)].ms).c_str());
}

/// Reduction across GPUs: the schedule's steps (its own keys), not a trace's.
/// Its tab stands at position 180 (all_views() sorts by it).
ViewInfo allreduce_view_info() {
  return make_view_info<AllReduceView>(180, "allreduce", "All-reduce", false, HandleAllReduceKeys);
}

}  // namespace ws::ui
