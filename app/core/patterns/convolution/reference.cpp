#include "patterns/convolution/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "parallel.hpp"

namespace ws {

namespace {

void check_mask(std::size_t taps, int width, int dims, const char* what) {
  if (width <= 0 || width % 2 == 0)
    throw std::invalid_argument(std::string(what) + ": the mask width must be odd and positive, got " +
                                std::to_string(width));
  if (taps != std::size_t(width) * (dims == 2 ? std::size_t(width) : 1))
    throw std::invalid_argument(std::string(what) + ": the mask holds " + std::to_string(taps) + " coefficients");
}

std::string fmt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

namespace {

/// Adds tap `m` x x[k - shift] into s[k] (and |.| into a[k], when a is not null) for k in [lo, hi): one
/// tap of a row of outputs, in double (float32 products are exact in double).
void add_tap(double* __restrict__ s, double* __restrict__ a, const float* __restrict__ x, std::int64_t lo,
             std::int64_t hi, std::int64_t shift, double m) {
  if (a) {
    for (std::int64_t k = lo; k < hi; ++k) {
      const double p = double(x[k - shift]) * m;
      s[k] += p;
      a[k] += std::fabs(p);
    }
  } else {
    for (std::int64_t k = lo; k < hi; ++k) s[k] += double(x[k - shift]) * m;
  }
}

}  // namespace

ConvExpected conv1d_reference(ConstSpan<float> n, const std::vector<float>& mask, bool with_scale) {
  const int w = int(mask.size());
  check_mask(mask.size(), w, 1, "conv1d_reference");
  const std::int64_t width = std::int64_t(n.size());
  const std::int64_t r = w / 2;
  ConvExpected out;
  out.terms = w;
  out.expected.resize(n.size());  // zeros without a serial pass: HostVector's fresh blocks are zero
  if (with_scale) out.scale.resize(n.size());
  // Pieces of 4096 outputs (their sums stay in cache) on the host threads; inside a piece, tap by tap over
  // the outputs whose tap lies in [0, Width) (ghost cells 0 are skipped), so every output adds the same
  // terms in the same order (j ascending) as a loop over one output at a time, and the loop vectorizes.
  constexpr std::int64_t kPiece = 4096;
  parallel_chunks(width, kPiece, [&](std::int64_t b, std::int64_t e, std::int64_t) {
    for (int j = 0; j < w; ++j) {
      const std::int64_t lo = std::max(b, r - j), hi = std::min(e, width + r - j);  // i - r + j in [0, width)
      add_tap(out.expected.data(), with_scale ? out.scale.data() : nullptr, n.data(), lo, hi, r - j,
              double(mask[std::size_t(j)]));
    }
  });
  return out;
}

ConvExpected conv2d_reference(ConstSpan<float> n, std::int64_t rows, std::int64_t cols, const std::vector<float>& mask,
                              int mask_width, bool with_scale) {
  check_mask(mask.size(), mask_width, 2, "conv2d_reference");
  if (rows <= 0 || cols <= 0 || std::int64_t(n.size()) != rows * cols)
    throw std::invalid_argument("conv2d_reference: " + std::to_string(n.size()) + " elements do not form " +
                                std::to_string(rows) + " x " + std::to_string(cols));
  const std::int64_t r = mask_width / 2;
  ConvExpected out;
  out.terms = mask_width * mask_width;
  out.expected.resize(n.size());  // zeros without a serial pass: HostVector's fresh blocks are zero
  if (with_scale) out.scale.resize(n.size());
  // Rows on the host threads; inside a row, tap by tap (i, then j) over the columns whose tap lies inside
  // the image (ghost cells 0 are skipped): every element adds the same terms in the same order as a loop
  // over one element at a time, and the loop vectorizes.
  parallel_chunks(rows, 1, [&](std::int64_t y, std::int64_t, std::int64_t) {
    double* s = out.expected.data() + y * cols;
    double* a = with_scale ? out.scale.data() + y * cols : nullptr;
    for (int i = 0; i < mask_width; ++i) {
      const std::int64_t yy = y - r + i;
      if (yy < 0 || yy >= rows) continue;
      for (int j = 0; j < mask_width; ++j) {
        const std::int64_t lo = std::max<std::int64_t>(0, r - j), hi = std::min<std::int64_t>(cols, cols + r - j);
        add_tap(s, a, n.data() + yy * cols, lo, hi, r - j, double(mask[std::size_t(i * mask_width + j)]));
      }
    }
  });
  return out;
}

bool conv_element_matches(double got, double expected, double scale, int terms) {
  if (std::isnan(got) || std::isnan(expected)) return false;
  const double u = 5.9604644775390625e-8;  // 2^-24, float32 unit roundoff
  return std::fabs(got - expected) <= double(terms + 2) * u * scale;
}

namespace {

/// The first element of `got` outside the bound of conv_element_matches (scale_of(i): its scale), as
/// the one-line message of compare_conv_output; "" when all match. On the host threads.
template <class ScaleOf>
std::string first_conv_mismatch(ConstSpan<double> got, ConstSpan<double> expected, const ScaleOf& scale_of, int terms,
                                std::int64_t rows, std::int64_t cols) {
  if (got.size() != expected.size())
    return "output has " + std::to_string(got.size()) + " elements, expected " + std::to_string(expected.size());
  const std::int64_t bad = parallel_find_first(std::int64_t(got.size()), [&](std::int64_t k) {
    const std::size_t i = std::size_t(k);
    return !conv_element_matches(got[i], expected[i], scale_of(i), terms);
  });
  if (bad < 0) return "";
  const std::size_t i = std::size_t(bad);
  std::string where = "out[" + std::to_string(i) + "]";
  if (rows > 0 && cols > 0)
    where = "out[" + std::to_string(std::int64_t(i) / cols) + "][" + std::to_string(std::int64_t(i) % cols) + "]";
  return where + " = " + fmt(got[i]) + ", expected " + fmt(expected[i]);
}

}  // namespace

std::string compare_conv_output(ConstSpan<double> got, const ConvExpected& ref, std::int64_t rows, std::int64_t cols) {
  if (ref.scale.size() != ref.expected.size())
    throw std::invalid_argument("compare_conv_output: scale and expected differ in size");
  return first_conv_mismatch(
      got, ref.expected, [&](std::size_t i) { return ref.scale[i]; }, ref.terms, rows, cols);
}

std::string compare_conv_output(ConstSpan<double> got, ConstSpan<double> expected, double scale, int terms,
                                std::int64_t rows, std::int64_t cols) {
  return first_conv_mismatch(
      got, expected, [scale](std::size_t) { return scale; }, terms, rows, cols);
}

}  // namespace ws
