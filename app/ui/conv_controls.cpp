#include "conv_controls.hpp"

#include <imgui.h>

#include "patterns/convolution/conv_geometry.hpp"
#include "patterns/convolution/conv_inputs.hpp"
#include "patterns/convolution/pattern_convolution.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::RunParams;

namespace {

/// The array the panel's choices are checked against: 1D n, 2D the chosen image (256 x 256 until set).
void array_size(const VariantInfo& v, const RunParams& p, std::int64_t& width, std::int64_t& height) {
  if (conv_dims(v) == 2) {
    width = p.pattern.width ? p.pattern.width : 256;
    height = p.pattern.height ? p.pattern.height : 256;
  } else {
    width = p.pattern.width ? p.pattern.width : (p.request_n() ? p.request_n() : p.n());
    height = 0;
  }
}

std::string refusal(const VariantInfo& v, const RunParams& p, int mask_width, int tile) {
  std::int64_t w = 0, h = 0;
  array_size(v, p, w, h);
  ConvGeometry g;
  const bool one_d = conv_dims(v) == 1;
  return conv_geometry(v, mask_width, one_d ? 0 : tile, one_d ? tile : 0, w, h, g);
}

bool choice_combo(const char* id, const std::vector<ConvChoice>& choices, int current, int& out) {
  std::string shown = std::to_string(current);
  for (const auto& c : choices)
    if (c.value == current) shown = c.label;
  bool changed = false;
  if (ImGui::BeginCombo(id, shown.c_str())) {
    for (const auto& c : choices) {
      ImGui::BeginDisabled(!c.refused.empty());
      if (ImGui::Selectable(c.label.c_str(), c.value == current)) out = c.value, changed = true;
      ImGui::EndDisabled();
      if (!c.refused.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.f);
        ImGui::TextUnformatted(c.refused.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

}  // namespace

int conv_tile_value(const VariantInfo& v, const RunParams& p) {
  return conv_dims(v) == 1 ? (p.pattern.tile ? p.pattern.tile : p.block) : p.pattern.tile;
}

void set_conv_tile(const VariantInfo& v, RunParams& p, int tile) {
  if (conv_dims(v) == 1) {
    p.block = tile;
    p.pattern.tile = 0;
  } else {
    p.pattern.tile = tile;
  }
}

std::vector<ConvChoice> conv_tile_choices(const VariantInfo& v, const RunParams& p) {
  std::vector<ConvChoice> out;
  const int mask = p.pattern.mask_width;
  std::vector<int> values = {0};
  if (conv_dims(v) == 1)
    for (int b = 8; b <= 1024; b *= 2) values.push_back(b);
  else
    for (int t : {4, 8, 12, 16, 20, 24, 28, 32, 128}) values.push_back(t);
  for (int t : values) {
    ConvChoice c;
    c.value = t;
    c.refused = refusal(v, p, mask, t);
    if (t == 0) {
      std::int64_t w = 0, h = 0;
      array_size(v, p, w, h);
      ConvGeometry g;
      const std::string why = conv_geometry(v, mask, 0, 0, w, h, g);
      c.label = why.empty()
                    ? "default (" + std::to_string(g.tile_x) + (g.dims == 2 ? "x" + std::to_string(g.tile_y) : "") + ")"
                    : "default";
    } else {
      c.label = std::to_string(t);
    }
    // Fixed-tile variants list only what they take; other sizes would only clutter the list.
    if (t == 128 && !c.refused.empty()) continue;
    out.push_back(c);
  }
  return out;
}

std::vector<ConvChoice> conv_mask_choices(const VariantInfo& v, const RunParams& p) {
  std::vector<ConvChoice> out;
  const int tile = conv_tile_value(v, p);
  for (int m = 1; m <= kMaxMaskWidth; m += 2) {
    ConvChoice c;
    c.value = m;
    c.label = conv_dims(v) == 2 ? std::to_string(m) + "x" + std::to_string(m) : std::to_string(m);
    c.refused = refusal(v, p, m, tile);
    out.push_back(c);
  }
  return out;
}

float conv_controls_width() {
  const Theme& t = theme();
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::CalcTextSize("tile").x + ImGui::CalcTextSize("mask").x + t.px(190 + 110 + 26) + 4 * st.ItemSpacing.x;
}

void ConvLaunchControls(RunParams& p, const VariantInfo& v) {
  const Theme& t = theme();
  ImGui::AlignTextToFramePadding();
  TextDim("tile");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(t.px(190));  // "default (28x28)"
  int tile = conv_tile_value(v, p);
  if (choice_combo("##conv_tile", conv_tile_choices(v, p), tile, tile)) set_conv_tile(v, p, tile);
  ItemTooltip(conv_dims(v) == 1
                  ? "output tile = threads per block (one output per thread, slide \"Tiled 1D Convolution\")"
                  : "TILE_SIZE: output tile side (slide \"Tiling P\"); conv2d_tiled's block is TILE_SIZE + "
                    "mask - 1 per side (slide \"Setting Block Size\")");
  ImGui::SameLine(0, t.px(26));
  ImGui::AlignTextToFramePadding();
  TextDim("mask");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(t.px(110));
  int mask = p.pattern.mask_width;
  if (choice_combo("##conv_mask", conv_mask_choices(v, p), mask, mask)) p.pattern.mask_width = mask;
  ItemTooltip("Mask_Width (KERNEL_SIZE on the 2D slides): odd, 1 to 15; 2D masks are width x width");
}

}  // namespace ws::ui
