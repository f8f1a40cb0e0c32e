// Thread-level CPU models of the convolution kernels of "CS 677 Lecture 6", Mordohai
// (kernels/convolution/stevens_conv.cu): the same indexing, guards, shared-memory tiles and order of
// additions, block by block. Used by the sim backend's convolution models and by the tests.
#pragma once
#include <cstdint>
#include <vector>

#include "host_vector.hpp"
#include "patterns/convolution/conv_geometry.hpp"
#include "trace/trace.hpp"

namespace ws::sim {

/// Global buffers named in ThreadOp::buffer by the convolution traces (0 and 1 as in kit::).
constexpr int kConvInput = 0, kConvOutput = 1, kConvMask = 3;

/// Runs every block of the kernel of `g.kind` on `input` (g.width or g.height x g.width floats,
/// row-major) with `mask` (g.mask_width or its square, row-major), accumulating in float in the
/// kernel's order. Returns the g.outputs() outputs, each the kernel's float value widened to double
/// (exact; the run's output type, so no second array and no widening pass). When `trace` is not null, records block
/// `trace_block` (linear: by * grid_x + bx) into it: steps "halo" / "load" (global loads into shared
/// memory), "compute" (the mask loop: one access per mask element, working threads = the threads that
/// compute) and "store"; threads are linear (ty * block_x + tx), so warps are 32 consecutive ones.
/// Throws std::invalid_argument on sizes that do not match g, or a trace block outside the grid.
/// The output (and the 1D kernels' zero-padded input) are HostVectors: fresh zero pages, first
/// written by the host threads that run the blocks, not by one serial zero fill.
HostVector<double> simulate_conv(const ConvGeometry& g, ConstSpan<float> input, const std::vector<float>& mask,
                                 std::int64_t trace_block, Trace* trace);

/// What one thread of a block does in a convolution kernel (the tile-map view's colours).
enum class ConvLoad : std::uint8_t {
  None,      ///< loads nothing into shared memory (basic kernels; 1D tiled: not a halo thread)
  Internal,  ///< loads an element of the block's own output tile into shared memory
  Halo,      ///< loads a halo element (a neighbour tile's) that lies inside the array
  Ghost,     ///< stores 0 for a halo element outside the array (no global load)
};
struct ConvThreadRole {
  ConvLoad load = ConvLoad::None;  ///< the thread's first (1D tiled: its halo) shared-memory store
  int loads = 0;                   ///< elements it loads from global memory into shared memory
                                   ///< (register-tiled: into registers, the values it uses)
  bool computes = false;           ///< runs the mask loop for an output
  bool writes = false;             ///< writes an output inside the array
};

/// The role of every thread (linear, ty * block_x + tx) of block (bx, by). 1D: by = 0. Coarse 2D: a
/// thread's `load` is that of its first element, `loads` counts all of them. Throws
/// std::invalid_argument for a block outside the grid.
std::vector<ConvThreadRole> conv_tile_map(const ConvGeometry& g, std::int64_t bx, std::int64_t by);

}  // namespace ws::sim
