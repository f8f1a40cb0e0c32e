#include "help_overlay.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "registry.hpp"
#include "views/compare_model.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::AppState;
using controller::chosen_variants;
using controller::make_sweep_spec;
using controller::Message;
using controller::NavKey;
using controller::Presentation;
using controller::why_no_timing;

namespace {

void step_variant(AppState& s, int delta) {
  const Lesson* l = s.lesson();
  if (!l || l->steps.empty()) return;
  const int i = std::clamp(s.step_index() + delta, 0, int(l->steps.size()) - 1);
  s.select_variant(l->steps[std::size_t(i)].variant);
}

}  // namespace

const std::vector<KeyHelp>& key_help() {
  static const std::vector<KeyHelp> keys = {
      {"F1  or  ?", "show / hide this help"},
      {"1 ... 9,  0", "tabs: Results, Tree, Warps, Banks, Source, Memory, Metrics, Scan, Convolution; 0 Atomics"},
      {"PageDown  PageUp", "next / previous scene of the lesson (a presenter clicker sends these)"},
      {"c  /  g", "Compare / Plots (graphs) tab"},
      {"i  /  k  /  v",
       "Race timeline (interleaving) / scan Ladder (all steps) / Pair (two variants side by side, one step)"},
      {"x", "Grid tab: every warp of the launch by step (wheel zooms to one warp, a click opens that block)"},
      {"n  /  p", "next / previous variant of the lesson"},
      {"r  /  R", "run the selected variant / every variant of the lesson"},
      {"\u2190  \u2192",
       "previous / next step (Tree, Warps, Banks, Source, Memory, Scan, Atomics, Race, Ladder, Pair); no press is "
       "lost"},
      {"space", "play / pause the steps"},
      {"[  /  ]", "previous / next block of the trace (past the last: the trace takes one more block, up to 8)"},
      {"l  /  w", "Live on / off; sweep the compared variants (Plots; both need a GPU)"},
      {"Esc", "cancel the sweep; close this help"},
      {"+  /  -", "larger / smaller text (presentation: 1.5x to 2.5x)"},
      {"Ctrl+=  Ctrl+-  Ctrl+0",
       "zoom the tree, warp grid or scan graph in / out / to fit (also: wheel, drag, double click)"},
      {"h  /  f", "high-contrast colours on / off; focus: the views alone, full width (f again: the panels back)"},
      {"o", "pointer: a bright ring follows the mouse"},
      {"d  /  e", "pen on / off (drag to draw over the views) / erase the drawing (a new scene erases it too)"},
      {"b", "Compare: next correct baseline for the speedup column (racy and wrong ones skipped)"},
      {"m  /  a", "Compare: next metric for the bars; all variants / the lesson's"},
      {"t", "Plots: time or GB/s on the y axis"},
  };
  return keys;
}

void HandleGlobalKeys(AppState& s, const std::vector<std::string>& views) {
  ImGuiIO& io = ImGui::GetIO();
  Presentation& pr = s.perf.present;
  // F1 and Esc come from the window's queue of presses (AppState::nav_keys), like the scene keys: a tap
  // shorter than a frame (a clicker, a fast hand) still counts. ImGui's key state would miss it.
  auto& keys = s.nav_keys;
  for (auto it = keys.begin(); it != keys.end();) {
    if (*it == NavKey::Help) {
      pr.show_help = !pr.show_help;
    } else if (*it == NavKey::Escape) {
      if (pr.show_help)
        pr.show_help = false;
      else if (s.perf.sweeping)
        s.perf.sweep_cancel = true;
    } else {
      ++it;
      continue;
    }
    it = keys.erase(it);
  }
  if (io.WantTextInput) return;
  for (int i = 0; i < io.InputQueueCharacters.Size; ++i) {
    const ImWchar c = io.InputQueueCharacters[i];
    if (c == '?')
      pr.show_help = !pr.show_help;
    else if (c >= '1' && c <= '9' && int(c - '1') < int(views.size()))
      s.view = views[std::size_t(c - '1')];
    else if (c == '0' && views.size() > 9)
      s.view = views[9];  // the tenth tab (Atomics)
    else if (c == '[')
      s.trace.switch_block(-1, s.params.n());
    else if (c == ']')
      s.trace.switch_block(+1, s.params.n());
    else if (c == 'o')
      pr.pointer = !pr.pointer;
    else if (c == 'd')
      pr.pen = !pr.pen;
    else if (c == 'e')
      pr.strokes.clear();
    else if (c == 'c')
      s.view = "compare";
    else if (c == 'g')
      s.view = "plots";
    else if (c == 'i')
      s.view = "race";
    else if (c == 'k')
      s.view = "ladder";
    else if (c == 'v')
      s.view = "pair";
    else if (c == 'x')
      s.view = "grid";
    else if (c == 'n')
      step_variant(s, +1);
    else if (c == 'p')
      step_variant(s, -1);
    else if (c == 'r')
      s.request_run();
    else if (c == 'R')
      s.request_run_lesson();
    else if (c == 'l' && why_no_timing(s).empty()) {
      s.perf.live_wanted = !s.perf.live_wanted;
      if (s.perf.live_wanted) s.perf.live_variants = chosen_variants(s);
    } else if (c == 'w' && why_no_timing(s).empty() && !s.perf.sweeping) {
      SweepSpec spec = make_sweep_spec(s, chosen_variants(s));
      if (validate_sweep(spec).empty()) s.perf.sweep_to_start = spec;
    } else if (c == '+' || c == '=')
      pr.font_scale_request = std::min(2.5f, theme().scale() + 0.25f);
    else if (c == '-')
      pr.font_scale_request = std::max(1.f, theme().scale() - 0.25f);
    else if (c == 'h')
      pr.high_contrast = !pr.high_contrast;
    else if (c == 'f')
      pr.focus = !pr.focus;
    else if (c == 'm')
      s.perf.bar_metric = (s.perf.bar_metric + 1) % int(CompareMetric::Count);
    else if (c == 't')
      s.perf.plot_time = !s.perf.plot_time;
    else if (c == 'a') {
      if (s.perf.picked.empty()) {
        for (const auto& v : all_variants()) s.perf.picked.insert(v.id);
      } else {
        s.perf.picked.clear();
      }
    } else if (c == 'b') {
      // A racy variant or a slide's bug never becomes the baseline silently: b skips them and says so.
      std::vector<std::string> skipped;
      s.perf.baseline = next_baseline(s.shown(), chosen_variants(s), s.perf.baseline, skipped);
      if (!skipped.empty()) {
        std::string list;
        for (const auto& id : skipped) list += (list.empty() ? "" : ", ") + id;
        s.message(Message::Info, "baseline " + (s.perf.baseline.empty() ? std::string("unchanged") : s.perf.baseline) +
                                     ": b skipped " + list +
                                     " (racy, a slide's bug, or a wrong result); pick one in Compare's baseline list "
                                     "to use it anyway");
      }
    }
  }
}

void DrawHelpOverlay(AppState& s) {
  Presentation& pr = s.perf.present;
  if (!pr.show_help) return;
  const Theme& t = theme();
  const ImGuiIO& io = ImGui::GetIO();
  // The window never leaves the screen: at most the display less a margin; the descriptions wrap inside
  // it, and when the rows still do not fit the text shrinks (not below the smallest readable size) until
  // they do. The scale found is kept for the next frame (the rows' height is known once drawn).
  static float text_k = 1.f;
  const ImVec2 margin = t.px(16, 16);
  const ImVec2 size(std::min(io.DisplaySize.x - 2 * margin.x, t.px(1400)), io.DisplaySize.y - 2 * margin.y);
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(size, ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(1.f);
  ImGui::SetNextWindowFocus();  // above the main window, whatever was clicked last
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, t.px(20, 8));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, t.px(2));
  if (ImGui::Begin("Keys  (F1 or ? closes)", &pr.show_help, flags)) {
    ImGui::SetWindowFontScale(text_k);
    const float top = ImGui::GetCursorPosY();
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, t.px(6, 2));
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, t.px(8, 2));
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
      for (const auto& k : key_help()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::PushFont(t.fonts().mono);
        ImGui::PushStyleColor(ImGuiCol_Text, t.colors().accent);
        ImGui::TextUnformatted(k.keys);
        ImGui::PopStyleColor();
        ImGui::PopFont();
        ImGui::TableSetColumnIndex(1);
        ImGui::TextWrapped("%s", k.what);
      }
      ImGui::EndTable();
    }
    ImGui::PopStyleVar(2);
    ImGui::Spacing();
    TextDim("Text scale " + std::to_string(int(t.scale() * 100 + 0.5f)) + " %   \u00b7   " +
                (HighContrast() ? "high contrast on" : "high contrast off") +
                "   \u00b7   start with --font-scale 2 --high-contrast --focus for a lecture hall",
            true);
    // Fit the rows to the window's height for the next frame: shrink when they overflow, grow back when
    // there is room, between the smallest readable text and the body size.
    const float used = ImGui::GetCursorPosY() - top, room = ImGui::GetWindowHeight() - top - t.px(16);
    if (used > room && text_k > kMinTextFraction)
      text_k = std::max(kMinTextFraction, text_k * room / used * 0.98f);
    else if (used < room * 0.85f && text_k < 1.f)
      text_k = std::min(1.f, text_k * std::sqrt(room / used));
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
}

}  // namespace ws::ui
