#include "views/conv_bandwidth_table.hpp"

#include <algorithm>

#include "patterns/convolution/conv_analysis.hpp"

namespace ws::ui {

namespace {

void add_sorted(std::vector<int>& v, int x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.insert(std::upper_bound(v.begin(), v.end(), x), x);
}

}  // namespace

BandwidthTable bandwidth_table(int dims, int tile, int mask_width) {
  BandwidthTable t;
  t.dims = dims == 2 ? 2 : 1;
  t.tiles = t.dims == 2 ? std::vector<int>{8, 16, 32, 64} : std::vector<int>{16, 32, 64, 128, 256};
  t.masks = {5, 9};
  if (tile >= 1) add_sorted(t.tiles, tile);
  if (mask_width >= 1 && mask_width % 2 == 1) add_sorted(t.masks, mask_width);
  for (int m : t.masks) {
    std::vector<double> row;
    for (int k : t.tiles) row.push_back(t.dims == 2 ? bandwidth_reduction_2d(k, m) : bandwidth_reduction_1d(k, m));
    t.reduction.push_back(row);
  }
  return t;
}

}  // namespace ws::ui
