#include "view_grid.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "format.hpp"
#include "grid_renderer.hpp"
#include "views/view_registry.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::format_grouped;
using controller::grid_metric_help;
using controller::grid_metric_name;
using controller::GridKey;
using controller::GridMetric;
using controller::GridState;
using controller::GridSummary;
using controller::kGridNoStep;
using controller::kGridStepStride;
using controller::Message;
using controller::TraceState;
using controller::ViewActions;
using controller::ViewContext;

GridKey grid_key(const ViewContext& c) {
  GridKey k;
  if (const VariantInfo* v = c.variant) k.variant = v->id;
  k.n = c.params.request_n();
  k.block = c.params.block;
  k.grid = c.params.grid;
  k.type = c.params.type;
  k.input = c.params.input_kind();
  k.seed = c.params.seed;
  k.exclusive = c.params.pattern.exclusive;
  k.keep = c.params.pattern.keep_fraction;
  return k;
}

void open_grid_block(ViewActions& act, std::int64_t block, int warp, int step, const std::string& view) {
  TraceState& t = act.trace();
  t.whole_launch = true;
  t.block_index = int(block);
  t.bank_warp = std::max(0, warp);
  t.pending_step = std::max(0, step);
  t.step = std::max(0, step);
  act.open_view(view);
}

namespace {

/// The smallest of 1, 2, 5, 10, 20, 50, ... that is >= x.
std::int64_t nice_at_least(double x) {
  if (!(x <= 1e18)) return std::int64_t(1e18);  // NaN and huge: no endless loop, no overflow
  std::int64_t base = 1;
  while (true) {
    for (std::int64_t m : {1, 2, 5})
      if (double(base * m) >= x) return base * m;
    base *= 10;
  }
}

void draw_legend(GridMetric m) {
  const Theme& t = theme();
  static const float kLanes[] = {0, 8, 16, 24, 32};
  static const float kWays[] = {1, 2, 4, 8, 16, 32};
  static const float kSectors[] = {4, 8, 16, 32};
  const float* vals = m == GridMetric::ActiveLanes ? kLanes : m == GridMetric::BankWays ? kWays : kSectors;
  const int count = m == GridMetric::ActiveLanes ? 5 : m == GridMetric::BankWays ? 6 : 4;
  for (int i = 0; i < count; ++i) {
    char label[16];
    std::snprintf(label, sizeof label, m == GridMetric::Sectors && i == 0 ? "\u2264 %g" : "%g", vals[i]);
    SameLineIfFits(t.px(40) + ImGui::CalcTextSize(label).x, t.px(10));
    LegendSwatch(ImGui::GetColorU32(grid_color(m, vals[i])), label);
  }
  ItemTooltip(grid_metric_help(m));
  ImGui::NewLine();  // LegendSwatch leaves the line open
}

}  // namespace

void GridView::draw(const ViewContext& c, ViewActions& act) {
  const Theme& t = theme();
  const Palette& p = t.colors();
  GridState& g = act.grid();
  g.refresh(c.variant, grid_key(c), ImGui::GetTime());

  // What the cells show, and the colour map's key.
  if (!Handout()) {
    for (int i = 0; i < int(GridMetric::Count); ++i) {
      const GridMetric m = GridMetric(i);
      if (i > 0) ImGui::SameLine();
      if (ImGui::RadioButton(grid_metric_name(m), g.metric == m)) g.metric = m;
      ItemTooltip(grid_metric_help(m));
    }
    ImGui::SameLine(0, t.px(24));
  }
  draw_legend(g.metric);

  if (!g.error.empty()) {
    TextWrappedColored(p.bad, g.error);
    return;
  }
  const GridSummary& d = g.data;
  if (d.launch.grid <= 0) {
    TextDim("computing the launch ...");
    return;
  }
  const std::int64_t warps = d.warps();
  std::string line = d.variant + "  \u00b7  n = " + format_grouped(d.n) + "  \u00b7  " + format_grouped(d.launch.grid) +
                     (d.launch.grid == 1 ? " block" : " blocks") + " \u00d7 " + std::to_string(d.warps_per_block) +
                     (d.warps_per_block == 1 ? " warp" : " warps") + " = " + format_grouped(warps) +
                     " warps  \u00b7  " + std::to_string(d.steps) + " steps" +
                     (d.steps_cut ? " (the first " + std::to_string(kGridStepStride) + ")" : "");
  if (!g.complete())
    line +=
        "  \u00b7  computing: " + format_grouped(d.blocks_done) + " of " + format_grouped(d.launch.grid) + " blocks";
  TextEllipsis(line, ImGui::GetContentRegionAvail().x);
  ItemTooltip(line +
              "\nEvery cell is from the sim model's trace of its own block: the model runs once per block of the "
              "launch, tracing that block. A pixel that covers several warps shows their mean (active lanes) or "
              "their worst (ways, sectors).");

  // The picture: y = warps of the launch (block-major), x = steps; gutters for the axis labels.
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gutter = ImGui::CalcTextSize("block 00000").x + t.px(8);
  const float bottom = 2 * line_h + t.px(4);
  const ImVec2 a = ImGui::GetCursorScreenPos();
  const ImVec2 img_min(a.x + gutter, a.y);
  const ImVec2 size(std::max(t.px(60), avail.x - gutter), std::max(t.px(60), avail.y - bottom));
  const ImVec2 img_max(img_min.x + size.x, img_min.y + size.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // NaN or infinite bounds (a hostile --grid-warps or scene) show every warp, like an empty range.
  if (!(g.warp1 > g.warp0) || !std::isfinite(g.warp0) || !std::isfinite(g.warp1)) g.warp0 = 0, g.warp1 = double(warps);
  double span = g.warp1 - g.warp0;
  const int steps = std::max(1, d.steps);

  ImGui::SetCursorScreenPos(img_min);
  ImGui::InvisibleButton("grid_canvas", size);
  const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
  const bool activated = ImGui::IsItemActivated(), released = ImGui::IsItemDeactivated();
  const ImGuiIO& io = ImGui::GetIO();
  // Wheel: zoom the warps about the pointer, from all of them down to one; drag: pan; double click: all.
  if (hovered && io.MouseWheel != 0) {
    const double f = std::clamp((io.MousePos.y - img_min.y) / size.y, 0.f, 1.f);
    const double at = g.warp0 + f * span;
    const double next = std::clamp(span * std::pow(1.25, -double(io.MouseWheel)), 1.0, double(warps));
    g.warp0 = at - f * next, g.warp1 = g.warp0 + next;
  }
  if (activated) dragging_ = true, drag_total_ = 0;
  if (dragging_ && active) {
    drag_total_ += std::fabs(io.MouseDelta.x) + std::fabs(io.MouseDelta.y);
    g.warp0 -= double(io.MouseDelta.y) / size.y * span, g.warp1 -= double(io.MouseDelta.y) / size.y * span;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) g.warp0 = 0, g.warp1 = double(warps);
  span = g.warp1 - g.warp0;
  if (g.warp0 < 0) g.warp0 = 0, g.warp1 = span;
  if (g.warp1 > double(warps)) g.warp1 = double(warps), g.warp0 = std::max(0.0, g.warp1 - span);
  span = g.warp1 - g.warp0;

  // The shader's picture, at the framebuffer's pixel size.
  const ImVec2 scale = io.DisplayFramebufferScale;
  GridImageRequest req;
  req.data = &g.data;
  req.data_version = g.version;
  req.metric = g.metric;
  req.warp0 = g.warp0, req.warp1 = g.warp1;
  req.step0 = 0, req.step1 = double(steps);
  req.width = std::max(1, int(size.x * (scale.x > 0 ? scale.x : 1.f)));
  req.height = std::max(1, int(size.y * (scale.y > 0 ? scale.y : 1.f)));
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_FrameBg];
  req.background[0] = bg.x, req.background[1] = bg.y, req.background[2] = bg.z;
  std::string gl_error;
  ImTextureID tex = ImTextureID();
  if (const GridRendererApi* r = grid_renderer())
    tex = r->render(req, gl_error);
  else
    gl_error = "no OpenGL renderer: the Grid view draws with GLSL 3.30 shaders (in the window or headless)";
  if (tex == ImTextureID() && gl_error != reported_error_)
    act.say(Message::Error, "Grid view: " + gl_error);  // once per reason
  reported_error_ = tex == ImTextureID() ? gl_error : std::string();
  if (tex != ImTextureID()) {
    dl->AddImage(tex, img_min, img_max, ImVec2(0, 1), ImVec2(1, 0));  // GL's rows start at the bottom
  } else {
    dl->AddRectFilled(img_min, img_max, ImGui::GetColorU32(bg));
    ImGui::SetCursorScreenPos(ImVec2(img_min.x + t.px(12), img_min.y + t.px(12)));
    ImGui::PushTextWrapPos(img_max.x - t.px(12));
    ImGui::PushStyleColor(ImGuiCol_Text, p.bad);
    ImGui::TextWrapped("The Grid view cannot draw: %s", gl_error.c_str());
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
  }

  // Block boundaries and the y labels: blocks, then single warps once a warp's row is tall enough.
  const double px_per_warp = size.y / span;
  const double px_per_block = px_per_warp * d.warps_per_block;
  const ImU32 dim = ImGui::GetColorU32(p.text_dim);
  const std::int64_t b_first = std::int64_t(g.warp0) / d.warps_per_block;
  const std::int64_t b_last =
      std::min<std::int64_t>(d.launch.grid - 1, std::int64_t(std::ceil(g.warp1)) / d.warps_per_block);
  dl->PushClipRect(ImVec2(a.x, img_min.y - line_h * 0.5f), ImVec2(img_max.x, img_max.y + line_h * 0.5f), true);
  auto y_of = [&](double warp) { return img_min.y + float((warp - g.warp0) * px_per_warp); };
  // Faint block boundaries once a block is tall enough that they do not hide its warps.
  ImVec4 edge = p.text_dim;
  edge.w = 0.5f;
  if (px_per_block >= t.px(16) && d.warps_per_block > 1 && b_last - b_first < 600)
    for (std::int64_t b = std::max<std::int64_t>(1, b_first); b <= b_last; ++b) {
      const float y = y_of(double(b * d.warps_per_block));
      dl->AddLine(ImVec2(img_min.x, y), ImVec2(img_max.x, y), ImGui::GetColorU32(edge), 1.f);
    }
  const float fs = ImGui::GetFontSize();
  if (px_per_warp >= line_h * 1.1) {
    for (std::int64_t w = std::int64_t(g.warp0); w < std::int64_t(std::ceil(g.warp1)) && w < warps; ++w) {
      const std::int64_t b = w / d.warps_per_block;
      const int wi = int(w % d.warps_per_block);
      const std::string lbl = wi == 0 ? "block " + std::to_string(b) : "w" + std::to_string(wi);
      const float y = y_of(double(w) + 0.5) - fs * 0.5f;
      dl->AddText(ImVec2(img_min.x - t.px(6) - ImGui::CalcTextSize(lbl.c_str()).x, y),
                  wi == 0 ? ImGui::GetColorU32(p.text) : dim, lbl.c_str());
    }
  } else {
    const std::int64_t every = nice_at_least(line_h * 1.6 / std::max(px_per_block, 1e-9));
    for (std::int64_t b = (b_first / every) * every; b <= b_last; b += every) {
      const float y = y_of(double(b * d.warps_per_block));
      if (y < img_min.y - 1 || y > img_max.y - fs * 0.5f) continue;  // the block starts outside the picture
      const std::string lbl = "block " + std::to_string(b);
      dl->AddText(ImVec2(img_min.x - t.px(6) - ImGui::CalcTextSize(lbl.c_str()).x, std::min(y, img_max.y - fs)), dim,
                  lbl.c_str());
    }
  }
  dl->PopClipRect();

  // The x labels: step numbers under their columns (every k-th when they do not fit).
  const float col_w = size.x / float(steps);
  const int every_step = int(nice_at_least((ImGui::CalcTextSize("00").x + t.px(8)) / std::max(col_w, 1e-3f)));
  for (int st = 0; st < steps; st += every_step) {
    const std::string lbl = std::to_string(st);
    const float x = img_min.x + (float(st) + 0.5f) * col_w - ImGui::CalcTextSize(lbl.c_str()).x * 0.5f;
    dl->AddText(ImVec2(x, img_max.y + t.px(2)), dim, lbl.c_str());
  }
  dl->AddText(ImVec2(a.x, img_max.y + t.px(2)), dim, "step");

  // Hover: the cell under the pointer, all three numbers; a click opens its block.
  std::string under =
      "wheel: zoom the warps (down to one)  \u00b7  drag: pan  \u00b7  double click: all warps  \u00b7  "
      "click: open that block in Warps";
  if (hovered) {
    const std::int64_t w =
        std::clamp<std::int64_t>(std::int64_t(g.warp0 + (io.MousePos.y - img_min.y) / px_per_warp), 0, warps - 1);
    const int st = std::clamp(int((io.MousePos.x - img_min.x) / col_w), 0, steps - 1);
    const std::int64_t b = w / d.warps_per_block;
    const int wi = int(w % d.warps_per_block);
    if (px_per_warp >= 2) {
      const float y0 = y_of(double(w)), y1 = y_of(double(w + 1));
      dl->AddRect(ImVec2(img_min.x + float(st) * col_w, y0), ImVec2(img_min.x + float(st + 1) * col_w, y1),
                  ImGui::GetColorU32(p.accent), 0, 0, t.px(2));
    }
    const std::string step_name = st < int(d.step_labels.size()) ? d.step_labels[std::size_t(st)] : std::string();
    std::string cell = "block " + format_grouped(b) + ", warp " + std::to_string(wi) + " (warp " + format_grouped(w) +
                       " of the launch)  \u00b7  step " + std::to_string(st) +
                       (step_name.empty() ? "" : " (" + step_name + ")");
    if (!d.block_done.empty() && !d.block_done[std::size_t(b)]) {
      cell += ": not computed yet";
    } else if (d.at(GridMetric::ActiveLanes, w, st) == kGridNoStep) {
      cell += ": this block has no such step";
    } else {
      const int lanes = d.at(GridMetric::ActiveLanes, w, st), ways = d.at(GridMetric::BankWays, w, st),
                sectors = d.at(GridMetric::Sectors, w, st);
      cell += ":  " + std::to_string(lanes) + " of 32 lanes active  \u00b7  " +
              (ways ? std::to_string(ways) + "-way bank conflict" : std::string("no shared access")) + "  \u00b7  " +
              (sectors ? std::to_string(sectors) + " sectors per request" : std::string("no global load"));
    }
    under = cell;
    if (released && drag_total_ < t.px(4)) open_grid_block(act, b, wi, st, "warps");
  }
  if (!active) dragging_ = false;
  ImGui::SetCursorScreenPos(ImVec2(a.x, img_max.y + line_h + t.px(4)));
  if (!Handout()) TextEllipsis(under, avail.x);  // the mouse's hints; a handout picture has no mouse
}

/// Every warp of the launch at once, drawn by shaders.
/// Its tab stands at position 170 (all_views() sorts by it).
ViewInfo grid_view_info() { return make_view_info<GridView>(170, "grid", "Grid", false); }

}  // namespace ws::ui
