// Inputs of the convolution lesson ("CS 677 Lecture 6", Mordohai): masks (box, gauss, file) and
// 1D/2D input arrays (generated, text files, PNG/JPEG images through stb_image from libstb-dev).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "host_vector.hpp"

namespace ws {

/// Largest mask width the kernels take: the constant-memory masks are sized for 15 x 15.
constexpr int kMaxMaskWidth = 15;

/// Builds a mask of `dims` (1 or 2) dimensions into `out` (w or w*w coefficients, row-major).
/// spec "box": every coefficient 1/w (1D) or 1/w^2 (2D). spec "gauss": g(k) = exp(-k^2 / (2 sigma^2))
/// for k = -w/2 .. w/2 with sigma = 0.3 ((w - 1)/2 - 1) + 0.8 (the usual rule of thumb for a width),
/// normalised to sum 1; 2D is the outer product g(i) g(j), normalised. Any other spec is a text file
/// of numbers (commas or white space): w numbers for 1D, w^2 for 2D; the file sets mask_width.
/// mask_width (in/out) must be odd, 1..kMaxMaskWidth. Returns "" or a one-line error.
std::string make_conv_mask(const std::string& spec, int dims, int& mask_width, std::vector<float>& out);

/// A convolution input: rows = 0 for a 1D signal of cols elements, else a rows x cols image.
struct ConvInput {
  std::string kind;  ///< "random", "ones", "sequence", or the file path
  std::int64_t rows = 0, cols = 0;
  HostVector<float> data;  ///< max(rows, 1) * cols values, row-major
};

/// Loads or generates the input of a `dims`-dimensional convolution.
/// kind "random" (uniform [0, 1) from seed), "ones", "sequence" (i % 16): `width` elements (1D) or
/// height x width (2D); width, height must be >= 1 and the total <= 2^30.
/// Any other kind is a path: for 2D a PNG or JPEG (read as 8-bit grey, values 0..255) or a text
/// file with one row per line (every row the same length); for 1D a text file of numbers.
/// A file sets the size; width/height given with a file (non-zero) must agree with it.
/// Returns "" or a one-line error naming the file.
std::string load_conv_input(const std::string& kind, int dims, std::int64_t width, std::int64_t height,
                            std::uint64_t seed, ConvInput& out);

/// Reads a PNG/JPEG (anything stb_image reads) as 8-bit grey into rows x cols floats 0..255.
/// Returns "" or a one-line error.
/// The image format `path`'s first bytes announce ("PNG", "JPEG", "BMP", "GIF", "PSD", "PNM", "HDR", "PIC"),
/// "" when none: such a file is read as an image (its errors name the format), never as text.
std::string image_format(const std::string& path);
std::string read_image_grey(const std::string& path, HostVector<float>& out, std::int64_t& rows, std::int64_t& cols);

/// Reads a text image: one row per line, numbers separated by commas or white space, blank lines
/// skipped, every row the same length. Returns "" or a one-line error with the line number.
std::string read_text_grid(const std::string& path, HostVector<float>& out, std::int64_t& rows, std::int64_t& cols);

}  // namespace ws
