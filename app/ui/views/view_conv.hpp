// Convolution tab ("CS 677 Lecture 6", Mordohai): the mask's shape and the image size (tile and mask
// width are in the parameters panel), the slides' bandwidth-reduction numbers for that tile and mask
// and their table over more sizes, input and output (images side by side as textures, 1D signals as
// plots), and the tile map: per block, what each thread loads (internal, halo, ghost cells) and
// whether it computes, counted from the sim model's trace of that block.
#pragma once
#include <optional>

#include "view_context.hpp"
#include "views/conv_preview.hpp"
#include "views/conv_tile_counts.hpp"
#include "widgets/image_texture.hpp"

namespace ws::ui {

class ConvView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  void controls(const controller::ViewContext& c, controller::ViewActions& act, int dims);
  void draw_body(const ConvPreview& p);
  void analysis(const ConvPreview& p);
  void reduction_table(const ConvPreview& p);
  /// Width of the slide's table (its columns and cell padding), to place it beside the first table.
  float reduction_table_width(const ConvPreview& p) const;
  void signals(const ConvPreview& p);
  void tile_map(const ConvPreview& p);
  /// The block's threads as cells (1D: a row per warp; 2D: block_y rows of block_x), each coloured by
  /// its loads, within max_w x max_h pixels.
  void thread_grid(const ConvPreview& p, const ConvTileCounts& counts, float max_w, float max_h);
  /// 1D: the block's input window N[x0 - r .. x0 + tile + r) as cells (internal, halo, ghost) with the
  /// thread that stages each element (tiled kernels) or how often the mask loop reads it (basic kernels),
  /// above the output tile P[x0 ..] and the thread writing each: the slides' "Analysis - Small 1D Example".
  void input_window(const ConvPreview& p, const ConvTileCounts& c);
  void image(const char* title, ImageTexture& tex, ConstSpan<double> values, std::int64_t rows, std::int64_t cols,
             bool overlay, const ConvPreview& p, float side);

  std::optional<ConvPreview> preview_;
  ImageTexture input_tex_, output_tex_;
  bool textures_stale_ = true;
  std::size_t shown_runs_ = 0;     ///< runs in the shown report when the preview was made
  int block_x_ = 0, block_y_ = 0;  ///< the block the tile map shows
  /// The tile map's counts (from the sim model's trace) and what they were computed for.
  std::optional<ConvTileCounts> counts_;
  std::string counts_error_;
  int preview_gen_ = 0, counts_gen_ = -1;  ///< bumped when preview_ is recomputed
  int counts_x_ = -1, counts_y_ = -1;
};

}  // namespace ws::ui
