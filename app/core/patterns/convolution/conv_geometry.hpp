// Launch shapes of the convolution variants ("CS 677 Lecture 6", Mordohai): block, grid, output tile
// and buffer capacity, derived from the variant and the run's parameters. Pure; shared by the CUDA
// runner, the sim models and the tile-map view so that all three agree.
#pragma once
#include <cstdint>
#include <string>

#include "variant.hpp"

namespace ws {

/// A resolved convolution launch. 1D: block_y = grid_y = 1, tile_y = 1.
struct ConvGeometry {
  ConvKind kind = ConvKind::Basic1D;
  int dims = 1;
  int mask_width = 5;
  int tile_x = 0, tile_y = 1;    ///< output elements per block in x and y
  int block_x = 0, block_y = 1;  ///< threads per block in x and y
  std::int64_t grid_x = 0, grid_y = 1;
  int coarsen = 1;                     ///< outputs per thread
  std::int64_t width = 0, height = 0;  ///< the array: width elements (1D) or height x width
  /// Elements the input and output buffers hold: the 1D slide kernels read N[i] and write P[i] for
  /// every thread of the grid without a bound check, so 1D buffers hold grid_x * block_x elements
  /// (the input zero-padded, which is also the ghost-cell value); 2D kernels check bounds: width * height.
  std::int64_t capacity = 0;
  int threads() const { return block_x * block_y; }
  std::int64_t blocks() const { return grid_x * grid_y; }
  std::int64_t outputs() const { return (dims == 2 ? height : 1) * width; }
  /// Bytes of shared memory per block the kernel asks for (dynamic).
  std::int64_t shared_bytes() const;
  /// "block 32x32, grid 293x293, output tile 28x28" (1D: "block 256, grid 4096, tile 256").
  std::string describe() const;
  /// What the kernels read (kernels/common/shared_types.hpp).
  ConvShape shape() const;
};

/// Resolves the launch of a convolution variant (its VariantInfo::conv). mask_width: odd, 1..15. tile, block: 0 =
/// default.
/// 1D: one output per thread, tile = block (default 256; both given must agree); the tiled kernels
/// need blockDim.x >= Mask_Width/2 (the halo is loaded by the first and last Mask_Width/2 threads).
/// stevens.conv2d_basic: tile x tile threads (default 16). stevens.conv2d_tiled: block = tile +
/// mask_width - 1 per side (slide "Setting Block Size"), at most 32 (1024 threads), default tile
/// 33 - mask_width so that a warp is one row. stevens.conv2d_tiled_coarse: block 32 x 8, output tile
/// 32 x 64 (tile must be 0 or 32). stevens.conv2d_register_tiled: block 32 x 4, 4 x 8 outputs per
/// thread, output tile 128 x 32 (tile must be 0 or 128). 2D variants take --tile, not --block (block must be 0).
/// Grids cover the array: ceil(width / tile_x) x ceil(height / tile_y) (the slide's
/// N.width/TILE_SIZE would drop a partial last tile). Returns "" or one line naming the problem.
std::string conv_geometry(const VariantInfo& v, int mask_width, int tile, int block, std::int64_t width,
                          std::int64_t height, ConvGeometry& out);

}  // namespace ws
