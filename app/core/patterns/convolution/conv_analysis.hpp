// The bandwidth-reduction analysis of tiled convolution, "CS 677 Lecture 6", Mordohai (Stevens CS 677
// Lecture 6), slides "A simple way to calculate tiling benefit", "Ghost Elements", "Bandwidth
// Reduction in 1D", "8x8 Output Tile" and "Bandwidth Reduction in 2D". Pure functions, no CUDA.
#pragma once
#include <cstdint>
#include <vector>

namespace ws {

/// Global-memory traffic of one tile, counted the slides' way (ghost cells are never loaded).
struct TileTraffic {
  std::int64_t outputs = 0;   ///< output elements of the tile that lie inside the array
  std::int64_t loaded = 0;    ///< input elements the block loads from global memory (inside the array)
  std::int64_t accesses = 0;  ///< uses of N elements by those outputs that shared memory serves
                              ///< instead of global memory (the basic kernel's global loads)
  bool internal = false;      ///< the tile's whole input tile (with halo) lies inside the array
  /// accesses / loaded: the bandwidth reduction (0 when nothing is loaded).
  double reduction() const { return loaded ? double(accesses) / double(loaded) : 0.0; }
};

/// Slide "Bandwidth Reduction in 1D": Mask_Width * TILE_SIZE / (TILE_SIZE + Mask_Width - 1), the
/// reduction of an internal tile. tile, mask_width >= 1.
double bandwidth_reduction_1d(int tile, int mask_width);

/// Slide "Bandwidth Reduction in 2D": TILE_SIZE^2 * KERNEL_SIZE^2 / (TILE_SIZE + KERNEL_SIZE - 1)^2.
double bandwidth_reduction_2d(int tile, int mask_width);

/// Tile `tile_index` (0-based, covering outputs [tile_index * tile, +tile)) of a 1D convolution of
/// `width` elements: internal tiles give the slide's (TILE + Mask_Width - 1) loads and
/// TILE * Mask_Width accesses (8, 5: 12 and 40); the first tile of a long array gives
/// TILE + (Mask_Width - 1)/2 loads and 37 accesses for 8, 5 (slide "Ghost Elements").
/// Throws std::invalid_argument on tile < 1, an even mask width, or a tile outside the array.
TileTraffic tile_traffic_1d(std::int64_t width, int tile, int mask_width, std::int64_t tile_index);

/// Tile (tile_row, tile_col) of a rows x cols 2D convolution with TILE x TILE output tiles and a
/// mask_width x mask_width mask. The counts are products of the two 1D counts (the neighbourhood
/// is a rectangle); internal 8x8 tiles with a 5x5 mask give 144 loads and 1600 accesses.
TileTraffic tile_traffic_2d(std::int64_t rows, std::int64_t cols, int tile, int mask_width, std::int64_t tile_row,
                            std::int64_t tile_col);

/// The analysis over a whole array: every tile's traffic summed, plus one internal and one corner
/// (first) tile to show next to each other.
struct ArrayTraffic {
  std::int64_t tiles = 0, internal_tiles = 0;
  std::int64_t outputs = 0, loaded = 0, accesses = 0;  ///< sums over all tiles
  TileTraffic first;     ///< tile 0 (1D) or (0, 0) (2D): a boundary tile unless the array is huge-tiled
  TileTraffic internal;  ///< an internal tile's traffic (all zero when the array has none)
  double formula = 0;    ///< bandwidth_reduction_1d / _2d of (tile, mask_width)
  /// accesses / loaded over the whole array.
  double reduction() const { return loaded ? double(accesses) / double(loaded) : 0.0; }
};

/// Sums over the ceil(width / tile) tiles of a 1D convolution. rows = 0 in the caller means 1D.
ArrayTraffic array_traffic_1d(std::int64_t width, int tile, int mask_width);

/// Sums over the ceil(rows / tile) x ceil(cols / tile) tiles of a 2D convolution (in O(rows + cols):
/// the totals factor into row and column sums).
ArrayTraffic array_traffic_2d(std::int64_t rows, std::int64_t cols, int tile, int mask_width);

/// The same for tile_y x tile_x output tiles (the coarsened and register-tiled variants' tiles are not
/// square); formula = tile_y * tile_x * K^2 / ((tile_y + K - 1)(tile_x + K - 1)), the slide's 2D
/// formula with the two sides apart.
ArrayTraffic array_traffic_2d(std::int64_t rows, std::int64_t cols, int tile_y, int tile_x, int mask_width);

}  // namespace ws
