#include "presenter.hpp"

#include <imgui.h>

#include <cctype>
#include <string>

#include "format.hpp"
#include "registry.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::AppState;
using controller::Presentation;
using controller::series_id;

std::string note_for_screen(const std::string& note) {
  // NNN_HEX.txt, then ", " or ": " (the seeds' file names: three digits, '_', hex digits, ".txt").
  std::size_t i = 0;
  while (i < note.size() && i < 3 && std::isdigit(static_cast<unsigned char>(note[i]))) ++i;
  if (i != 3 || i >= note.size() || note[i] != '_') return note;
  std::size_t j = i + 1;
  while (j < note.size() && std::isxdigit(static_cast<unsigned char>(note[j]))) ++j;
  if (j == i + 1 || note.compare(j, 4, ".txt") != 0) return note;
  j += 4;
  while (j < note.size() && (note[j] == ',' || note[j] == ':' || note[j] == ' ')) ++j;
  std::string rest = note.substr(j);
  if (!rest.empty()) rest[0] = char(std::toupper(static_cast<unsigned char>(rest[0])));
  return rest.empty() ? note : rest;
}

void DrawSceneLine(const AppState& s) {
  const Scene* sc = s.scene();
  if (!sc) return;
  const Theme& t = theme();
  ImGui::PushFont(t.fonts().bold);
  ImGui::PushStyleColor(ImGuiCol_Text, t.colors().accent);
  ImGui::TextUnformatted(
      ("Scene " + std::to_string(s.scene_index() + 1) + " / " + std::to_string(s.scene_count())).c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ItemTooltip("PageDown / PageUp: next / previous scene (what presenter clickers send); Left / Right: steps");
  ImGui::SameLine();
  TextWrappedColored(t.colors().text, scene_line_text(s));
  if (!s.scene_report_line.empty()) TextWrappedColored(t.colors().lesson, s.scene_report_line);
}

std::string scene_line_text(const AppState& s) {
  const Scene* sc = s.scene();
  if (!sc) return "";
  const VariantInfo* v = s.variant();
  if (!v || v->id == sc->variant) return note_for_screen(sc->note);
  // n / p moved on from the scene's variant: its note would describe the wrong code. Say what is shown.
  std::string narrative;
  if (const Lesson* l = s.lesson())
    for (const auto& st : l->steps)
      if (st.variant == v->id) narrative = st.narrative;
  return "(left the scene's " + series_id(sc->variant) + " for " + series_id(v->id) + ") " +
         (narrative.empty() ? v->title : narrative);
}

void DrawPresenterOverlay(AppState& s) {
  Presentation& pr = s.perf.present;
  const Theme& t = theme();
  const ImGuiIO& io = ImGui::GetIO();
  if (pr.pen) {
    // A transparent window over everything takes the mouse, so drawing never clicks a view.
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::Begin("##pen", nullptr, flags);
    ImGui::InvisibleButton("##canvas", io.DisplaySize);
    if (ImGui::IsItemActivated()) pr.strokes.emplace_back();
    if (ImGui::IsItemActive() && !pr.strokes.empty()) {
      std::vector<float>& st = pr.strokes.back();
      const ImVec2 m = io.MousePos;
      const float min_gap = t.px(2);
      if (st.size() < 2 ||
          (m.x - st[st.size() - 2]) * (m.x - st[st.size() - 2]) + (m.y - st.back()) * (m.y - st.back()) >
              min_gap * min_gap) {
        st.push_back(m.x);
        st.push_back(m.y);
      }
    }
    ImGui::End();
    ImGui::PopStyleVar();
  }
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float width = t.px(5);
  for (const auto& st : pr.strokes) {
    if (st.size() == 2) dl->AddCircleFilled(ImVec2(st[0], st[1]), width * 0.6f, t.colors().pen_ink);
    for (std::size_t i = 2; i + 1 < st.size(); i += 2)
      dl->AddLine(ImVec2(st[i - 2], st[i - 1]), ImVec2(st[i], st[i + 1]), t.colors().pen_ink, width);
  }
  if ((pr.pointer || pr.pen) && ImGui::IsMousePosValid()) {
    const ImVec2 m = io.MousePos;
    if (pr.pointer) {
      dl->AddCircleFilled(m, t.px(34), t.colors().pointer_fill, 48);
      dl->AddCircle(m, t.px(34), t.colors().pen_ink, 48, t.px(4));
    } else {
      dl->AddCircle(m, t.px(8), t.colors().pen_ink, 24, t.px(2));
    }
  }
}

}  // namespace ws::ui
