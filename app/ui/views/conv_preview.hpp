// The Convolution tab's model (no ImGui): the selected variant's input, its output (the last run's
// when the shown report has one of the same shape, else the CPU reference), the launch shape, the
// slides' bandwidth-reduction analysis for the tile and mask, and grey pixels for the images.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "patterns.hpp"
#include "patterns/convolution/conv_analysis.hpp"
#include "patterns/convolution/pattern_convolution.hpp"
#include "report.hpp"

namespace ws::ui {

/// What a preview is computed for; any change recomputes it.
struct ConvPreviewKey {
  std::string variant;
  PatternParams params;
  std::int64_t n = 0;  ///< 1D signal length when params.width is 0
  std::string input;   ///< "random", "ones", "sequence"
  std::uint64_t seed = 1;
  int block = 0;  ///< the parameters' block (1D: the tile; 0 = default)
  bool operator==(const ConvPreviewKey& o) const {
    return variant == o.variant && n == o.n && input == o.input && seed == o.seed && block == o.block &&
           params.mask_width == o.params.mask_width && params.tile == o.params.tile && params.mask == o.params.mask &&
           params.width == o.params.width && params.height == o.params.height;
  }
  bool operator!=(const ConvPreviewKey& o) const { return !(*this == o); }
};

struct ConvPreview {
  ConvPreviewKey key;
  std::string error;  ///< non-empty: nothing else is valid
  int dims = 1;
  Input input;
  ArrayOutput output;
  std::string output_source;  ///< "CPU reference" or "last run (cuda, ...)"
  ConvSetup setup;
  ArrayTraffic traffic;  ///< conv_analysis over the whole array for the setup's tile and mask
  /// DRAM bytes of the last run (CUPTI dram__bytes_read.sum / dram__bytes_write.sum), -1 when not measured.
  double dram_read = -1, dram_write = -1;
};

/// Largest array the tab previews: 2^22 elements (4 Mpixels, a 2048 x 2048 image).
constexpr std::int64_t kConvPreviewMax = std::int64_t(1) << 22;

/// Builds the preview of `key` (through the convolution hooks, like a run); takes the output of the
/// newest run of the variant in `shown` whose output has the input's shape, else the CPU reference.
/// Never throws: problems go to `error`.
ConvPreview make_conv_preview(const ConvPreviewKey& key, const Report* shown);

/// rows x cols values (row-major) as grey RGBA8 pixels (0xAABBGGRR), min..max stretched to 0..255,
/// downsampled by averaging to at most max_side pixels per side; out_w/out_h give the result's size.
std::vector<std::uint32_t> grey_pixels(ConstSpan<double> values, std::int64_t rows, std::int64_t cols, int max_side,
                                       int& out_w, int& out_h);

/// The first max_points samples of a 1D signal (a window short enough to see the smoothing), as floats.
std::vector<float> plot_samples(ConstSpan<double> values, int max_points);

}  // namespace ws::ui
