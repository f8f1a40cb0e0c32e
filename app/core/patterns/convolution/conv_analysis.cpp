#include "patterns/convolution/conv_analysis.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ws {

namespace {

void check(std::int64_t extent, int tile, int mask_width) {
  if (extent < 1) throw std::invalid_argument("convolution analysis: the array is empty");
  if (tile < 1) throw std::invalid_argument("convolution analysis: tile must be >= 1, got " + std::to_string(tile));
  if (mask_width < 1 || mask_width % 2 == 0)
    throw std::invalid_argument("convolution analysis: the mask width must be odd, got " + std::to_string(mask_width));
}

/// Elements of [lo, hi] inside [0, extent).
std::int64_t inside(std::int64_t lo, std::int64_t hi, std::int64_t extent) {
  lo = std::max<std::int64_t>(lo, 0);
  hi = std::min<std::int64_t>(hi, extent - 1);
  return hi >= lo ? hi - lo + 1 : 0;
}

/// One dimension of one tile: outputs, loads and accesses along that dimension.
struct Axis {
  std::int64_t outputs = 0, loaded = 0, accesses = 0;
  bool internal = false;
};

Axis axis(std::int64_t extent, int tile, int mask_width, std::int64_t index) {
  const std::int64_t r = mask_width / 2, start = index * tile;
  if (index < 0 || start >= extent)
    throw std::invalid_argument("convolution analysis: tile " + std::to_string(index) + " lies outside the array");
  Axis a;
  const std::int64_t end = std::min<std::int64_t>(start + tile, extent);  // one past the last output
  a.outputs = end - start;
  a.loaded = inside(start - r, start + tile - 1 + r, extent);
  a.internal = start - r >= 0 && start + tile - 1 + r < extent;
  // Output i uses the in-range part of [i - r, i + r]: all mask_width elements unless i is within r of
  // an end of the array; only those few outputs are counted one by one.
  const std::int64_t full_lo = std::max(start, r), full_hi = std::min(end - 1, extent - 1 - r);
  const std::int64_t full = full_hi >= full_lo ? full_hi - full_lo + 1 : 0;
  a.accesses = full * mask_width;
  for (std::int64_t i = start; i < end; ++i) {
    if (full > 0 && i == full_lo) i = full_hi + 1;
    if (i >= end) break;
    a.accesses += inside(i - r, i + r, extent);
  }
  return a;
}

TileTraffic from_axis(const Axis& a) {
  TileTraffic t;
  t.outputs = a.outputs;
  t.loaded = a.loaded;
  t.accesses = a.accesses;
  t.internal = a.internal;
  return t;
}

TileTraffic product(const Axis& y, const Axis& x) {
  TileTraffic t;
  t.outputs = y.outputs * x.outputs;
  t.loaded = y.loaded * x.loaded;
  t.accesses = y.accesses * x.accesses;
  t.internal = y.internal && x.internal;
  return t;
}

/// Sums along one dimension, and the index of an internal tile (-1 when none).
struct AxisSums {
  std::int64_t tiles = 0, outputs = 0, loaded = 0, accesses = 0, internal_tiles = 0, some_internal = -1;
};

AxisSums sums(std::int64_t extent, int tile, int mask_width) {
  AxisSums s;
  s.tiles = (extent + tile - 1) / tile;
  for (std::int64_t k = 0; k < s.tiles; ++k) {
    const Axis a = axis(extent, tile, mask_width, k);
    s.outputs += a.outputs;
    s.loaded += a.loaded;
    s.accesses += a.accesses;
    if (a.internal) {
      ++s.internal_tiles;
      if (s.some_internal < 0) s.some_internal = k;
    }
  }
  return s;
}

}  // namespace

double bandwidth_reduction_1d(int tile, int mask_width) {
  return double(mask_width) * tile / double(tile + mask_width - 1);
}

double bandwidth_reduction_2d(int tile, int mask_width) {
  const double t = tile, k = mask_width, b = tile + mask_width - 1;
  return t * t * k * k / (b * b);
}

TileTraffic tile_traffic_1d(std::int64_t width, int tile, int mask_width, std::int64_t tile_index) {
  check(width, tile, mask_width);
  return from_axis(axis(width, tile, mask_width, tile_index));
}

TileTraffic tile_traffic_2d(std::int64_t rows, std::int64_t cols, int tile, int mask_width, std::int64_t tile_row,
                            std::int64_t tile_col) {
  check(rows, tile, mask_width);
  check(cols, tile, mask_width);
  return product(axis(rows, tile, mask_width, tile_row), axis(cols, tile, mask_width, tile_col));
}

ArrayTraffic array_traffic_1d(std::int64_t width, int tile, int mask_width) {
  check(width, tile, mask_width);
  const AxisSums s = sums(width, tile, mask_width);
  ArrayTraffic t;
  t.tiles = s.tiles;
  t.internal_tiles = s.internal_tiles;
  t.outputs = s.outputs;
  t.loaded = s.loaded;
  t.accesses = s.accesses;
  t.first = tile_traffic_1d(width, tile, mask_width, 0);
  if (s.some_internal >= 0) t.internal = tile_traffic_1d(width, tile, mask_width, s.some_internal);
  t.formula = bandwidth_reduction_1d(tile, mask_width);
  return t;
}

ArrayTraffic array_traffic_2d(std::int64_t rows, std::int64_t cols, int tile, int mask_width) {
  return array_traffic_2d(rows, cols, tile, tile, mask_width);
}

ArrayTraffic array_traffic_2d(std::int64_t rows, std::int64_t cols, int tile_y, int tile_x, int mask_width) {
  check(rows, tile_y, mask_width);
  check(cols, tile_x, mask_width);
  const AxisSums y = sums(rows, tile_y, mask_width), x = sums(cols, tile_x, mask_width);
  ArrayTraffic t;
  t.tiles = y.tiles * x.tiles;
  t.internal_tiles = y.internal_tiles * x.internal_tiles;
  t.outputs = y.outputs * x.outputs;
  t.loaded = y.loaded * x.loaded;
  t.accesses = y.accesses * x.accesses;
  t.first = product(axis(rows, tile_y, mask_width, 0), axis(cols, tile_x, mask_width, 0));
  if (y.some_internal >= 0 && x.some_internal >= 0)
    t.internal =
        product(axis(rows, tile_y, mask_width, y.some_internal), axis(cols, tile_x, mask_width, x.some_internal));
  const double k = mask_width;
  t.formula = double(tile_y) * tile_x * k * k / ((tile_y + k - 1) * (tile_x + k - 1));
  return t;
}

}  // namespace ws
