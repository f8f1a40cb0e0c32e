#include "widgets.hpp"

#include <cctype>

#include "theme.hpp"

namespace ws::ui {

void TextRight(const std::string& text) {
  const float w = ImGui::CalcTextSize(text.c_str()).x;
  const float avail = ImGui::GetContentRegionAvail().x;
  if (avail > w) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - w);
  ImGui::TextUnformatted(text.c_str());
}

void TextWrappedColored(const ImVec4& color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

void TextDim(const std::string& text, bool wrap) {
  ImGui::PushStyleColor(ImGuiCol_Text, theme().colors().text_dim);
  if (wrap) ImGui::PushTextWrapPos(0.f);
  ImGui::TextUnformatted(text.c_str());
  if (wrap) ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

void SectionTitle(const char* title) {
  std::string caps(title);
  for (char& ch : caps) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  ImGui::PushFont(theme().fonts().bold);
  ImGui::PushStyleColor(ImGuiCol_Text, theme().colors().text_dim);
  ImGui::TextUnformatted(caps.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::Separator();
}

float BadgeWidth(const char* label) {
  return ImGui::CalcTextSize(label).x + 2 * theme().px(6) + ImGui::GetStyle().ItemSpacing.x;
}

void Badge(const char* label, const ImVec4& color) {
  const Theme& t = theme();
  const ImVec2 text = ImGui::CalcTextSize(label);
  const ImVec2 pad = t.px(6, 1);
  const ImVec2 size(text.x + 2 * pad.x, text.y + 2 * pad.y);
  // Centre the badge on the line so it sits level with text and frames alike.
  const float line_h = ImGui::GetFrameHeight();
  ImVec2 pos = ImGui::GetCursorScreenPos();
  pos.y += (line_h - size.y) * 0.5f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y), ImGui::GetColorU32(color), t.px(4));
  dl->AddText(ImVec2(pos.x + pad.x, pos.y + pad.y), ImGui::GetColorU32(t.colors().badge_text), label);
  ImGui::Dummy(ImVec2(size.x, line_h));
}

void ItemTooltip(const std::string& text) {
  if (text.empty() || !ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void LabelValue(const char* label, const std::string& value) {
  TextDim(label);
  ImGui::SameLine();
  ImGui::TextUnformatted(value.c_str());
}

}  // namespace ws::ui
