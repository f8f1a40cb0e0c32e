#include "views/view_conv.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "conv_controls.hpp"
#include "patterns/convolution/conv_sim.hpp"
#include "views/conv_bandwidth_table.hpp"
#include "views/view_registry.hpp"
#include "widgets/layout_probe.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

using controller::ViewActions;
using controller::ViewContext;

namespace {

std::string fixed(double v, int decimals = 1) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

ImU32 role_color(sim::ConvLoad l) {
  const Palette& p = theme().colors();
  switch (l) {
    case sim::ConvLoad::Internal: return ImGui::GetColorU32(p.accent);
    case sim::ConvLoad::Halo: return ImGui::GetColorU32(p.lesson);
    case sim::ConvLoad::Ghost: return p.conv_ghost;
    default: return p.conv_unloaded;
  }
}

/// A cell of the slide's table: one decimal, halves rounded up as the slides round them.
std::string reduction_cell(double v) { return fixed(std::floor(v * 10 + 0.5) / 10, 1); }

/// The widest cell or tile header of `t`.
float reduction_cell_width(const BandwidthTable& t) {
  float w = 0;
  for (int k : t.tiles) w = std::max(w, ImGui::CalcTextSize(std::to_string(k).c_str()).x);
  for (const auto& row : t.reduction)
    for (double v : row) w = std::max(w, ImGui::CalcTextSize(reduction_cell(v).c_str()).x);
  return w;
}

/// The colour of a thread in the tile map: its most frequent staging load (ghost when it only stores 0s).
sim::ConvLoad main_load(const ConvThreadLoads& r) {
  const int halo = r.halo + r.padding;
  if (r.internal == 0 && halo == 0) return r.ghost ? sim::ConvLoad::Ghost : sim::ConvLoad::None;
  return r.internal >= halo ? sim::ConvLoad::Internal : sim::ConvLoad::Halo;
}

void legend_item(ImU32 color, const char* label) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + h, at.y + h), color, 2.f);
  ImGui::Dummy(ImVec2(h, h));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(0, theme().px(18));
}

}  // namespace

void ConvView::draw(const ViewContext& c, ViewActions& act) {
  const VariantInfo* v = c.variant;
  if (!v || v->conv == ConvKind::None) {
    TextDim(
        "The Convolution tab follows the stevens.conv* variants (lesson \"Convolution, reduction trees and scan\"): "
        "select one to see its input and output, the tile map and the slides' bandwidth numbers.",
        true);
    return;
  }
  const int dims = conv_dims(*v);
  if (!Handout()) controls(c, act, dims);
  ConvPreviewKey key;
  key.variant = v->id;
  key.params = c.params.pattern;
  key.n = c.params.request_n();
  key.input = c.params.input_kind();  // a file: text, or a PNG/JPEG image for 2-D
  key.seed = c.params.seed;
  key.block = dims == 1 ? c.params.block : 0;  // a 1D tile is the block
  // Recompute when the selection, the parameters or the shown report (a new run's output) changed.
  const std::size_t runs = c.shown.runs.size();
  if (!preview_ || preview_->key != key || runs != shown_runs_) {
    preview_ = make_conv_preview(key, &c.shown);
    ++preview_gen_;
    shown_runs_ = runs;
    textures_stale_ = true;
    if (!preview_->error.empty()) block_x_ = block_y_ = 0;
  }
  const ConvPreview& p = *preview_;
  ImGui::BeginChild("conv_body", ImVec2(0, 0), false);
  draw_body(p);
  ImGui::EndChild();
}

void ConvView::draw_body(const ConvPreview& p) {
  if (!p.error.empty()) {
    TextWrappedColored(theme().colors().bad, p.error);
    return;
  }
  block_x_ = std::clamp<int>(block_x_, 0, int(p.setup.g.grid_x - 1));
  block_y_ = std::clamp<int>(block_y_, 0, int(p.setup.g.grid_y - 1));
  // The tile map (what each thread of one block loads: the slides' point) comes first, on screen under
  // a scene's note; 1D: the signals below it, 2D: the images beside it; the bandwidth tables last.
  if (p.dims == 2) {
    tile_map(p);  // the images beside the map
  } else {
    tile_map(p);
    ImGui::Separator();
    signals(p);
  }
  ImGui::Separator();
  analysis(p);
  textures_stale_ = false;
}

void ConvView::controls(const ViewContext& c, ViewActions& act, int dims) {
  const Theme& t = theme();
  PatternParams& pp = act.pattern_params();
  if (dims == 2 && pp.width == 0) pp.width = pp.height = 256;  // 2D runs need an explicit size
  if (dims == 1 && pp.height != 0) pp.height = 0;
  if (dims == 1 && pp.width != 0) pp.width = 0;  // 1D signals take the parameters' n
  // Tile and mask width sit in the parameters panel (runs use them too); in focus mode, which hides
  // the panel, here. The mask's shape is always here.
  if (c.perf.present.focus) {
    if (const VariantInfo* v = c.variant) {
      controller::RunParams p = c.params;  // the combos change a copy: its block and pattern go back through act
      ConvLaunchControls(p, *v);
      if (p.block != c.params.block) act.set_block(p.block);
      act.pattern_params() = p.pattern;
    }
    ImGui::SameLine(0, t.px(20));
  }
  const char* masks[] = {"box", "gauss"};
  int m = pp.mask == "gauss" ? 1 : 0;
  ImGui::SetNextItemWidth(t.px(110));
  if (ImGui::Combo("mask shape", &m, masks, 2)) pp.mask = masks[m];
  ItemTooltip(
      "box: every coefficient 1/w (2D: 1/w^2); gauss: a sampled Gaussian, normalised (the CLI also reads a mask file)");
  if (dims == 2) {
    ImGui::SameLine(0, t.px(20));
    WrapUnlessFits(t.px(200) + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("width x height").x);
    int wh[2] = {int(pp.width), int(pp.height)};
    ImGui::SetNextItemWidth(t.px(200));
    if (ImGui::InputInt2("width x height", wh)) {
      pp.width = std::clamp(wh[0], 1, 8192);
      pp.height = std::clamp(wh[1], 1, 8192);
    }
  }
}

void ConvView::analysis(const ConvPreview& p) {
  const Theme& t = theme();
  const ConvGeometry& g = p.setup.g;
  const ArrayTraffic& a = p.traffic;
  SectionTitle("Bandwidth reduction of tiling (slides \"Bandwidth Reduction in 1D / 2D\")");
  TextDim(g.describe() + ", mask " + std::to_string(g.mask_width) +
              (p.dims == 2 ? "x" + std::to_string(g.mask_width) : "") +
              "; a tile's global loads are replaced by shared-memory (register-tiled: register) reads: bw reduction = "
              "accesses / loads.",
          true);
  // The slide's table over tile sizes and masks goes to the right of this one when both fit.
  ImGui::BeginGroup();
  if (ImGui::BeginTable("conv_bw", 5,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                            ImGuiTableFlags_NoHostExtendX)) {
    const float num = ImGui::CalcTextSize("accesses_").x;
    const std::string shape0 =
        p.dims == 2 ? std::to_string(g.tile_x) + "x" + std::to_string(g.tile_y) : std::to_string(g.tile_x);
    float label_w = ImGui::CalcTextSize("first tile (ghost cells)").x;  // the widest of the rows' labels
    for (const std::string& l : {"internal " + shape0 + " tile = formula", "formula (internal " + shape0 + " tile)",
                                 "whole array (" + std::to_string(a.tiles) + " tiles)"})
      label_w = std::max(label_w, ImGui::CalcTextSize(l.c_str()).x);
    ImGui::TableSetupColumn("tile", 0, label_w);
    ImGui::TableSetupColumn("outputs", 0, std::max(num, ImGui::CalcTextSize(std::to_string(a.outputs).c_str()).x));
    ImGui::TableSetupColumn("loads", 0, std::max(num, ImGui::CalcTextSize(std::to_string(a.loaded).c_str()).x));
    ImGui::TableSetupColumn("accesses", 0, std::max(num, ImGui::CalcTextSize(std::to_string(a.accesses).c_str()).x));
    ImGui::TableSetupColumn("bw reduction", 0, std::max(num, ImGui::CalcTextSize("bw reduction").x));
    ImGui::TableHeadersRow();
    auto row = [](const std::string& name, std::int64_t outputs, std::int64_t loaded, std::int64_t accesses,
                  double red) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name.c_str());
      ImGui::TableNextColumn();
      TextRight(std::to_string(outputs));
      ImGui::TableNextColumn();
      TextRight(std::to_string(loaded));
      ImGui::TableNextColumn();
      TextRight(std::to_string(accesses));
      ImGui::TableNextColumn();
      TextRight(fixed(red, 2));
    };
    const std::int64_t T = g.tile_x, Ty = p.dims == 2 ? g.tile_y : 1, K = g.mask_width;
    const std::int64_t f_out = T * Ty, f_load = p.dims == 2 ? (T + K - 1) * (Ty + K - 1) : T + K - 1;
    const std::int64_t f_acc = p.dims == 2 ? T * Ty * K * K : T * K;
    const std::string shape = p.dims == 2 ? std::to_string(T) + "x" + std::to_string(Ty) : std::to_string(T);
    // An internal tile counts exactly what the formula says: one row then.
    if (a.internal.loaded && a.internal.outputs == f_out && a.internal.loaded == f_load &&
        a.internal.accesses == f_acc) {
      row("internal " + shape + " tile = formula", f_out, f_load, f_acc, a.formula);
    } else {
      row("formula (internal " + shape + " tile)", f_out, f_load, f_acc, a.formula);
      if (a.internal.loaded)
        row("an internal tile", a.internal.outputs, a.internal.loaded, a.internal.accesses, a.internal.reduction());
    }
    row("first tile (ghost cells)", a.first.outputs, a.first.loaded, a.first.accesses, a.first.reduction());
    row("whole array (" + std::to_string(a.tiles) + " tiles)", a.outputs, a.loaded, a.accesses, a.reduction());
    ImGui::EndTable();
  }
  ImGui::EndGroup();
  const float table_w = ImGui::GetItemRectSize().x;  // the cursor is back at the line's start
  if (ImGui::GetContentRegionAvail().x - table_w - t.px(12) >= reduction_table_width(p)) ImGui::SameLine(0, t.px(12));
  ImGui::BeginGroup();
  reduction_table(p);
  ImGui::EndGroup();
  const double mib = 1024.0 * 1024.0;
  const std::string measured = p.dram_read >= 0 ? "Measured on the last run: DRAM read " + fixed(p.dram_read / mib, 2) +
                                                      " MiB, written " + fixed(p.dram_write / mib, 2) + " MiB."
                                                : "Measured DRAM bytes appear here after a GPU run with CUPTI metrics.";
  TextDim("DRAM at least: input + output = " + fixed(2.0 * double(g.outputs()) * 4 / mib, 2) +
              " MiB; the basic kernel issues " + std::to_string(a.accesses) + " global loads of N, a tiled kernel " +
              std::to_string(a.loaded) + " (halo loads counted once per tile). " + measured,
          true);
}

float ConvView::reduction_table_width(const ConvPreview& p) const {
  const ConvGeometry& g = p.setup.g;
  const bool square = g.dims == 1 || g.tile_x == g.tile_y;
  const BandwidthTable table = bandwidth_table(g.dims, square ? g.tile_x : 0, g.mask_width);
  const float pad = 2 * ImGui::GetStyle().CellPadding.x + 1;
  return std::max(ImGui::CalcTextSize("Tile_Width").x, ImGui::CalcTextSize("K = 15").x) + pad +
         float(table.tiles.size()) * (reduction_cell_width(table) + pad);
}

void ConvView::reduction_table(const ConvPreview& p) {
  const Theme& t = theme();
  const ConvGeometry& g = p.setup.g;
  // The coarsened and register-tiled tiles are not square: the table is the slides' square tiles.
  const bool square = g.dims == 1 || g.tile_x == g.tile_y;
  const BandwidthTable table = bandwidth_table(g.dims, square ? g.tile_x : 0, g.mask_width);
  const char* tile_name = g.dims == 2 ? "TILE_SIZE" : "Tile_Width";
  const char* mask_name = g.dims == 2 ? "K" : "M";
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + reduction_table_width(p));
  TextDim(std::string("The slide's table, more sizes (internal tiles, ") +
          (g.dims == 2 ? "K = KERNEL_SIZE" : "M = Mask_Width") + (square ? "" : "; this variant's tile is not square") +
          "):");
  ImGui::PopTextWrapPos();
  ItemTooltip(
      g.dims == 2
          ? "TILE_SIZE^2 * KERNEL_SIZE^2 / (TILE_SIZE + KERNEL_SIZE - 1)^2 (slide \"Bandwidth Reduction in 2D\")"
          : "Mask_Width * TILE_SIZE / (TILE_SIZE + Mask_Width - 1) (slide \"Bandwidth Reduction in 1D\")");
  const int cols = int(table.tiles.size()) + 1;
  if (ImGui::BeginTable("conv_bw_slide", cols,
                        ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX)) {
    ImGui::TableSetupColumn(tile_name, 0, std::max(ImGui::CalcTextSize(tile_name).x, ImGui::CalcTextSize("K = 15").x));
    for (int k : table.tiles) ImGui::TableSetupColumn(std::to_string(k).c_str(), 0, reduction_cell_width(table));
    ImGui::TableHeadersRow();
    for (std::size_t m = 0; m < table.masks.size(); ++m) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%s = %d", mask_name, table.masks[m]);
      for (std::size_t k = 0; k < table.tiles.size(); ++k) {
        ImGui::TableNextColumn();
        const bool chosen = square && table.masks[m] == g.mask_width && table.tiles[k] == g.tile_x;
        if (chosen) {
          ImVec4 c = t.colors().accent;
          c.w *= 0.35f;
          ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, ImGui::GetColorU32(c));
        }
        TextRight(reduction_cell(table.reduction[m][k]));
      }
    }
    ImGui::EndTable();
  }
}

void ConvView::image(const char* title, ImageTexture& tex, ConstSpan<double> values, std::int64_t rows,
                     std::int64_t cols, bool overlay, const ConvPreview& p, float side) {
  const bool textures = image_texture_api() != nullptr;
  int w = 0, h = 0;
  ImGui::BeginGroup();
  ImGui::TextUnformatted(title);
  if (textures && (textures_stale_ || !tex.valid())) {
    const auto px = grey_pixels(values, rows, cols, 512, w, h);
    tex.set(w, h, px.data());
  }
  const float scale = side / float(std::max(rows, cols));
  const ImVec2 size(float(cols) * scale, float(rows) * scale);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (textures && tex.valid()) {
    ImGui::Image(tex.id(), size);
  } else {  // no renderer textures (tests): coarse rectangles
    const auto px = grey_pixels(values, rows, cols, 64, w, h);
    const float cw = size.x / float(std::max(w, 1)), ch = size.y / float(std::max(h, 1));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        dl->AddRectFilled(ImVec2(at.x + x * cw, at.y + y * ch), ImVec2(at.x + (x + 1) * cw, at.y + (y + 1) * ch),
                          ImU32(px[std::size_t(y * w + x)]));
    ImGui::Dummy(size);
  }
  if (overlay) {  // the chosen block's output tile (green) and input tile with its halo (amber)
    const ConvGeometry& g = p.setup.g;
    const float r = float(g.mask_width / 2);
    const float x0 = float(block_x_ * g.tile_x), y0 = float(block_y_ * g.tile_y);
    auto rect = [&](float a, float b, float c, float d, const ImVec4& col) {
      dl->AddRect(ImVec2(at.x + std::max(0.f, a) * scale, at.y + std::max(0.f, b) * scale),
                  ImVec2(at.x + std::min(float(cols), c) * scale, at.y + std::min(float(rows), d) * scale),
                  ImGui::GetColorU32(col), 0.f, 0, theme().px(2));
    };
    rect(x0 - r, y0 - r, x0 + g.tile_x + r, y0 + g.tile_y + r, theme().colors().lesson);
    rect(x0, y0, x0 + g.tile_x, y0 + g.tile_y, theme().colors().ok);
  }
  ImGui::EndGroup();
}

void ConvView::signals(const ConvPreview& p) {
  const Theme& t = theme();
  const float avail = ImGui::GetContentRegionAvail().x;
  if (p.dims == 2) {
    std::vector<double> in(p.input.f32.begin(), p.input.f32.end());
    // Beside the tile map the images take what is left of the view's height (their titles and legend
    // line above and below), not less than a readable thumbnail.
    const float room_y = ImGui::GetContentRegionAvail().y - 4 * ImGui::GetTextLineHeightWithSpacing();
    const float side = std::max(t.px(100), std::min({t.px(250), (avail - t.px(40)) / 2, room_y}));
    ImGui::BeginGroup();
    SectionTitle("Input and output");
    image(("input " + std::to_string(p.input.cols) + " x " + std::to_string(p.input.rows) + " (" + p.input.kind + ")")
              .c_str(),
          input_tex_, in, p.input.rows, p.input.cols, true, p, side);
    ImGui::SameLine(0, t.px(40));
    image(("output: " + p.output_source).c_str(), output_tex_, p.output.values, p.output.rows, p.output.cols, false, p,
          side);
    TextDim("amber: the block's input tile (with halo), green: its output tile", false);
    ImGui::EndGroup();
    return;
  }
  SectionTitle("Input and output");
  const int points = 256;
  std::vector<double> in(p.input.f32.begin(), p.input.f32.end());
  const std::vector<float> a = plot_samples(in, points), b = plot_samples(p.output.values, points);
  const std::string first = "first " + std::to_string(a.size()) + " of " + std::to_string(in.size()) + " samples";
  const float w = (avail - t.px(20)) / 2;  // side by side, like the 2D images
  // Each title on its own line above its plot: PlotLines' overlay text would sit on the waveform.
  auto signal = [&](const char* id, const std::vector<float>& v, const std::string& title, const char* probe) {
    ImGui::BeginGroup();
    ImGui::AlignTextToFramePadding();  // the same baseline beside the first plot's frame (SameLine keeps its padding)
    TextEllipsis(title, w);
    layout_probe().picture(std::string(probe) + " title", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImGui::PushStyleColor(ImGuiCol_PlotLines, t.colors().accent);  // not the default 1-px grey
    ImGui::PlotLines(id, v.data(), int(v.size()), 0, nullptr, FLT_MAX, FLT_MAX, ImVec2(w, t.px(70)));
    ImGui::PopStyleColor();
    layout_probe().picture(std::string(probe) + " plot", ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
    ImGui::EndGroup();
  };
  signal("##in", a, "input (" + p.input.kind + "), " + first, "conv input");
  ImGui::SameLine(0, t.px(20));
  signal("##out", b, "output: " + p.output_source, "conv output");
}

void ConvView::tile_map(const ConvPreview& p) {
  const Theme& t = theme();
  const ConvGeometry& g = p.setup.g;
  SectionTitle("Tile map: what each thread of a block does");
  ImGui::SetNextItemWidth(t.px(150));
  ImGui::SliderInt("block x", &block_x_, 0, int(g.grid_x - 1));
  if (g.dims == 2) {
    ImGui::SameLine(0, t.px(20));
    ImGui::SetNextItemWidth(t.px(150));
    ImGui::SliderInt("block y", &block_y_, 0, int(g.grid_y - 1));
  }
  ImGui::SameLine(0, t.px(20));
  if (ImGui::SmallButton("an internal block")) {
    block_x_ = int(std::min<std::int64_t>(1, g.grid_x - 1));
    block_y_ = int(std::min<std::int64_t>(1, g.grid_y - 1));
  }
  // Counted from the sim model's trace of this block: what the kernel loads, store by store.
  if (counts_gen_ != preview_gen_ || counts_x_ != block_x_ || counts_y_ != block_y_) {
    counts_gen_ = preview_gen_, counts_x_ = block_x_, counts_y_ = block_y_;
    counts_.reset();
    counts_error_.clear();
    try {
      counts_ = model_tile_counts(g, p.input.f32, p.setup.mask, block_x_, block_y_);
    } catch (const std::exception& e) { counts_error_ = e.what(); }
  }
  if (!counts_) {
    TextWrappedColored(t.colors().bad, "the tile map needs the model's trace: " + counts_error_);
    return;
  }
  const ConvTileCounts& c = *counts_;
  const ConvThreadLoads& sum = c.total;
  const bool regs = g.kind == ConvKind::Register2D;
  auto legend = [&] {
    legend_item(role_color(sim::ConvLoad::Internal), ("internal loads " + std::to_string(sum.internal)).c_str());
    legend_item(role_color(sim::ConvLoad::Halo), ("halo loads " + std::to_string(sum.halo)).c_str());
    if (sum.padding)
      legend_item(role_color(sim::ConvLoad::Halo),
                  ("past the end (zero padding) " + std::to_string(sum.padding)).c_str());
    ImGui::NewLine();
    legend_item(role_color(sim::ConvLoad::Ghost),
                ("ghost cells: 0 stored, no load " + std::to_string(sum.ghost)).c_str());
    legend_item(role_color(sim::ConvLoad::None), regs ? "loads nothing" : "no shared load");
    ImGui::NewLine();
    std::string line = std::to_string(c.staged()) +
                       (regs ? " global loads into registers (no shared memory)" : " global loads into shared memory");
    if (sum.direct)
      line += ", " + std::to_string(sum.direct) + " loads of N in the mask loop" +
              (g.kind == ConvKind::TiledCache1D ? " (the halo, through the caches)" : "");
    line += "; " + std::to_string(c.computing) + " of " + std::to_string(g.threads()) + " threads compute (dot), " +
            std::to_string(c.writing) + " write inside the array (ring)." + (g.dims == 1 ? " A row per warp." : "");
    TextDim(line, true);
    ItemTooltip(
        "a cell's colour: the thread's most frequent load; its lower third: a halo load or ghost cell it makes "
        "besides (1D: the first and last Mask_Width/2 threads). Counted from the sim model's trace of this block.");
  };
  if (g.dims == 1) {
    legend();
    input_window(p, c);
    thread_grid(p, c, ImGui::GetContentRegionAvail().x - t.px(10), t.px(300));
    return;
  }
  // 2D: the block's threads as large as the view's remaining height allows, the legend and the images
  // beside them.
  const float grid_w = ImGui::GetContentRegionAvail().x * 0.5f;
  ImGui::BeginGroup();
  thread_grid(p, c, grid_w, std::max(t.px(150), ImGui::GetContentRegionAvail().y - t.px(12)));
  ImGui::EndGroup();
  ImGui::SameLine(0, t.px(30));
  ImGui::BeginGroup();
  legend();
  signals(p);
  ImGui::EndGroup();
}

void ConvView::thread_grid(const ConvPreview& p, const ConvTileCounts& counts, float max_w, float max_h) {
  const Theme& t = theme();
  const ConvGeometry& g = p.setup.g;
  // 1D blocks: one warp (32 threads) per row; 2D: block_y rows of block_x threads.
  const int cols = g.dims == 1 ? std::min(32, g.block_x) : g.block_x;
  const int rows = (g.threads() + cols - 1) / cols;
  const float cell =
      std::clamp(std::min(max_w / float(cols), max_h / float(rows)), t.px(4), g.dims == 1 ? t.px(44) : t.px(26));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int k = 0; k < g.threads(); ++k) {
    const ConvThreadLoads& r = counts.threads[std::size_t(k)];
    const float x = at.x + float(k % cols) * cell, y = at.y + float(k / cols) * cell;
    const sim::ConvLoad main = main_load(r);
    dl->AddRectFilled(ImVec2(x + 1, y + 1), ImVec2(x + cell - 1, y + cell - 1), role_color(main));
    // A thread that also loads a halo element or stores a ghost cell (1D: the first and last
    // Mask_Width/2 threads) gets that colour in its lower third.
    const sim::ConvLoad second = main != sim::ConvLoad::Halo && r.halo + r.padding > 0 ? sim::ConvLoad::Halo
                                 : main != sim::ConvLoad::Ghost && r.ghost > 0         ? sim::ConvLoad::Ghost
                                                                                       : main;
    if (second != main)
      dl->AddRectFilled(ImVec2(x + 1, y + cell * 0.66f), ImVec2(x + cell - 1, y + cell - 1), role_color(second));
    if (r.computes)
      dl->AddCircleFilled(ImVec2(x + cell / 2, y + cell / 2), std::max(1.5f, cell * 0.16f), IM_COL32_WHITE);
    if (r.writes && cell >= t.px(10))
      dl->AddCircle(ImVec2(x + cell / 2, y + cell / 2), cell * 0.32f, ImGui::GetColorU32(t.colors().ok), 0, t.px(1.5f));
  }
  // Thread ids under a 1D map's row when each fits its cell at the smallest readable size.
  const float id_fs = t.min_text();
  const bool ids = g.dims == 1 &&
                   ImGui::GetFont()->CalcTextSizeA(id_fs, 1e9f, 0, ("t" + std::to_string(cols - 1)).c_str()).x <= cell;
  if (ids)
    for (int k = 0; k < std::min(cols, g.threads()); ++k) {
      const std::string tl = "t" + std::to_string(k);
      const float tw = ImGui::GetFont()->CalcTextSizeA(id_fs, 1e9f, 0, tl.c_str()).x;
      DrawText(dl, ImGui::GetFont(), id_fs,
               ImVec2(at.x + (float(k) + 0.5f) * cell - tw * 0.5f, at.y + float(rows) * cell),
               ImGui::GetColorU32(t.colors().text_dim), tl.c_str());
    }
  ImGui::Dummy(ImVec2(float(cols) * cell, float(rows) * cell + (ids ? id_fs * 1.2f : 0.f)));
  layout_probe().picture("conv tile map", at, ImVec2(at.x + float(cols) * cell, at.y + float(rows) * cell));
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetMousePos();
    const int k = int((m.y - at.y) / cell) * cols + int((m.x - at.x) / cell);
    if (k >= 0 && k < g.threads()) {
      const ConvThreadLoads& r = counts.threads[std::size_t(k)];
      ImGui::SetTooltip(
          "thread %d (warp %d, lane %d; tx %d, ty %d): loads %d internal, %d halo, %d past the end; "
          "%d ghost cells; %d loads of N in the mask loop; %s",
          k, k / 32, k % 32, k % g.block_x, k / g.block_x, r.internal, r.halo, r.padding, r.ghost, r.direct,
          r.computes ? (r.writes ? "computes and writes an output" : "computes, writes nothing inside")
                     : "does not compute");
    }
  }
}

void ConvView::input_window(const ConvPreview& p, const ConvTileCounts& c) {
  const Theme& t = theme();
  const ConvGeometry& g = p.setup.g;
  const std::int64_t r = g.mask_width / 2, x0 = std::int64_t(block_x_) * g.tile_x;
  const std::int64_t first = x0 - r, count = g.tile_x + 2 * r;  // N[x0 - r .. x0 + tile + r)
  const bool direct = c.total.direct > 0 && c.staged() == 0;    // a basic kernel: no staging at all
  ImFont* font = ImGui::GetFont();
  ImFont* mono = t.fonts().mono;
  const char* row1 = "N";
  const char* row2 = direct ? "reads" : "loaded by";
  const float fs = ImGui::GetFontSize(), min_fs = t.min_text();
  const float gutter =
      std::max(font->CalcTextSizeA(min_fs, 1e9f, 0, row2).x, font->CalcTextSizeA(fs, 1e9f, 0, "P").x) + t.px(10);
  const float avail = ImGui::GetContentRegionAvail().x - gutter - t.px(8);
  // As many cells as keep an index readable at the smallest text size (the window's left part when
  // the tile is wide), at most a comfortable width each.
  const float digit = mono->CalcTextSizeA(min_fs, 1e9f, 0, "0").x;
  const std::size_t widest = std::max(std::to_string(first).size(), std::to_string(first + count - 1).size());
  const int fit = std::max(1, int(avail / (digit * float(widest) + t.px(8))));
  const int shown = int(std::min<std::int64_t>(count, fit));
  const float cw = std::min(avail / float(shown), t.px(70));
  const float box_h = std::max(min_fs * 1.3f, std::min(fs * 1.25f, t.px(28)));
  TextDim(direct ? "Block " + std::to_string(block_x_) + "'s window of N (tile " + std::to_string(g.tile_x) +
                       ", Mask_Width/2 = " + std::to_string(r) +
                       " each side): the basic kernel loads each element from global memory once per output that "
                       "uses it (below each: its loads)"
                 : "Block " + std::to_string(block_x_) + "'s window of N (tile " + std::to_string(g.tile_x) +
                       ", n = Mask_Width/2 = " + std::to_string(r) +
                       " halo each side) goes to shared memory once; below each element: the thread that loads it",
          true);
  if (shown < count)
    TextDim("first " + std::to_string(shown) + " of its " + std::to_string(count) +
            " elements (a smaller tile shows all)");
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 dim = ImGui::GetColorU32(t.colors().text_dim);
  const float y_in = o.y, y_by = y_in + box_h + t.px(4), y_out = y_by + min_fs * 1.3f + t.px(10);
  DrawText(dl, font, fs, ImVec2(o.x, y_in + (box_h - fs) * 0.5f), dim, row1);
  DrawText(dl, font, min_fs, ImVec2(o.x, y_by), dim, row2);
  DrawText(dl, font, fs, ImVec2(o.x, y_out + (box_h - fs) * 0.5f), dim, "P");
  auto cell_text = [&](float x0c, float y, const std::string& txt, ImU32 fill, float size) {
    const ImVec2 ts = mono->CalcTextSizeA(size, 1e9f, 0, txt.c_str());
    if (ts.x <= cw - t.px(2))
      DrawText(dl, mono, size, ImVec2(x0c + (cw - t.px(2) - ts.x) * 0.5f, y + (box_h - ts.y) * 0.5f), TextOn(fill),
               txt.c_str());
  };
  for (int k = 0; k < shown; ++k) {
    const std::int64_t i = first + k;
    const bool outside = i < 0 || i >= g.width;
    const sim::ConvLoad role = outside                        ? sim::ConvLoad::Ghost
                               : i >= x0 && i < x0 + g.tile_x ? sim::ConvLoad::Internal
                                                              : sim::ConvLoad::Halo;
    const float x = o.x + gutter + float(k) * cw;
    const ImU32 fill = Legible(role_color(role));
    dl->AddRectFilled(ImVec2(x, y_in), ImVec2(x + cw - t.px(2), y_in + box_h), fill, t.px(3));
    const float size = std::max(min_fs, std::min(fs, box_h * 0.75f));
    cell_text(x, y_in, std::to_string(i), fill,
              mono->CalcTextSizeA(size, 1e9f, 0, std::to_string(i).c_str()).x <= cw - t.px(2) ? size : min_fs);
    std::string by;
    if (direct) {
      const auto it = c.direct_reads.find(i);
      by = it == c.direct_reads.end() ? (outside ? "0" : "") : std::to_string(it->second) + "x";
    } else if (const auto it = c.staged_by.find(i); it != c.staged_by.end()) {
      by = "t" + std::to_string(it->second);
    } else if (const auto gs = c.ghost_slots.find(i - first); outside && gs != c.ghost_slots.end()) {
      by = "t" + std::to_string(gs->second) + ": 0";  // stores 0 in the ghost cell's slot, loads nothing
    }
    const float bw = font->CalcTextSizeA(min_fs, 1e9f, 0, by.c_str()).x;
    if (!by.empty() && bw <= cw - t.px(2))
      DrawText(dl, font, min_fs, ImVec2(x + (cw - t.px(2) - bw) * 0.5f, y_by), dim, by.c_str());
    if (role == sim::ConvLoad::Internal) {  // the output tile, under its own inputs; thread k writes P[x0 + k]
      const ImU32 out = Legible(ImGui::GetColorU32(t.colors().ok));
      dl->AddRectFilled(ImVec2(x, y_out), ImVec2(x + cw - t.px(2), y_out + box_h), out, t.px(3));
      cell_text(x, y_out, "t" + std::to_string(i - x0), out, min_fs);
    }
  }
  ImGui::Dummy(ImVec2(gutter + float(shown) * cw, y_out + box_h - o.y + t.px(8)));
  layout_probe().picture("conv input window", o, ImVec2(o.x + gutter + float(shown) * cw, y_out + box_h));
  layout_probe().counts["conv input window cells"] = shown;
}

/// The Convolution tab.
/// Its tab stands at position 90 (all_views() sorts by it).
ViewInfo conv_view_info() { return make_view_info<ConvView>(90, "conv", "Convolution", false); }

}  // namespace ws::ui
