// CPU references of the convolution lesson ("CS 677 Lecture 6", Mordohai, Stevens CS 677 Lecture 6):
// what every convolution run (sim or GPU) is checked against. Pure functions, no CUDA.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "host_vector.hpp"

namespace ws {

/// A float32 array seen as rows x cols (row-major). rows = 0 means a 1D signal of cols elements.
struct Grid2 {
  std::int64_t rows = 0, cols = 0;
  std::int64_t size() const { return (rows == 0 ? 1 : rows) * cols; }
};

/// Element-wise expectation of a convolution: `expected` (accumulated in double from the float32
/// products, which are exact in double) and `scale` = sum of |N x M| over the same terms, the
/// float32 rounding scale of that element. Both have one entry per output element (scale: when asked for).
/// Computed on the host threads, each element's terms added in the order of the formula (bit-identical
/// to a loop over one element at a time).
struct ConvExpected {
  HostVector<double> expected, scale;
  int terms = 0;  ///< products per output element: Mask_Width (1D) or Mask_Width^2 (2D)
};

/// 1D convolution with ghost cells 0, seed 001 "Simple 1D Convolution Kernel":
/// P[i] = sum_j N[i - Mask_Width/2 + j] * M[j] over the j whose index lies in [0, Width).
/// n: Width elements; mask: Mask_Width (odd) coefficients. Throws std::invalid_argument on an even
/// or empty mask. with_scale = false leaves `scale` empty (a check with one scale for every element).
ConvExpected conv1d_reference(ConstSpan<float> n, const std::vector<float>& mask, bool with_scale = true);

/// 2D convolution with ghost cells 0, seed 001 "2D Convolution - Inside Cells" / "Ghost Cells":
/// P[r][c] = sum_{i,j} N[r - w/2 + i][c - w/2 + j] * M[i][j] over indices inside the image.
/// n: rows x cols row-major; mask: w x w row-major with w = mask_width odd. Throws
/// std::invalid_argument when the sizes do not agree or w is even.
ConvExpected conv2d_reference(ConstSpan<float> n, std::int64_t rows, std::int64_t cols, const std::vector<float>& mask,
                              int mask_width, bool with_scale = true);

/// Does a float32 output element match? |got - expected| <= (terms + 2) * 2^-24 * scale: the bound
/// of float32 rounding of `terms` products summed in any order, with or without fused multiply-adds.
bool conv_element_matches(double got, double expected, double scale, int terms);

/// Compares a whole output with the reference (on the host threads). Returns "" when every element matches, else one
/// line naming the first mismatch: "out[17] = 5, expected 6" (1D, cols = 0 or rows = 0) or
/// "out[3][4] = 5, expected 6" (2D: `cols` > 0 and rows > 0 give the index). A size mismatch
/// is reported as "output has X elements, expected Y".
std::string compare_conv_output(ConstSpan<double> got, const ConvExpected& ref, std::int64_t rows, std::int64_t cols);

/// compare_conv_output with one `scale` for every element (e.g. sum|M| x max|N|) and `terms` products each.
std::string compare_conv_output(ConstSpan<double> got, ConstSpan<double> expected, double scale, int terms,
                                std::int64_t rows, std::int64_t cols);

}  // namespace ws
