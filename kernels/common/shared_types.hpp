// Plain types and constants that the kernels and the app must agree on: the element type of a run, the
// largest n, the tile shapes of kernels whose CPU models copy them, and the launch shape of a
// convolution. No CUDA and no app header: kernels include only kernels/common, and app/core includes this.
#pragma once
#include <cstdint>

namespace ws {

/// Element type of a run's input. int32 sums wrap modulo 2^32 (as the GPU's int adds do).
/// uint8: bytes, the input of the histograms ("GPUs and CUDA 3", CS121, slide "Computing a histogram").
enum class DType { Int32, Float32, UInt8 };

/// Largest n a request may ask for (elements): 2^30, so indices stay in 32-bit ints as the slides write them.
constexpr std::int64_t kMaxN = std::int64_t(1) << 30;

/// Bins of the atomics lesson's histograms: one per byte value ("Computing a histogram": "Assume 256 different vals").
constexpr int kHistogramBins = 256;
/// Rounds of blockDim.x values each block filters in cs121.filter_shared: the slide's NPER_THREAD
/// (its value is not on the slide; 8 is ours). Shared by the registry, the kernel and the sim model.
constexpr int kFilterSharedItems = 8;
/// Tile of cs121.filter_scan: 256 threads x 16 values (ours; the slide names Thrust's copy_if only).
constexpr int kFilterScanBlock = 256, kFilterScanItems = 16;
/// Values per thread of cs121.filter_scan_vec (beyond the slide): 8 int4 loads, tiles of blockDim.x x 32
/// values (blockDim.x 128 or 256).
constexpr int kFilterScanVecItems = 32;

/// Outputs per thread of stevens.conv2d_tiled_coarse (a column of this many, slide "More on Sizes").
constexpr int kConvCoarsen = 8;
/// Outputs per thread of stevens.conv2d_register_tiled (tuned beyond the slides): kConvRegCols adjacent
/// columns (one float4) by kConvRegRows rows; blocks of 32 x 4 threads, output tile 128 x 32.
constexpr int kConvRegCols = 4, kConvRegRows = 8;

/// A convolution's resolved launch as the kernels read it (resolved by
/// app/core/patterns/convolution/conv_geometry.hpp).
/// 1D: block_y = grid_y = 1, tile_y = 1, height unused.
struct ConvShape {
  int mask_width = 5;
  int tile_x = 0, tile_y = 1;    ///< output elements per block in x and y
  int block_x = 0, block_y = 1;  ///< threads per block in x and y
  std::int64_t grid_x = 0, grid_y = 1;
  std::int64_t width = 0, height = 0;  ///< the array: width elements (1D) or height x width
  std::int64_t shared_bytes = 0;       ///< dynamic shared memory per block
};

}  // namespace ws
