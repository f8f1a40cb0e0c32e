// The slides' bandwidth-reduction tables of tiled convolution, computed for more tile sizes and mask
// widths: "CS 677 Lecture 6", Mordohai, slides "Bandwidth Reduction in 1D" (Mask_Width * TILE_SIZE /
// (TILE_SIZE + Mask_Width - 1); tiles 16..256, masks 5 and 9) and "Bandwidth Reduction in 2D"
// (TILE_SIZE^2 * KERNEL_SIZE^2 / (TILE_SIZE + KERNEL_SIZE - 1)^2; tiles 8..64, kernels 5 and 9).
#pragma once
#include <vector>

namespace ws::ui {

/// reduction[m][t]: the internal tile's bandwidth reduction for masks[m] and tiles[t] (formula only:
/// a tile larger than a variant can launch still has its value, as on the slides).
struct BandwidthTable {
  int dims = 1;
  std::vector<int> tiles, masks;
  std::vector<std::vector<double>> reduction;
};

/// The slide's tiles (1D: 16, 32, 64, 128, 256; 2D: 8, 16, 32, 64) and mask widths (5, 9), with
/// `tile` and `mask_width` (the chosen ones) added in order where missing (ignored when < 1, or
/// an even mask width). dims: 1 or 2 (anything else is treated as 1).
BandwidthTable bandwidth_table(int dims, int tile, int mask_width);

}  // namespace ws::ui
