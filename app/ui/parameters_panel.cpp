#include "parameters_panel.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "conv_controls.hpp"
#include "format.hpp"
#include "launch_rules.hpp"
#include "lesson_browser.hpp"
#include "patterns.hpp"
#include "patterns/atomics/reference.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::AppState;
using controller::DeviceStatus;
using controller::format_grouped;
using controller::kInputFile;
using controller::kInputGenerators;
using controller::kInputKinds;
using controller::kInputTyped;
using controller::RunParams;
using controller::short_id;

namespace {

/// Lays out label + control groups left to right, wrapping to a new line when a group won't fit.
class Flow {
 public:
  explicit Flow(float gap) : gap_(gap) {}
  /// Call before a group `width` pixels wide.
  void next(float width) {
    if (!first_) {
      ImGui::SameLine(0, gap_);
      if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
    }
    first_ = false;
  }
  /// The next group starts a new line.
  void break_line() { first_ = true; }
  void label(const char* text) {
    ImGui::AlignTextToFramePadding();
    TextDim(text);
    ImGui::SameLine();
  }

 private:
  float gap_;
  bool first_ = true;
};

float label_w(const char* text) { return ImGui::CalcTextSize(text).x + ImGui::GetStyle().ItemSpacing.x; }

void disabled_tooltip(const std::string& text) {
  if (text.empty() || !ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

void ParametersPanel::draw(AppState& s) {
  const Theme& t = theme();
  RunParams& p = s.params;
  const VariantInfo* v = s.variant();
  const bool host = v && v->cpu_only;
  Flow flow(t.px(26));

  // n: 2^k on a slider (the slides' sizes), or any exact count.
  {
    const float w =
        label_w("n") + t.px(100 + 190) + ImGui::CalcTextSize("= 1,073,741,824").x + 3 * ImGui::GetStyle().ItemSpacing.x;
    flow.next(w);
    flow.label("n");
    ImGui::SetNextItemWidth(t.px(100));
    const char* modes[] = {"2^k", "exact"};
    int mode = p.n_pow2 ? 0 : 1;
    if (ImGui::Combo("##nmode", &mode, modes, 2)) {
      if (mode == 1 && p.n_pow2) p.n_exact = p.n();
      p.n_pow2 = mode == 0;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(t.px(190));
    const bool from_input = p.input >= kInputGenerators;  // typed numbers or a file set n themselves
    ImGui::BeginDisabled(from_input);
    if (p.n_pow2) {
      ImGui::SliderInt("##nlog2", &p.n_log2, 5, 30, "2^%d", ImGuiSliderFlags_AlwaysClamp);
    } else {
      ImS64 lo = 1, hi = kMaxN;
      ImGui::InputScalar("##nexact", ImGuiDataType_S64, &p.n_exact, nullptr, nullptr, "%" PRId64);
      p.n_exact = std::clamp<ImS64>(p.n_exact, lo, hi);
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    TextDim(from_input ? std::string("= the input's count") : "= " + format_grouped(p.n()));
  }
  // type
  {
    flow.next(label_w("type") + t.px(120));
    flow.label("type");
    ImGui::SetNextItemWidth(t.px(120));
    if (ImGui::BeginCombo("##type", to_string(p.type))) {
      for (DType d : {DType::Int32, DType::Float32}) {
        const bool off = v && v->rules.int_only && d != DType::Int32;
        ImGui::BeginDisabled(off);
        if (ImGui::Selectable(to_string(d), p.type == d)) p.type = d;
        ImGui::EndDisabled();
        if (off) disabled_tooltip(int_only_refusal(*v));
      }
      ImGui::EndCombo();
    }
  }
  // input: a generator, typed numbers, or a file read by the CLI's loaders
  {
    flow.next(label_w("input") + t.px(140));
    flow.label("input");
    ImGui::SetNextItemWidth(t.px(140));
    if (ImGui::Combo("##input", &p.input, kInputKinds, IM_ARRAYSIZE(kInputKinds))) p.input_auto = false;
    ItemTooltip(
        "random: int32 in [-1000, 1000] or float32 in [0, 1) from the seed; ones: every element 1 "
        "(the sum is n); sequence: i % 4096 (no value repeats inside a block); typed: the numbers you type "
        "(n = how many); file: a text file of numbers, or a PNG/JPEG image for 2-D convolution");
    if (p.input == kInputTyped) {
      flow.next(t.px(320));
      ImGui::SetNextItemWidth(t.px(320));
      if (typed_edit_.empty() && !p.typed_values.empty()) typed_edit_ = p.typed_values;
      if (ImGui::InputTextWithHint("##typed", "3 1 7 0 4 1 6 3", &typed_edit_, ImGuiInputTextFlags_EnterReturnsTrue) ||
          (ImGui::IsItemDeactivatedAfterEdit() && typed_edit_ != p.typed_values)) {
        typed_error_ = s.set_typed_values(typed_edit_);
      }
      ItemTooltip(
          "numbers separated by spaces or commas; Enter uses them (n = how many; pick a block of 8 or 16 "
          "to see the slides' trees)");
    } else if (p.input == kInputFile) {
      flow.next(t.px(320));
      ImGui::SetNextItemWidth(t.px(320));
      if (file_edit_.empty() && !p.file_path.empty()) file_edit_ = p.file_path;
      if (ImGui::InputTextWithHint("##file", "path/to/numbers.txt or image.png", &file_edit_,
                                   ImGuiInputTextFlags_EnterReturnsTrue) ||
          (ImGui::IsItemDeactivatedAfterEdit() && file_edit_ != p.file_path)) {
        typed_error_ = s.set_input(file_edit_);
        if (!typed_error_.empty()) p.input = kInputFile;  // stay on the file field to fix the path
      }
      ItemTooltip(
          "a text file of numbers (commas or white space), as warpscope-cli --input PATH reads it; for 2-D "
          "convolution also a PNG or JPEG, read as 8-bit grey");
    }
    if ((p.input == kInputTyped || p.input == kInputFile) && !typed_error_.empty()) {
      flow.next(ImGui::CalcTextSize(typed_error_.c_str()).x);
      ImGui::AlignTextToFramePadding();
      ImGui::TextColored(t.colors().bad, "%s", typed_error_.c_str());
    }
  }
  // scan: inclusive or exclusive (docs/patterns.md)
  if (v && (pattern_of(*v).options & kOptionExclusive)) {
    flow.next(label_w("exclusive") + t.px(30));
    ImGui::Checkbox("exclusive", &p.pattern.exclusive);
    ItemTooltip("exclusive scan: out[0] = 0, out[i] = x[0] + ... + x[i-1]; off: inclusive, out[i] = x[0] + ... + x[i]");
  }
  // filters: the fraction of values kept (--keep; seed 003, slide "Performance": throughput against it)
  if (v && v->atomics == AtomicsKind::Filter) {
    flow.next(label_w("keep") + t.px(140));
    flow.label("keep");
    ImGui::SetNextItemWidth(t.px(140));
    float keep = float(p.pattern.keep_fraction);
    if (ImGui::SliderFloat("##keep", &keep, 0.f, 1.f, "%.2f", ImGuiSliderFlags_AlwaysClamp))
      p.pattern.keep_fraction = keep;
    ItemTooltip("fraction of the random values that are positive, so kept by the filter (the slide's filter ratio)");
  }
  // convolution: tile and mask width, within what the variant's launch allows
  if (v && (pattern_of(*v).options & kOptionImage)) {
    flow.next(conv_controls_width());
    ConvLaunchControls(s.params, *v);
  }
  // seed
  {
    flow.next(label_w("seed") + t.px(110));
    flow.label("seed");
    ImGui::SetNextItemWidth(t.px(110));
    ImGui::BeginDisabled(p.input != 0);
    ImGui::InputScalar("##seed", ImGuiDataType_U64, &p.seed, nullptr, nullptr, "%" PRIu64);
    ImGui::EndDisabled();
  }
  // block
  {
    const int def = v ? (v->rules.fixed_block ? v->rules.fixed_block : v->rules.default_block) : 256;
    char current[48];
    if (host)
      std::snprintf(current, sizeof current, "host");
    else if (p.block == 0)
      std::snprintf(current, sizeof current, "default (%d)", def);
    else
      std::snprintf(current, sizeof current, "%d", p.block);
    flow.break_line();  // second row: the launch
    flow.next(label_w("block") + t.px(180));
    flow.label("block");
    ImGui::SetNextItemWidth(t.px(180));
    ImGui::BeginDisabled(host);
    if (ImGui::BeginCombo("##block", current)) {
      char label[48];
      std::snprintf(label, sizeof label, "default (%d)", def);
      if (ImGui::Selectable(label, p.block == 0)) p.block = 0;
      for (int b = kSmallestTeachingBlock; b <= 1024; b *= 2) {
        std::snprintf(label, sizeof label, "%d", b);
        // Sizes the variant's launch rules refuse stay listed, greyed, with the rule's reason.
        LaunchConfig resolved;
        const std::string why = v ? resolve_launch(*v, std::min<std::int64_t>(p.n(), window_elems(*v, b)), p.type,
                                                   LaunchConfig{b, 0}, DeviceShape{}, resolved)
                                  : std::string();
        ImGui::BeginDisabled(!why.empty());
        if (ImGui::Selectable(label, p.block == b)) p.block = b;
        ImGui::EndDisabled();
        disabled_tooltip(why);
      }
      ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    disabled_tooltip("threads per block" + std::string(v ? ": " + describe_rules(*v) : ""));
  }
  // grid
  {
    flow.next(label_w("grid") + t.px(120) + ImGui::CalcTextSize("0 = auto").x);
    flow.label("grid");
    ImGui::SetNextItemWidth(t.px(120));
    ImGui::BeginDisabled(host);
    ImS64 grid = p.grid;
    if (ImGui::InputScalar("##grid", ImGuiDataType_S64, &grid, nullptr, nullptr, "%" PRId64))
      p.grid = std::max<ImS64>(0, grid);
    ImGui::EndDisabled();
    disabled_tooltip(
        "blocks in the grid; 0 = auto: ceil(n / elements per block), or one full wave of the GPU for "
        "grid-stride kernels");
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    TextDim("0 = auto");
  }
  // repeat
  {
    flow.next(label_w("repeat") + t.px(110));
    flow.label("repeat");
    ImGui::SetNextItemWidth(t.px(110));
    ImGui::InputInt("##repeat", &p.repeat, 1, 10);
    p.repeat = std::clamp(p.repeat, 1, 1000);
    ItemTooltip("timed launches after 2 warm-up launches; the table shows their median");
  }

  // Run buttons.
  const std::string why_not = v ? s.why_not_runnable(*v) : std::string("pick a variant first");
  {
    const std::string run_label = "\u25B6 Run " + (v ? short_id(v->id) : std::string());
    std::vector<std::string> skipped;
    const std::size_t lesson_n = s.lesson_requests(&skipped).size();
    const std::string lesson_label =
        lesson_n ? "Run lesson (" + std::to_string(lesson_n) + ")" : std::string("Run lesson");
    const ImVec2 pad = ImGui::GetStyle().FramePadding;
    const float w = ImGui::CalcTextSize(run_label.c_str()).x + ImGui::CalcTextSize(lesson_label.c_str()).x + 4 * pad.x +
                    ImGui::GetStyle().ItemSpacing.x;
    flow.next(w);
    ImGui::BeginDisabled(!why_not.empty());
    if (ImGui::Button(run_label.c_str())) s.request_run();
    ImGui::EndDisabled();
    disabled_tooltip(why_not.empty() ? "run " + (v ? v->id : std::string()) + " with these parameters" : why_not);
    ImGui::SameLine();
    ImGui::BeginDisabled(lesson_n == 0);
    if (ImGui::Button(lesson_label.c_str())) s.request_run_lesson();
    ImGui::EndDisabled();
    std::string tip = "run every variant of this lesson in teaching order";
    if (!skipped.empty())
      tip += "; " + std::to_string(skipped.size()) + " cannot run here (" +
             (s.device.device.available ? "launch rules or type" : "no CUDA device") + ")";
    disabled_tooltip(tip);
  }
  draw_status_line(s, why_not);
}

void ParametersPanel::draw_status_line(AppState& s, const std::string& why_not) {
  const Theme& t = theme();
  const Palette& pal = t.colors();
  const DeviceStatus& d = s.device;
  if (d.busy) {
    const float frac = d.batch_total > 0 ? float(d.batch_done) / float(d.batch_total) : 0.f;
    char overlay[160];
    std::snprintf(overlay, sizeof overlay, "running %s  (%d of %d)", d.running.empty() ? "..." : d.running.c_str(),
                  std::min(d.batch_done + 1, d.batch_total), d.batch_total);
    ImGui::ProgressBar(frac, ImVec2(t.px(460), 0), overlay);
    ImGui::SameLine();
    if (ImGui::Button("Cancel queued")) s.cancel_requested = true;
    return;
  }
  ImGui::AlignTextToFramePadding();
  if (!why_not.empty()) {
    TextWrappedColored(pal.lesson, "Run is off: " + why_not);
    return;
  }
  const VariantInfo* v = s.variant();
  if (!v) return;
  if (v->cpu_only) {
    TextDim("runs on the host CPU, timed with the host clock; " + format_grouped(s.params.n()) + " " +
            to_string(s.params.type) + " elements");
    return;
  }
  LaunchConfig launch;
  resolve_launch(*v, s.params.n(), s.params.type, LaunchConfig{s.params.block, s.params.grid}, s.device.device.shape(),
                 launch);
  const double mib = double(s.params.n()) * double(dtype_size(s.params.type)) / (1024.0 * 1024.0);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB", mib);
  TextDim("launch: " + std::to_string(launch.block) + " threads \u00d7 " + format_grouped(launch.grid) +
          " blocks;  input " + buf + " of " + to_string(s.params.type));
}

}  // namespace ws::ui
