#include "patterns/convolution/conv_geometry.hpp"

#include "patterns/convolution/conv_inputs.hpp"

namespace ws {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace

std::int64_t ConvGeometry::shared_bytes() const {
  switch (kind) {
    case ConvKind::Tiled1D: return std::int64_t(block_x + mask_width - 1) * 4;
    case ConvKind::TiledCache1D: return std::int64_t(block_x) * 4;
    case ConvKind::Tiled2D: return std::int64_t(block_x) * block_y * 4;
    case ConvKind::Coarse2D: return std::int64_t(tile_x + mask_width - 1) * (tile_y + mask_width - 1) * 4;
    default: return 0;
  }
}

ConvShape ConvGeometry::shape() const {
  ConvShape s;
  s.mask_width = mask_width;
  s.tile_x = tile_x;
  s.tile_y = tile_y;
  s.block_x = block_x;
  s.block_y = block_y;
  s.grid_x = grid_x;
  s.grid_y = grid_y;
  s.width = width;
  s.height = height;
  s.shared_bytes = shared_bytes();
  return s;
}

std::string ConvGeometry::describe() const {
  if (dims == 1)
    return "block " + std::to_string(block_x) + ", grid " + std::to_string(grid_x) + ", tile " + std::to_string(tile_x);
  return "block " + std::to_string(block_x) + "x" + std::to_string(block_y) + ", grid " + std::to_string(grid_x) + "x" +
         std::to_string(grid_y) + ", output tile " + std::to_string(tile_x) + "x" + std::to_string(tile_y);
}

std::string conv_geometry(const VariantInfo& v, int mask_width, int tile, int block, std::int64_t width,
                          std::int64_t height, ConvGeometry& out) {
  ConvGeometry g;
  const std::string& variant_id = v.id;
  g.kind = v.conv;
  if (g.kind == ConvKind::None) return variant_id + " is not a convolution variant";
  if (mask_width < 1 || mask_width > kMaxMaskWidth || mask_width % 2 == 0)
    return "--mask-width " + std::to_string(mask_width) + " is not an odd number from 1 to " +
           std::to_string(kMaxMaskWidth);
  if (tile < 0) return "--tile must be positive, got " + std::to_string(tile);
  if (block < 0) return "--block must be positive, got " + std::to_string(block);
  g.mask_width = mask_width;
  g.dims = conv_kind_is_2d(g.kind) ? 2 : 1;
  if (width < 1) return "the input must have at least one element per row (width " + std::to_string(width) + ")";
  if (g.dims == 2 && height < 1) return variant_id + " needs a 2D input (height " + std::to_string(height) + ")";
  g.width = width;
  g.height = g.dims == 2 ? height : 0;

  if (g.dims == 1) {
    if (tile && block && tile != block)
      return variant_id + " computes one output per thread, so --tile (" + std::to_string(tile) + ") and --block (" +
             std::to_string(block) + ") must agree";
    const int b = tile ? tile : (block ? block : 256);
    if (b > 1024) return "block size " + std::to_string(b) + " is outside 1..1024";
    if ((g.kind == ConvKind::Tiled1D || g.kind == ConvKind::TiledCache1D) && b < mask_width / 2)
      return variant_id + " loads its halo with the first and last Mask_Width/2 = " + std::to_string(mask_width / 2) +
             " threads, so the tile must be at least that, got " + std::to_string(b);
    g.block_x = g.tile_x = b;
    g.grid_x = ceil_div(width, b);
    g.capacity = g.grid_x * b;
    out = g;
    return "";
  }

  if (block) return variant_id + " takes --tile (its block follows from the tile), not --block";
  switch (g.kind) {
    case ConvKind::Basic2D: {
      const int t = tile ? tile : 16;
      if (t > 32)
        return variant_id + ": a " + std::to_string(t) + "x" + std::to_string(t) + " tile needs more than 1024 threads";
      g.tile_x = g.tile_y = g.block_x = g.block_y = t;
      break;
    }
    case ConvKind::Tiled2D: {
      const int max_tile = 33 - mask_width;
      const int t = tile ? tile : max_tile;
      if (t > max_tile)
        return variant_id + ": block = tile + mask width - 1 = " + std::to_string(t + mask_width - 1) +
               " per side is over 32 (1024 threads); the largest tile for mask width " + std::to_string(mask_width) +
               " is " + std::to_string(max_tile);
      g.tile_x = g.tile_y = t;
      g.block_x = g.block_y = t + mask_width - 1;
      break;
    }
    case ConvKind::Register2D: {
      if (tile && tile != 32 * kConvRegCols)
        return variant_id + " has a fixed 128 x 32 output tile (block 32 x 4, 4 x 8 outputs per thread)";
      g.block_x = 32;
      g.block_y = 4;
      g.coarsen = kConvRegCols * kConvRegRows;
      g.tile_x = 32 * kConvRegCols;
      g.tile_y = 4 * kConvRegRows;
      break;
    }
    default: {  // Coarse2D
      if (tile && tile != 32)
        return variant_id + " has a fixed 32 x 64 output tile (block 32 x 8, 8 outputs per thread)";
      g.block_x = 32;
      g.block_y = 8;
      g.coarsen = kConvCoarsen;
      g.tile_x = 32;
      g.tile_y = 8 * kConvCoarsen;
      break;
    }
  }
  g.grid_x = ceil_div(width, g.tile_x);
  g.grid_y = ceil_div(height, g.tile_y);
  if (g.grid_y > 65535)
    return variant_id + ": " + std::to_string(g.grid_y) + " block rows exceed CUDA's grid limit of 65535";
  g.capacity = width * height;
  out = g;
  return "";
}

}  // namespace ws
