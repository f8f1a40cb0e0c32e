#include "lesson_browser.hpp"

#include <algorithm>

#include "format.hpp"
#include "registry.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::AppState;
using controller::short_id;

namespace {

struct BadgeSpec {
  const char* label;
  ImVec4 color;
};

std::vector<BadgeSpec> badges_of(const VariantInfo& v) {
  const Palette& p = theme().colors();
  std::vector<BadgeSpec> out;
  if (v.racy) out.push_back({"racy", p.lesson});
  if (v.cautionary) out.push_back({"slide bug", p.lesson});
  if (v.baseline) out.push_back({"baseline", p.baseline});
  if (v.cpu_only) out.push_back({"CPU", p.cpu});
  return out;
}

void draw_badges(const std::vector<BadgeSpec>& badges) {
  for (std::size_t i = 0; i < badges.size(); ++i) {
    if (i) ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 0.6f);
    Badge(badges[i].label, badges[i].color);
  }
}

float badges_width(const std::vector<BadgeSpec>& badges) {
  float w = 0;
  for (const auto& b : badges) w += BadgeWidth(b.label);
  return w;
}

}  // namespace

std::string describe_rules(const VariantInfo& v) {
  if (v.cpu_only) return "runs on the host CPU: no block or grid";
  const LaunchRules& r = v.rules;
  std::string s;
  if (r.fixed_block) {
    s = "block of exactly " + std::to_string(r.fixed_block) + " threads";
  } else {
    s = "block " + std::to_string(r.min_block) + ".." + std::to_string(r.max_block);
    if (r.pow2_block)
      s += ", a power of two";
    else if (r.warp_multiple)
      s += ", a multiple of 32";
    s += " (default " + std::to_string(r.default_block) + ")";
  }
  if (r.items_per_thread > 1) s += "; " + std::to_string(r.items_per_thread) + " items per thread";
  if (r.grid_stride) {
    s += "; grid-stride loop: any grid";
    if (r.max_grid) s += " up to " + std::to_string(r.max_grid) + " blocks";
  } else {
    s += "; grid = ceil(n / " + std::string(r.items_per_thread > 1 ? "(block \u00d7 items)" : "block") + ")";
  }
  if (r.int_only) s += "; int32 only";
  return s;
}

void LessonBrowser::draw(AppState& s) {
  const Theme& t = theme();
  SectionTitle("Lessons");
  // The list takes what it needs up to about half the panel; the story below gets the rest.
  int rows = int(s.lessons().size());
  if (const Lesson* l = s.lesson()) rows += int(l->steps.size()) + 1;
  const float row_h = ImGui::GetFrameHeightWithSpacing();
  const float avail = ImGui::GetContentRegionAvail().y;
  const float list_h = std::min(rows * row_h + ImGui::GetStyle().WindowPadding.y, avail * 0.5f);
  ImGui::BeginChild("lesson_list", ImVec2(0, list_h), false);
  draw_list(s);
  ImGui::EndChild();
  ImGui::Dummy(t.px(0, 2));
  SectionTitle("Selected variant");
  ImGui::BeginChild("variant_details", ImVec2(0, 0), false);
  draw_details(s);
  ImGui::EndChild();
}

void LessonBrowser::draw_list(AppState& s) {
  const Theme& t = theme();
  const auto& lessons = s.lessons();
  if (lessons.empty()) {
    TextDim("No lessons found (assets/lessons).", true);
    return;
  }
  for (int i = 0; i < int(lessons.size()); ++i) {
    const Lesson& l = lessons[i].lesson;
    const bool open = i == s.lesson_index();
    ImGui::PushID(i);
    ImGui::PushFont(open ? t.fonts().bold : t.fonts().regular);
    // The open lesson's title may wrap (it names the lesson on the projector); closed ones are cut.
    const std::string arrow = open ? "\u25BE " : "\u25B8 ";
    const float wrap_w = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(arrow.c_str()).x;
    const float title_h =
        open ? ImGui::CalcTextSize(l.title.c_str(), nullptr, false, wrap_w).y : ImGui::GetTextLineHeight();
    const ImVec2 start = ImGui::GetCursorPos();
    if (ImGui::Selectable("##lesson", false, ImGuiSelectableFlags_AllowItemOverlap, ImVec2(0, title_h)) && !open)
      s.select_lesson(i);
    const bool hovered = ImGui::IsItemHovered();
    ImGui::SetCursorPos(start);
    ImGui::TextUnformatted(arrow.c_str());
    ImGui::SameLine(0, 0);
    if (open) {
      ImGui::PushTextWrapPos(0.f);
      ImGui::TextUnformatted(l.title.c_str());
      ImGui::PopTextWrapPos();
    } else {
      TextEllipsis(l.title, wrap_w);
    }
    ImGui::PopFont();
    if (hovered) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.f);
      ImGui::TextUnformatted((l.summary.empty() ? l.title : l.title + "\n\n" + l.summary).c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    if (open) {
      ImGui::Indent(t.px(22));
      const std::string meta = lecture_citation(l);
      ImGui::PushFont(t.fonts().regular);
      if (!meta.empty()) TextDim(meta, true);
      for (int j = 0; j < int(l.steps.size()); ++j) {
        const VariantInfo* v = find_variant(l.steps[j].variant);
        if (!v) continue;
        ImGui::PushID(j);
        const bool selected = s.variant() == v;
        const float x0 = ImGui::GetCursorPosX();
        if (ImGui::Selectable("##step", selected, ImGuiSelectableFlags_AllowItemOverlap,
                              ImVec2(0, ImGui::GetFrameHeight()))) {
          s.select_variant(v->id);
          if (const auto& c = l.steps[j].collective) {  // "Reduction across GPUs": its picture in All-reduce
            s.view = "allreduce";
            s.allreduce.algorithm = c->algorithm();
            s.allreduce.gpus = c->gpus;
            s.allreduce.step = 0;
            s.allreduce.playing = false;
          }
        }
        if (selected && scrolled_to_ != v->id) {
          ImGui::SetScrollHereY(0.5f);
          scrolled_to_ = v->id;
        }
        ItemTooltip(v->title + "\n\n" + v->description);
        // Number, short id and title over the selectable; badges right-aligned.
        const auto badges = badges_of(*v);
        const float right = ImGui::GetWindowContentRegionMax().x;
        const float badge_w = badges_width(badges);
        ImGui::SameLine(x0);
        ImGui::AlignTextToFramePadding();
        TextDim(std::to_string(j + 1) + ".");
        ImGui::SameLine(x0 + ImGui::CalcTextSize("00.").x + ImGui::GetStyle().ItemSpacing.x);
        ImGui::PushFont(t.fonts().mono);
        // A collective step: the one-device reduction and how the GPUs combine ("device_reduce + ring x4").
        const auto& c = l.steps[j].collective;
        ImGui::TextUnformatted((short_id(v->id) + (c ? std::string(" + ") + collective::to_string(c->method) + " x" +
                                                           std::to_string(c->gpus)
                                                     : std::string()))
                                   .c_str());
        ImGui::PopFont();
        ImGui::SameLine();
        const float title_w = right - badge_w - ImGui::GetCursorPosX() - ImGui::GetStyle().ItemSpacing.x;
        if (title_w > t.px(40)) TextEllipsis(v->title, title_w, &t.colors().text_dim);
        if (!badges.empty()) {
          ImGui::SameLine(std::max(ImGui::GetCursorPosX(), right - badge_w));
          draw_badges(badges);
        }
        ImGui::PopID();
      }
      ImGui::PopFont();
      ImGui::Unindent(t.px(22));
    }
    ImGui::PopID();
  }
}

void LessonBrowser::draw_details(const AppState& s) {
  const Theme& t = theme();
  const Palette& p = t.colors();
  const VariantInfo* v = s.variant();
  if (!v) {
    TextDim("Pick a variant in the list above.", true);
    return;
  }
  ImGui::PushFont(t.fonts().heading);
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextUnformatted(v->title.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  ImGui::PushFont(t.fonts().mono);
  TextDim(v->id);
  ImGui::PopFont();
  if (auto badges = badges_of(*v); !badges.empty()) {
    ImGui::SameLine();
    draw_badges(badges);
  }
  ImGui::Spacing();

  const LessonStep* step = s.step();
  if (step && !step->narrative.empty()) {
    ImGui::PushFont(t.fonts().bold);
    ImGui::TextUnformatted("What to look for");
    ImGui::PopFont();
    TextRich(step->narrative);
    ImGui::Spacing();
  }
  if (!v->description.empty()) {
    ImGui::PushFont(t.fonts().bold);
    ImGui::TextUnformatted("What it does");
    ImGui::PopFont();
    TextRich(v->description, &p.text_dim);
    ImGui::Spacing();
  }
  if (!v->caution.empty()) {
    ImGui::PushFont(t.fonts().bold);
    ImGui::PushStyleColor(ImGuiCol_Text, p.lesson);
    ImGui::TextUnformatted(v->cautionary ? "Caution: the slide's bug, on purpose" : "Caution");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    TextRich(v->caution, &p.lesson);
    ImGui::Spacing();
  }
  ImGui::PushFont(t.fonts().bold);
  ImGui::TextUnformatted("Source");
  ImGui::PopFont();
  ImGui::PushTextWrapPos(0.f);
  if (!v->slide.empty()) ImGui::TextUnformatted(("\u201c" + v->slide + "\u201d").c_str());
  if (v->beyond_slides) ImGui::TextUnformatted("Beyond the slides: warpscope's own kernel, not the lecture's");
  ImGui::PopTextWrapPos();
  // The document by its own title and authors (the lesson that follows it); the seed's file name is for the docs.
  std::string cited = v->seed;
  for (const auto& e : s.lessons())
    if (e.from_file && e.lesson.seed == v->seed) cited = lecture_citation(e.lesson);
  TextDim(cited, true);
  ImGui::Spacing();
  ImGui::PushFont(t.fonts().bold);
  ImGui::TextUnformatted("Launch rules");
  ImGui::PopFont();
  TextDim(describe_rules(*v), true);
  if (!v->rules.note.empty()) TextRich(v->rules.note, &p.text_dim);
}

}  // namespace ws::ui
