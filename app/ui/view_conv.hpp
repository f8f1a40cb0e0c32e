// Convolution tab (seed 001_9970031c1e4143ff.txt): the selected variant's mask and tile controls,
// the slides' bandwidth-reduction numbers for that tile and mask, input and output (images side by
// side as textures, 1D signals as plots), and the tile map: per block, which threads load internal
// elements, halo elements or ghost cells, and which compute.
#pragma once
#include <optional>

#include "app_state.hpp"
#include "conv_preview.hpp"
#include "image_texture.hpp"

namespace ws::ui {

class ConvView {
 public:
  void draw(AppState& s);

 private:
  void controls(AppState& s, int dims);
  void draw_body(const ConvPreview& p);
  void analysis(const ConvPreview& p);
  void signals(const ConvPreview& p);
  void tile_map(const ConvPreview& p);
  void image(const char* title, ImageTexture& tex, ConstSpan<double> values, std::int64_t rows,
             std::int64_t cols, bool overlay, const ConvPreview& p, float side);

  std::optional<ConvPreview> preview_;
  ImageTexture input_tex_, output_tex_;
  bool textures_stale_ = true;
  std::size_t shown_runs_ = 0;     ///< runs in the shown report when the preview was made
  int block_x_ = 0, block_y_ = 0;  ///< the block the tile map shows
};

}  // namespace ws::ui
