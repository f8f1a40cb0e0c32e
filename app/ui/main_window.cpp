#include "main_window.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiTabBar: 1.86 has no public call to end a tab bar's scroll animation
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

#include "help_overlay.hpp"
#include "presenter.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::AppState;
using controller::export_path;
using controller::Message;
using controller::NavKey;

MainWindow::MainWindow() {
  for (const ViewInfo& v : all_views()) views_.push_back(v.make());
}

const std::vector<std::string>& MainWindow::views() { return view_ids(); }

void MainWindow::draw(AppState& s, ImVec2 size) {
  if (s.perf.present.high_contrast != HighContrast()) SetHighContrast(s.perf.present.high_contrast);
  HandleGlobalKeys(s, views());
  // Every press queued since the last frame, in order: a scene key opens its scene (and view) at once,
  // so arrows pressed after it in the same frame step that scene's trace.
  std::vector<NavKey> keys;
  keys.swap(s.nav_keys);
  if (!ImGui::GetIO().WantTextInput) {
    std::vector<NavKey> arrows;
    auto flush = [&](bool with_space) {
      const ViewInfo* open = find_view(s.view);
      if (open && open->keys) {  // its own steps (All-reduce: the schedule's)
        controller::ViewActions act(s);
        open->keys(act, arrows, with_space);
      }  // its own steps (All-reduce: the schedule's)
      if (!open || !open->steps) return arrows.clear();
      s.refresh_trace();
      HandleStepKeys(s.trace, arrows, with_space);
      arrows.clear();
    };
    for (NavKey k : keys) {
      if (k == NavKey::PageDown || k == NavKey::PageUp) {
        flush(false);
        s.move_scene(k == NavKey::PageDown ? +1 : -1, views());
      } else {
        arrows.push_back(k);
      }
    }
    flush(true);
  }
  // A PNG asked for (a view's button, --export-view) or a step export (the button, --export-steps) is of
  // the open view alone, as a handout picture: the frames until it is saved draw that, the first one to
  // let the view's children settle to the layout (a step export saves from the frame after its request).
  const bool png_frame = !s.perf.png_request.empty();
  const bool steps_frame = s.perf.steps_busy || !s.perf.steps_request.empty();
  const bool handout = s.perf.present.handout || png_frame || steps_frame;
  s.perf.png_ready = png_frame && handout_frames_ > 0;
  handout_frames_ = handout ? handout_frames_ + 1 : 0;
  SetHandout(handout);
  if (handout) return draw_handout(s, size);
  const Theme& t = theme();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(size);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("warpscope##main", nullptr, flags);
  const bool focus = s.perf.present.focus;  // presentation: the views alone, full width
  // Focus mode gives the report and status bars' lines to the views; the one-line narrative of the
  // selected variant stays on top (what to look for), the full text on hover.
  if (!focus) draw_report_bar(s);
  draw_message(s);
  if (focus) draw_narrative(s);

  const float status_h = focus ? 0.f : StatusBar::height();
  const float body_h = ImGui::GetContentRegionAvail().y - (focus ? 0.f : status_h + ImGui::GetStyle().ItemSpacing.y);
  const float left_w = std::clamp(size.x * 0.27f, t.px(340), t.px(600));

  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, t.px(10, 8));
  if (!focus) {
    ImGui::BeginChild("browser", ImVec2(left_w, body_h), true);
    browser_.draw(s);
    ImGui::EndChild();
    ImGui::SameLine();
  }
  ImGui::BeginChild("centre", ImVec2(0, body_h), true);
  {
    const ImVec2 p = ImGui::GetWindowPos(), sz = ImGui::GetWindowSize();  // what PNG export saves
    s.perf.png_rect[0] = p.x, s.perf.png_rect[1] = p.y, s.perf.png_rect[2] = sz.x, s.perf.png_rect[3] = sz.y;
  }
  if (!focus) {
    parameters_.draw(s);
    ImGui::Spacing();
  }
  DrawSceneLine(s);
  draw_views(s);
  ImGui::EndChild();
  ImGui::PopStyleVar();

  if (!focus) {
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(t.px(10), ImGui::GetStyle().WindowPadding.y * 0.5f));
    ImGui::BeginChild("status", ImVec2(0, status_h), false, ImGuiWindowFlags_NoScrollbar);
    status_.draw(s);
    ImGui::EndChild();
    ImGui::PopStyleVar();
  }
  ImGui::End();
  DrawHelpOverlay(s);
  DrawPresenterOverlay(s);
}

void MainWindow::draw_report_bar(AppState& s) {
  const Theme& t = theme();
  ImGui::PushFont(t.fonts().heading);
  ImGui::PushStyleColor(ImGuiCol_Text, t.colors().accent);
  ImGui::TextUnformatted("warpscope");
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::SameLine(0, t.px(28));
  ImGui::AlignTextToFramePadding();
  TextDim("Report file");
  ImGui::SameLine();
  const float buttons = ImGui::CalcTextSize("Open").x + ImGui::CalcTextSize("Save session").x +
                        4 * ImGui::GetStyle().FramePadding.x + 2 * ImGui::GetStyle().ItemSpacing.x;
  ImGui::SetNextItemWidth(std::min(t.px(640), ImGui::GetContentRegionAvail().x - buttons));
  const bool enter = ImGui::InputTextWithHint("##report_path", "path/to/report.json", &s.report_path,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  ItemTooltip("a warpscope report (JSON, written by warpscope-cli or Save session); Enter or Open replays it");
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) {
    if (std::string err = s.open_report(s.report_path); !err.empty())
      s.message(Message::Error, err);
    else
      s.message(Message::Info,
                "opened " + s.report_path + " (replay: " + std::to_string(s.replay->runs.size()) + " runs)");
  }
  ImGui::SameLine();
  if (ImGui::Button("Save session")) {
    // The web page: to the browser's downloads (the page's file system is gone when the tab closes).
    const bool download = s.perf.exports_are_downloads;
    const std::string path = download ? export_path(s.perf, "warpscope-session.json") : s.report_path;
    if (std::string err = s.save_session(path); !err.empty())
      s.message(Message::Error, err);
    else
      s.message(Message::Info,
                "saved " + std::to_string(s.session.runs.size()) + " runs to " +
                    (download ? "your downloads as " + std::filesystem::path(path).filename().string() : path));
  }
  ItemTooltip(s.perf.exports_are_downloads ? "downloads this session's runs as a report"
                                           : "writes this session's runs to the path in the field");
}

void MainWindow::draw_narrative(AppState& s) {
  const Theme& t = theme();
  const VariantInfo* v = s.variant();
  if (!v) return;
  const LessonStep* ls = s.step();
  std::string head = v->id;
  if (const Step* st = s.trace.current(); st && !st->label.empty()) head += "  \u00b7  " + st->label;
  ImGui::PushFont(t.fonts().bold);
  ImGui::PushStyleColor(ImGuiCol_Text, t.colors().accent);
  ImGui::TextUnformatted(head.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  const std::string text = ls ? ls->narrative : v->description;
  if (text.empty()) return;
  ImGui::SameLine(0, t.px(16));
  TextEllipsis(text, ImGui::GetContentRegionAvail().x);
  ItemTooltip(text);
}

void MainWindow::draw_message(AppState& s) {
  if (s.messages.size() <= dismissed_) return;
  const Theme& t = theme();
  const Message& m = s.messages.back();
  const ImVec4 color = m.level == Message::Error     ? t.colors().bad
                       : m.level == Message::Warning ? t.colors().lesson
                                                     : t.colors().accent;
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(color.x, color.y, color.z, 0.25f));
  if (ImGui::SmallButton("\u00d7 dismiss")) dismissed_ = s.messages.size();
  ImGui::PopStyleColor();
  ImGui::SameLine();
  TextWrappedColored(color, m.text);
}

bool MainWindow::draw_view(AppState& s, const std::string& name) {
  const std::vector<ViewInfo>& views = all_views();
  for (std::size_t i = 0; i < views.size(); ++i) {
    if (views[i].id != name) continue;
    // The step-through views share one trace and one step index; the keys step whichever is open.
    if (views[i].steps) s.refresh_trace();
    views_[i]->draw(s);
    return true;
  }
  return false;
}

ViewPanel* MainWindow::panel(const std::string& id) {
  const std::vector<ViewInfo>& views = all_views();
  for (std::size_t i = 0; i < views.size() && i < views_.size(); ++i)
    if (views[i].id == id) return views_[i].get();
  return nullptr;
}

bool MainWindow::is_step_view(const std::string& name) {
  const ViewInfo* v = find_view(name);
  return v && v->steps;
}

void MainWindow::draw_handout(AppState& s, ImVec2 size) {
  const Theme& t = theme();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(size);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, t.px(10, 8));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.f);
  ImGui::Begin("warpscope##handout", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  s.perf.png_rect[0] = 0, s.perf.png_rect[1] = 0, s.perf.png_rect[2] = size.x, s.perf.png_rect[3] = size.y;
  LayoutProbe& probe = layout_probe();
  probe.reset(s.view);
  const ImVec2 a = ImGui::GetCursorScreenPos();
  probe.region = ProbeRect{a.x, a.y, size.x - t.px(10), size.y - t.px(8)};
  probe.text(ImGui::GetFontSize());
  draw_view(s, s.view);
  applied_view_.clear();  // the tab bar opens the view again when the window is drawn whole
  ImGui::End();
  ImGui::PopStyleVar(2);
}

void MainWindow::draw_views(AppState& s) {
  // Labels at full length: at large text scales the tab row is drawn smaller (down to 0.7 of the
  // body text) rather than cut to "R...", and scrolls sideways if even that is too wide.
  const std::vector<ViewInfo>& views = all_views();
  const ImGuiStyle& st = ImGui::GetStyle();
  float text = 0, frame = 0;  // the labels' text and the tabs' padding, which the font scale leaves alone
  for (const ViewInfo& v : views)
    text += ImGui::CalcTextSize(v.label.c_str()).x, frame += 2 * st.FramePadding.x + st.ItemInnerSpacing.x;
  const float tab_scale =
      std::clamp((ImGui::GetContentRegionAvail().x - frame - st.FramePadding.x) / text, kMinTextFraction, 1.f);
  if (!ImGui::BeginTabBar("views", ImGuiTabBarFlags_FittingPolicyScroll)) return;
  // A tab opened by a key or a scene scrolls fully into view at once, not over a dozen frames (a
  // screenshot three frames in, or a lecturer's click, would show its first letter at the edge).
  if (ImGuiTabBar* bar = ImGui::GetCurrentContext()->CurrentTabBar) bar->ScrollingAnim = bar->ScrollingTarget;
  const bool force = applied_view_ != s.view;
  LayoutProbe& probe = layout_probe();
  auto tab = [&](const char* label, const char* name) {
    const ImGuiTabItemFlags f = force && s.view == name ? ImGuiTabItemFlags_SetSelected : 0;
    ImGui::SetWindowFontScale(tab_scale);
    const bool open = ImGui::BeginTabItem(label, nullptr, f);
    const ImVec2 tab_min = ImGui::GetItemRectMin(), tab_max = ImGui::GetItemRectMax();
    const float tab_px = ImGui::GetFontSize();
    ImGui::SetWindowFontScale(1.f);
    if (open && !force) s.view = name;
    if (open) {
      // What the view may show without scrolling: from here to the bottom right of the centre panel.
      const ImVec2 a = ImGui::GetCursorScreenPos();
      const ImVec2 clip = ImGui::GetWindowDrawList()->GetClipRectMax();
      const ImVec2 b(std::min(clip.x, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x),
                     std::min(clip.y, ImGui::GetWindowPos().y + ImGui::GetWindowContentRegionMax().y));
      probe.reset(name);
      probe.region = ProbeRect{a.x, a.y, b.x, b.y};
      probe.text(tab_px);
      probe.text(ImGui::GetFontSize());
      if (const ImGuiTabBar* bar =
              ImGui::GetCurrentContext()->CurrentTabBar)  // the open tab's label whole, not scrolled to a letter
        probe.counts["open tab fully shown"] =
            tab_min.x >= bar->BarRect.Min.x - 0.5f && tab_max.x <= bar->BarRect.Max.x + 0.5f;
    }
    return open;
  };
  for (const ViewInfo& v : views)
    if (tab(v.label.c_str(), v.id.c_str())) {
      draw_view(s, v.id);
      ImGui::EndTabItem();
    }
  applied_view_ = s.view;
  ImGui::EndTabBar();
}

}  // namespace ws::ui
