#include "widgets/widgets.hpp"

#include <cctype>
#include <vector>

#include "widgets/theme.hpp"

namespace ws::ui {

namespace {
bool g_handout = false;
}  // namespace

void SetHandout(bool on) { g_handout = on; }
bool Handout() { return g_handout; }

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
  const ImU32 fill = Legible(ImGui::GetColorU32(color));  // its label at 7:1 or more
  dl->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y), fill, t.px(4));
  dl->AddText(ImVec2(pos.x + pad.x, pos.y + pad.y), TextOn(fill), label);
  ImGui::Dummy(ImVec2(size.x, line_h));
}

bool TextEllipsis(const std::string& text, float max_width, const ImVec4* color) {
  std::string shown = text;
  bool cut = false;
  if (ImGui::CalcTextSize(text.c_str()).x > max_width) {
    cut = true;
    const char* ellipsis = "\u2026";
    const float budget = max_width - ImGui::CalcTextSize(ellipsis).x;
    // Longest prefix that fits (UTF-8 safe: never cut inside a multi-byte sequence).
    std::size_t lo = 0, hi = text.size();
    while (lo < hi) {
      std::size_t mid = (lo + hi + 1) / 2;
      while (mid < text.size() && (static_cast<unsigned char>(text[mid]) & 0xC0) == 0x80) --mid;
      if (mid <= lo) {
        hi = lo;
        break;
      }
      if (ImGui::CalcTextSize(text.c_str(), text.c_str() + mid).x <= budget)
        lo = mid;
      else
        hi = mid - 1;
    }
    while (lo > 0 && text[lo - 1] == ' ') --lo;
    shown = text.substr(0, lo) + ellipsis;
  }
  if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
  ImGui::TextUnformatted(shown.c_str());
  if (color) ImGui::PopStyleColor();
  return cut;
}

namespace {

struct RichToken {
  std::string text;
  bool code = false;
  bool line_break = false;
};

/// Words and code spans (kept whole) of one paragraph line; "\n" becomes a line break token.
std::vector<RichToken> tokenize(const std::string& text) {
  std::vector<RichToken> out;
  std::string word;
  bool code = false;
  auto flush = [&] {
    if (!word.empty()) out.push_back({word, code, false});
    word.clear();
  };
  for (char ch : text) {
    if (ch == '`') {
      flush();
      code = !code;
    } else if (ch == '\n') {
      flush();
      out.push_back({"", false, true});
    } else if (ch == ' ' && !code) {
      flush();
    } else {
      word += ch;
    }
  }
  flush();
  return out;
}

}  // namespace

void TextRich(const std::string& text, const ImVec4* color) {
  const Theme& t = theme();
  if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
  const float right = ImGui::GetWindowPos().x + ImGui::GetContentRegionMax().x;
  const float space = ImGui::CalcTextSize(" ").x;
  const ImVec2 code_pad = t.px(2, 0);
  bool line_start = true;
  float x_end = 0;
  // Lines of tokens sit as close as the lines of wrapped text do.
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
  for (const RichToken& tok : tokenize(text)) {
    if (tok.line_break) {
      if (!line_start)
        line_start = true;  // the last token already ended its line
      else
        ImGui::Dummy(ImVec2(0, ImGui::GetTextLineHeight() * 0.4f));
      continue;
    }
    if (tok.code) ImGui::PushFont(t.fonts().mono);
    const float w = ImGui::CalcTextSize(tok.text.c_str()).x + (tok.code ? 2 * code_pad.x : 0);
    if (!line_start && x_end + space + w <= right) ImGui::SameLine(0, space);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    if (tok.code) {
      const float h = ImGui::GetTextLineHeight();
      ImGui::GetWindowDrawList()->AddRectFilled(pos, ImVec2(pos.x + w, pos.y + h),
                                                ImGui::GetColorU32(t.colors().hover_wash), t.px(3));
      ImGui::SetCursorScreenPos(ImVec2(pos.x + code_pad.x, pos.y));
    }
    // A single word wider than the line wraps inside itself rather than running off the panel.
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextUnformatted(tok.text.c_str());
    ImGui::PopTextWrapPos();
    x_end = ImGui::GetItemRectMax().x + (tok.code ? code_pad.x : 0);
    if (tok.code) ImGui::PopFont();
    line_start = false;
  }
  ImGui::PopStyleVar();
  ImGui::Dummy(ImVec2(0, 0));  // restores the usual gap below the paragraph
  if (color) ImGui::PopStyleColor();
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

void WrapUnlessFits(float width) {
  const float line_start = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMin().x - ImGui::GetScrollX();
  if (ImGui::GetCursorScreenPos().x > line_start + 1.f && width > ImGui::GetContentRegionAvail().x) ImGui::NewLine();
}

void LegendSwatch(ImU32 color, const char* label) {
  const Theme& th = theme();
  const float sz = ImGui::GetFontSize() * 0.8f;
  WrapUnlessFits(sz + th.px(6) + ImGui::CalcTextSize(label).x);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float dy = (ImGui::GetTextLineHeight() - sz) * 0.5f;
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + dy), ImVec2(p.x + sz, p.y + dy + sz), color, th.px(2));
  ImGui::Dummy(ImVec2(sz, ImGui::GetTextLineHeight()));
  ImGui::SameLine(0, th.px(6));
  ImGui::TextUnformatted(label);
  ImGui::SameLine(0, th.px(22));
}

}  // namespace ws::ui

namespace ws::ui {

void SameLineIfFits(float next_width, float spacing) {
  const float gap = spacing >= 0 ? spacing : ImGui::GetStyle().ItemSpacing.x;
  const float end = ImGui::GetItemRectMax().x + gap + next_width;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (end <= right) ImGui::SameLine(0, spacing);
}

float ButtonWidth(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}

}  // namespace ws::ui
