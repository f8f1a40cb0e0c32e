// The Convolution tab's tile map, counted from the sim model's trace of one block (what the kernel
// does, load by load), not from a rule per thread: "CS 677 Lecture 6", Mordohai, slides "Loading
// Left Halo" .. "Ghost Cells" (1D) and "Taking Care of Boundaries" (2D).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host_vector.hpp"
#include "patterns/convolution/conv_geometry.hpp"
#include "trace/trace.hpp"

namespace ws::ui {

/// What one thread of the traced block did with the input N (element counts).
struct ConvThreadLoads {
  int internal = 0;       ///< staging loads (into shared memory or registers) of the block's own output tile
  int halo = 0;           ///< staging loads of elements outside the tile but inside the array
  int padding = 0;        ///< staging loads past the array's end (1D kernels read their zero-padded N[i])
  int ghost = 0;          ///< shared stores of 0 for a ghost cell (no global load)
  int direct = 0;         ///< loads of N in the mask loop itself (basic kernels; the cache variant's halo)
  bool computes = false;  ///< does work in a compute step
  bool writes = false;    ///< stores an output inside the array
  int staged() const { return internal + halo + padding; }
};

/// The counts of one block: per thread (linear ty * block_x + tx) and summed.
struct ConvTileCounts {
  std::vector<ConvThreadLoads> threads;
  ConvThreadLoads total;  ///< sums (computes/writes: unused)
  int computing = 0, writing = 0;
  /// 1D: per element of N (its index), the thread that stages it (loads it into shared memory or
  /// registers in a load or halo step); an element staged twice keeps its first loader.
  std::map<std::int64_t, int> staged_by;
  /// 1D: per element of N, its loads in the mask loop (a basic kernel reads an element once per output
  /// that uses it, up to Mask_Width times).
  std::map<std::int64_t, int> direct_reads;
  /// Per shared slot, the thread that stores 0 there without a load (a ghost cell).
  std::map<std::int64_t, int> ghost_slots;
  /// Global loads of N that bring the tile into shared memory or registers: internal + halo + padding.
  int staged() const { return total.staged(); }
};

/// Counts trace `t` of block (bx, by) of a launch of shape `g`: loads of N (buffer 0) in the "load" and
/// "halo" steps are staging loads, split by where the element lies (the block's tile_x x tile_y output
/// tile, the rest of the array, past its end); in those steps a thread's shared stores beyond its
/// loads are ghost cells; loads of N in "compute" steps are direct. Throws std::invalid_argument when
/// the trace is not of that block or has a thread outside it.
ConvTileCounts count_tile_loads(const ConvGeometry& g, const Trace& t, std::int64_t bx, std::int64_t by);

/// Runs the sim model of `g` on `input` with `mask` (as simulate_conv) tracing block (bx, by), and
/// counts it. Throws what simulate_conv throws.
ConvTileCounts model_tile_counts(const ConvGeometry& g, ConstSpan<float> input, const std::vector<float>& mask,
                                 std::int64_t bx, std::int64_t by);

}  // namespace ws::ui
