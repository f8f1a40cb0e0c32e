#include "views/view_pair.hpp"

#include <imgui.h>

#include <algorithm>
#include <map>
#include <utility>

#include "registry.hpp"
#include "views/view_registry.hpp"
#include "views/view_steps.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::compute_trace;
using controller::describe_trace_config;
using controller::recording_mismatch;
using controller::TraceKey;
using controller::TraceState;
using controller::ViewActions;
using controller::ViewContext;

const char* const PairView::kPictures[3] = {"tree", "warps", "banks"};

namespace {
const char* const kPictureLabels[3] = {"Tree", "Warps", "Banks"};
const char* const kProbeNames[3] = {"tree", "warp grid", "banks"};
}  // namespace

PairChoice PairView::choice_of(const Scene& sc) {
  // The Pair view shows what the scene names, else Tree beside the lesson's next variant.
  return PairChoice{sc.pair_picture == "warps" ? 1 : sc.pair_picture == "banks" ? 2 : 0, sc.pair_with};
}

void PairView::adopt(const ViewContext& c) {
  if (c.scene_serial == scene_serial_ || !c.scene) return;
  scene_serial_ = c.scene_serial;
  PairChoice choice = choice_of(*c.scene);
  picture_ = choice.picture;
  second_ = std::move(choice.second);
}

std::string PairView::second_id(const ViewContext& c) const {
  const VariantInfo* v = c.variant;
  const std::string& chosen = second_;
  if (!chosen.empty() && (!v || chosen != v->id) && find_variant(chosen)) return chosen;
  const Lesson* l = c.lesson;
  if (!l || l->steps.empty()) return "";
  const int i = c.step_index;
  if (i >= 0 && i + 1 < int(l->steps.size())) return l->steps[std::size_t(i + 1)].variant;
  if (i > 0) return l->steps[std::size_t(i - 1)].variant;
  return l->steps.size() > 1 ? l->steps[1].variant : "";
}

void PairView::refresh_other(const ViewContext& c, const std::string& id) {
  TraceKey k = c.trace_key;
  k.variant = id;
  if (other_.key && *other_.key == k) return;
  other_.key = k;
  other_.trace.reset();
  other_.why_none.clear();
  other_.recorded_available = false;
  const VariantInfo* v = find_variant(id);
  if (!v) {
    other_.why_none = "no variant " + id;
    return;
  }
  // As for the left half: the open report's GPU recording when it is of what is asked, else the model.
  if (c.replay)
    for (const Trace& t : c.replay->traces)
      if (t.variant == id && recording_mismatch(*v, t, k).empty() && c.trace.use_recorded) {
        other_.trace = t;
        other_.origin = "report";
        other_.origin_note = "GPU recording of what is asked: " + describe_trace_config(t);
        return;
      }
  other_.trace = compute_trace(*v, k, other_.why_none);
  other_.origin = "sim";
  other_.origin_note.clear();
}

void PairView::draw_half(const ViewContext& c, ViewActions& act, int half) {
  switch (picture_) {
    case 0: tree_[half].draw(c, act); break;
    case 1: warps_[half].draw(c, act); break;
    default: banks_[half].draw(c, act); break;
  }
}

void PairView::draw(const ViewContext& c, ViewActions& act) {
  const Theme& th = theme();
  adopt(c);
  picture_ = std::clamp(picture_, 0, 2);
  // Controls: the picture, and the variant beside the selected one (the lesson's variants).
  const std::string right = second_id(c);
  if (!Handout()) {
    ImGui::AlignTextToFramePadding();
    TextDim("both at the same step:");
    for (int i = 0; i < 3; ++i) {
      ImGui::SameLine();
      if (ImGui::RadioButton(kPictureLabels[i], picture_ == i)) picture_ = i;
    }
    ImGui::SameLine(0, th.px(24));
    TextDim("beside:");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(std::min(th.px(320), ImGui::GetContentRegionAvail().x));
    if (ImGui::BeginCombo("##second", right.empty() ? "(none)" : right.c_str())) {
      if (const Lesson* l = c.lesson)
        for (const LessonStep& st : l->steps)
          if (ImGui::Selectable(st.variant.c_str(), st.variant == right)) second_ = st.variant;
      ImGui::EndCombo();
    }
    ItemTooltip("the variant drawn on the right; the parameters (n, block, input) are the same for both");
  }
  if (right.empty()) {
    TextWrappedColored(th.colors().lesson, "the lesson has no second variant to show beside this one");
    return;
  }
  refresh_other(c, right);
  // One step for both: the right half starts from the left's step; a move made on the right comes back.
  other_.step = std::clamp(c.trace.step, 0, std::max(0, other_.steps() - 1));
  other_.show_future_values = c.trace.show_future_values;
  other_.bank_warp = c.trace.bank_warp;
  other_.speed = c.trace.speed;
  other_.playing = false;

  // One step control for both halves; each half names its own step.
  if (!c.trace.trace || c.trace.trace->steps.empty()) {
    TextWrappedColored(th.colors().lesson,
                       c.trace.why_none.empty() ? "no trace of the selected variant" : c.trace.why_none);
    return;
  }
  auto step_name = [](const TraceState& t) {
    const Step* st = t.current();
    return st ? to_string(st->phase) + (" " + st->label) : std::string("-");
  };
  StepControls(act.trace(), step_name(c.trace) + "  |  " + step_name(other_));
  other_.step = std::clamp(c.trace.step, 0, std::max(0, other_.steps() - 1));
  const CompactTraceHeaders compact;

  LayoutProbe& probe = layout_probe();
  const char* name = kProbeNames[picture_];
  const float w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  ProbeRect rects[2];
  std::map<std::string, int> counts[2];
  for (int half = 0; half < 2; ++half) {
    if (half == 1) ImGui::SameLine();
    ImGui::BeginChild(half == 0 ? "pair_left" : "pair_right", ImVec2(w, 0), false, ImGuiWindowFlags_NoScrollbar);
    probe.pictures.erase(name);
    const std::map<std::string, int> before = probe.counts;
    probe.counts.clear();
    if (half == 1) std::swap(act.trace(), other_);
    const int step_before = c.trace.step;
    draw_half(c, act, half);
    const bool moved = c.trace.step != step_before, play = c.trace.playing;
    const bool future = c.trace.show_future_values;
    const int bank_warp = c.trace.bank_warp;
    if (half == 1) std::swap(act.trace(), other_);
    if (half == 1) {
      TraceState& t = act.trace();
      if (moved) t.step = other_.step, t.playing = false, t.pending_step = -1;
      if (play) t.playing = true;
      t.show_future_values = future;
      t.bank_warp = bank_warp;
    }
    if (probe.pictures.count(name)) rects[half] = probe.pictures.at(name);
    counts[half] = probe.counts;
    probe.counts = before;
    ImGui::EndChild();
  }
  for (int half = 0; half < 2; ++half) {
    const std::string side = half == 0 ? "left " : "right ";
    const ProbeRect& r = rects[half];
    if (r.width() > 0) {
      probe.picture("pair " + side.substr(0, side.size() - 1), ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1));
      probe.picture(name, ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1));
    }
    for (const auto& [k, v] : counts[half]) probe.counts[side + k] = v;
  }
}

/// The slides' own pictures: two variants side by side.
/// Its tab stands at position 160 (all_views() sorts by it).
ViewInfo pair_view_info() { return make_view_info<PairView>(160, "pair", "Pair", kSteps); }

}  // namespace ws::ui
