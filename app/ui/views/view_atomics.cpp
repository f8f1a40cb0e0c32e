#include "views/view_atomics.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>

#include "registry.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

namespace {

std::string address_label(const Trace& t, const AtomicAddress& a) {
  const VariantInfo* v = find_variant(t.variant);
  const AtomicsKind kind = v ? v->atomics : AtomicsKind::None;
  const bool hist = kind == AtomicsKind::Histogram;
  const std::string i = "[" + std::to_string(a.address) + "]";
  if (a.space == Space::Shared) return (hist ? "local_hist" : "shared") + i;
  switch (a.buffer) {
    case 0: return "in" + i;
    case 1: return (hist ? "hist" : "dst") + i;
    // The accumulator: the kernels' own names (cs121 counter *d_a, filter nres; the reductions' sum or max).
    case 2:
      return kind == AtomicsKind::Counter  ? "*d_a"
             : kind == AtomicsKind::Filter ? "nres"
             : v && v->op == ReduceOp::Max ? "*global_max"
                                           : "*sum";
    case 3: return "status" + i;
    default: return "buffer " + std::to_string(a.buffer) + i;
  }
}

/// Bars of atomics per address; the longest chain in red.
void DrawBars(const AtomicsPicture& pic, float height) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const int bars = int(pic.bars.size());
  const float axis_w = th.px(46), label_h = ImGui::GetTextLineHeight() + th.px(4);
  const float plot_h = height - label_h;
  const float slot = (width - axis_w) / float(std::max(1, bars));
  const float bar_w = std::clamp(slot * 0.8f, th.px(2), th.px(60));
  const int top = std::max(1, pic.step.longest_chain);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%d", top);
  dl->AddText(ImVec2(o.x, o.y), ImGui::GetColorU32(p.text_dim), buf);
  dl->AddText(ImVec2(o.x, o.y + plot_h - ImGui::GetTextLineHeight()), ImGui::GetColorU32(p.text_dim), "0");
  dl->AddLine(ImVec2(o.x + axis_w - th.px(4), o.y + plot_h), ImVec2(o.x + width, o.y + plot_h),
              ImGui::GetColorU32(p.text_dim), th.px(1));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int hovered = -1;
  float last_label_end = -1e9f;
  // The longest chain's label is always drawn; others only where they collide with no label.
  float red_from = 1e9f, red_to = -1e9f;
  int first_longest = -1;
  for (int b = 0; b < bars; ++b)
    if (pic.bars[std::size_t(b)].longest) {
      first_longest = b;
      const float cx = o.x + axis_w + (float(b) + 0.5f) * slot;
      const float half = ImGui::CalcTextSize(pic.bars[std::size_t(b)].label.c_str()).x * 0.5f;
      red_from = cx - half;
      red_to = cx + half;
      break;
    }
  for (int b = 0; b < bars; ++b) {
    const AtomicBar& bar = pic.bars[std::size_t(b)];
    const float x = o.x + axis_w + float(b) * slot + (slot - bar_w) * 0.5f;
    const float h = std::max(th.px(2), plot_h * float(bar.address.ops) / float(top));
    const ImU32 c = ImGui::GetColorU32(bar.longest ? p.bad : p.accent);
    dl->AddRectFilled(ImVec2(x, o.y + plot_h - h), ImVec2(x + bar_w, o.y + plot_h), c, th.px(2));
    // Labels under the bars where they fit, always under the longest chain.
    const ImVec2 ts = ImGui::CalcTextSize(bar.label.c_str());
    const float lx = x + bar_w * 0.5f - ts.x * 0.5f;
    const bool clear = lx > last_label_end + th.px(6) && (lx > red_to + th.px(6) || lx + ts.x < red_from - th.px(6));
    if (clear || b == first_longest) {
      dl->AddText(ImVec2(lx, o.y + plot_h + th.px(2)), ImGui::GetColorU32(bar.longest ? p.bad : p.text_dim),
                  bar.label.c_str());
      last_label_end = lx + ts.x;
    }
    if (mouse.x >= o.x + axis_w + float(b) * slot && mouse.x < o.x + axis_w + float(b + 1) * slot && mouse.y >= o.y &&
        mouse.y < o.y + height)
      hovered = b;
  }
  ImGui::Dummy(ImVec2(width, height));
  if (hovered >= 0 && ImGui::IsItemHovered()) {
    const AtomicBar& bar = pic.bars[std::size_t(hovered)];
    ImGui::SetTooltip("%s (%s): %d atomic(s) in this step%s", bar.label.c_str(), to_string(bar.address.space),
                      bar.address.ops, bar.longest ? " - the longest serialized chain" : "");
  }
}

/// The bars as rows, one text line per address (the busiest `max_rows`), for views too short for the
/// chart: label, a bar as long as its share of the longest chain, the count.
void DrawBarsCompact(const AtomicsPicture& pic, int max_rows) {
  const std::size_t all = pic.step.addresses.size();
  const Theme& th = theme();
  const Palette& p = th.colors();
  std::vector<const AtomicBar*> rows;
  for (const AtomicBar& b : pic.bars) rows.push_back(&b);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const AtomicBar* a, const AtomicBar* b) { return a->address.ops > b->address.ops; });
  if (int(rows.size()) > max_rows) rows.resize(std::size_t(std::max(1, max_rows)));
  float label_w = 0;
  for (const AtomicBar* b : rows) label_w = std::max(label_w, ImGui::CalcTextSize(b->label.c_str()).x);
  const float bar_max = std::max(th.px(40), ImGui::GetContentRegionAvail().x * 0.35f);
  const int top = std::max(1, pic.step.longest_chain);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (const AtomicBar* b : rows) {
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    const ImU32 c = ImGui::GetColorU32(b->longest ? p.bad : p.accent);
    dl->AddText(ImVec2(o.x + label_w - ImGui::CalcTextSize(b->label.c_str()).x, o.y),
                ImGui::GetColorU32(b->longest ? p.bad : p.text), b->label.c_str());
    const float x0 = o.x + label_w + th.px(10), w = std::max(th.px(2), bar_max * float(b->address.ops) / float(top));
    dl->AddRectFilled(ImVec2(x0, o.y + h * 0.15f), ImVec2(x0 + w, o.y + h * 0.85f), c, th.px(2));
    std::string n = std::to_string(b->address.ops);
    if (b == rows.front() && rows.size() < all)  // say that the rest are left out, on the same line
      n += "   (the busiest " + std::to_string(rows.size()) + " of " + std::to_string(all) + " addresses)";
    dl->AddText(ImVec2(x0 + w + th.px(8), o.y), ImGui::GetColorU32(p.text), n.c_str());
    ImGui::Dummy(ImVec2(label_w + th.px(10) + bar_max + th.px(60), h));
  }
}

/// Lanes per warp: idle, working, or issuing an atomic (amber); the warp's atomics at the right.
void DrawWarps(const Trace& t, const AtomicsPicture& pic, float height) {
  const Theme& th = theme();
  const Palette& p = th.colors();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const int warps = int(pic.warps.size());
  const float label_w = ImGui::CalcTextSize("warp 31").x + th.px(10);
  const float note_w = ImGui::CalcTextSize("32 atomics, +1000000").x + th.px(16);
  // Up to 16 warps each row is at least a line of text high, so that its label and note fit (the
  // canvas scrolls if the view is shorter); more warps shrink to the space, labels every 4th row.
  // Where the rows do not fit (large fonts) they shrink to 0.7 of a line, their labels with them (down
  // to the 14 px x scale floor for text).
  const float text_h = ImGui::GetTextLineHeight();
  const float min_cell = warps <= 16 ? std::max(th.px(14), text_h * 0.7f) : th.px(4);
  const float cell = std::clamp(std::min((width - label_w - note_w) / 32.f, height / float(std::max(1, warps))),
                                min_cell, std::max(min_cell, th.px(30)));
  const ImU32 working = ImGui::GetColorU32(p.ok), atomic = ImGui::GetColorU32(p.lesson);
  for (int w = 0; w < warps; ++w) {
    const WarpAtomics& wa = pic.warps[std::size_t(w)];
    const float y = o.y + float(w) * cell;
    const float fs = std::clamp(cell, th.px(14), text_h);  // the labels' size: a row high, at most a line
    if (cell >= th.px(14) || w % 4 == 0) {
      const std::string l = "warp " + std::to_string(w);
      DrawText(dl, ImGui::GetFont(), fs, ImVec2(o.x, y + (cell - fs) * 0.5f), WarpColor(w), l.c_str());
    }
    const std::uint32_t exists = existing_lanes(t.block_size, w);
    for (int l = 0; l < 32; ++l) {
      const std::uint32_t bit = 1u << l;
      const ImU32 c = !(exists & bit)           ? theme().colors().atomics_missing
                      : (wa.atomic_lanes & bit) ? atomic
                      : (wa.working & bit)      ? working
                                                : theme().colors().atomics_idle;
      const float x = o.x + label_w + float(l) * cell;
      dl->AddRectFilled(ImVec2(x + 1, y + 1), ImVec2(x + cell - 1, y + cell - 1), c, th.px(2));
    }
    if (wa.ops > 0 && cell >= th.px(14)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%d atomic%s, %+.0f", wa.ops, wa.ops == 1 ? "" : "s", wa.added);
      DrawText(dl, ImGui::GetFont(), fs, ImVec2(o.x + label_w + 32 * cell + th.px(8), y + (cell - fs) * 0.5f),
               ImGui::GetColorU32(wa.ops == 1 ? p.lesson : p.text), buf);
    }
  }
  ImGui::Dummy(ImVec2(width, float(warps) * cell));
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (ImGui::IsItemHovered() && cell > 0) {
    const int w = int((m.y - o.y) / cell), l = int((m.x - o.x - label_w) / cell);
    if (w >= 0 && w < warps && l >= 0 && l < 32) {
      const WarpAtomics& wa = pic.warps[std::size_t(w)];
      const std::uint32_t bit = 1u << l;
      ImGui::SetTooltip("warp %d lane %d (thread %d): %s", w, l, w * 32 + l,
                        (wa.atomic_lanes & bit) ? "issues an atomic"
                        : (wa.working & bit)    ? "works, no atomic"
                                                : "idle");
    }
  }
}

}  // namespace

AtomicsPicture atomics_picture(const Trace& t, const Step& step, int max_bars) {
  AtomicsPicture pic;
  pic.step = atomic_stats(step);
  pic.trace = atomic_stats(t);
  std::vector<AtomicAddress> shown = pic.step.addresses;
  if (int(shown.size()) > max_bars) {  // keep the busiest, then show them in address order
    std::stable_sort(shown.begin(), shown.end(),
                     [](const AtomicAddress& a, const AtomicAddress& b) { return a.ops > b.ops; });
    pic.hidden_addresses = int(shown.size()) - max_bars;
    shown.resize(std::size_t(max_bars));
    std::stable_sort(shown.begin(), shown.end(), [](const AtomicAddress& a, const AtomicAddress& b) {
      return std::make_tuple(int(a.space), a.buffer, a.address) < std::make_tuple(int(b.space), b.buffer, b.address);
    });
  }
  for (const AtomicAddress& a : shown)
    pic.bars.push_back({address_label(t, a), a, a.ops == pic.step.longest_chain && a.ops > 1});  // red: contention
  const std::vector<std::uint32_t> masks = active_masks(t, step);
  pic.warps.resize(masks.size());
  for (std::size_t w = 0; w < masks.size(); ++w) {
    pic.warps[w].warp = int(w);
    pic.warps[w].working = masks[w];
  }
  for (const ThreadOp& op : step.ops) {
    if (op.kind != OpKind::Atomic || op.thread < 0 || op.thread >= t.block_size) continue;
    WarpAtomics& wa = pic.warps[std::size_t(op.thread / kWarpSize)];
    wa.atomic_lanes |= 1u << (op.thread % kWarpSize);
    ++wa.ops;
    wa.added += op.value;
  }
  return pic;
}

void AtomicsView::draw(const controller::ViewContext& ctx, controller::ViewActions& actions) {
  if (!TraceHeader(ctx, actions)) return;
  controller::TraceState& trace = actions.trace();  // the player's step, block and switches
  const Theme& th = theme();
  const Palette& p = th.colors();
  const Trace& tr = *trace.trace;
  const Step& step = tr.steps[std::size_t(trace.step)];
  const AtomicsPicture pic = atomics_picture(tr, step);

  ImGui::Spacing();
  if (pic.step.ops == 0) {
    TextWrappedColored(
        p.text_dim, std::string("no atomic operation in this step (") + to_string(step.phase) +
                        (step.label.empty() ? "" : ": " + step.label) + ")" +
                        (tr.racy_model ? ": the plain read-modify-write of the race has none, which is its bug" : ""));
  } else {
    LabelValue("atomics", std::to_string(pic.step.ops));
    ImGui::SameLine(0, th.px(30));
    LabelValue(pic.step.addresses.size() == 1 ? "address" : "addresses", std::to_string(pic.step.addresses.size()));
    ImGui::SameLine(0, th.px(30));
    LabelValue("longest serialized chain", std::to_string(pic.step.longest_chain));
    ItemTooltip("the most atomics on one address: the hardware applies them one after another");
    ImGui::SameLine(0, th.px(16));
    if (pic.step.longest_chain > 1)
      Badge("contention", p.bad);
    else
      Badge("no contention", p.ok);
  }
  const std::string whole = "whole traced block: " + std::to_string(pic.trace.ops) + " atomics on " +
                            std::to_string(pic.trace.addresses.size()) +
                            (pic.trace.addresses.size() == 1 ? " address" : " addresses") + ", longest chain " +
                            std::to_string(pic.trace.longest_chain);
  if (pic.step.ops > 0) SameLineIfFits(ImGui::CalcTextSize(whole.c_str()).x, th.px(30));
  TextDim(whole);

  ImGui::BeginChild("atomics_canvas", ImVec2(0, 0), false);
  const float avail = ImGui::GetContentRegionAvail().y;
  // Up to 16 warps the lanes' rows are a text line high each. When they and the bar chart do not fit
  // one above the other (large fonts), the bars become rows of their own, as many as fit.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float rows = float(std::min<std::size_t>(pic.warps.size(), 16)) * ImGui::GetTextLineHeight();
  const float lanes_h = rows + 3 * line;  // title, legend and the rows
  if (pic.step.ops > 0) {
    const bool compact = avail < lanes_h + 6 * line;
    SectionTitle("ATOMICS PER ADDRESS");
    if (compact) {
      DrawBarsCompact(pic, std::max(1, int((avail - lanes_h - 2 * line) / line)));
    } else {
      if (pic.hidden_addresses > 0)
        TextDim("the " + std::to_string(pic.bars.size()) + " busiest addresses of " +
                std::to_string(pic.step.addresses.size()));
      // The bars take what the lanes' rows and the titles leave.
      DrawBars(pic, std::clamp(std::min(avail * 0.36f, avail - lanes_h - 2 * line), 3 * line,
                               std::max(3 * line, th.px(320))));
    }
  }
  SectionTitle("LANES PER WARP");
  LegendSwatch(theme().colors().atomics_idle, "idle");
  LegendSwatch(ImGui::GetColorU32(p.ok), "works, no atomic");
  // Warp-aggregated atomics (one lane per warp issues for the warp's working lanes) say so.
  bool aggregated = false, per_lane = false;
  for (const auto& wa : pic.warps) {
    if (wa.ops == 0) continue;
    const bool one = (wa.atomic_lanes & (wa.atomic_lanes - 1)) == 0;
    (one && (wa.working & ~wa.atomic_lanes) ? aggregated : per_lane) = true;
  }
  LegendSwatch(ImGui::GetColorU32(p.lesson), aggregated && !per_lane
                                                 ? "issues an atomic for its warp (warp-aggregated: the leader)"
                                                 : "issues an atomic");
  ImGui::NewLine();
  DrawWarps(tr, pic, std::max(th.px(60), ImGui::GetContentRegionAvail().y - th.px(8)));
  ImGui::EndChild();
}

/// The Atomics tab.
/// Its tab stands at position 100 (all_views() sorts by it).
ViewInfo atomics_view_info() { return make_view_info<AtomicsView>(100, "atomics", "Atomics", kSteps); }

}  // namespace ws::ui
