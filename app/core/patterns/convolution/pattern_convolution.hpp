// The convolution pattern as core runs it (docs/patterns.md): the mask and launch shape of a run,
// shared by the hooks (pattern_convolution.cpp), the sim models and the CUDA runner.
#pragma once
#include <string>
#include <vector>

#include "inputs.hpp"
#include "pattern_params.hpp"
#include "patterns/convolution/conv_geometry.hpp"
#include "variant.hpp"

namespace ws {

/// Default signal length of a 1D convolution and side of a 2D one when neither --n, --width nor a
/// file gives a size: 2^20 samples, 1024 x 1024 pixels.
constexpr std::int64_t kConvDefaultWidth1D = std::int64_t(1) << 20;
constexpr std::int64_t kConvDefaultSide2D = 1024;

/// 1 or 2: the dimensions of a convolution variant's input (0 when `v` is not a convolution).
int conv_dims(const VariantInfo& v);

/// Everything a convolution run needs besides its input: the mask (row-major) and the launch shape.
struct ConvSetup {
  ConvGeometry g;
  std::vector<float> mask;
};

/// Builds the mask from p.mask ("box", "gauss" or a file, which sets the width) and p.mask_width, and
/// resolves the launch for the input's size (in.cols wide, in.rows high; 1D: rows = 0) with p.tile and
/// `requested_block` (the user's --block, 0 = none). Returns "" or one line naming the problem.
std::string conv_setup(const VariantInfo& v, const PatternParams& p, int requested_block, const Input& in,
                       ConvSetup& out);

}  // namespace ws
