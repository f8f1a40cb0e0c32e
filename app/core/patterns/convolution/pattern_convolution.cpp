// The convolution pattern's spec (docs/patterns.md): "CS 677 Lecture 6", Mordohai, 1D and 2D
// float32 convolution with ghost cells 0. Inputs: conv_inputs.hpp; reference: reference_conv.hpp.
// The pattern's place in teaching order (PatternKind, all_patterns()), which app/core/CMakeLists.txt
// reads to generate PatternKind: smaller first.
// WS_PATTERN_ORDER 30
#include "patterns/convolution/pattern_convolution.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "parallel.hpp"
#include "patterns.hpp"
#include "patterns/convolution/conv_inputs.hpp"
#include "patterns/convolution/reference.hpp"
#include "sim/sim.hpp"

namespace ws {

int conv_dims(const VariantInfo& v) {
  if (v.conv == ConvKind::None) return 0;
  return conv_kind_is_2d(v.conv) ? 2 : 1;
}

std::string conv_setup(const VariantInfo& v, const PatternParams& p, int requested_block, const Input& in,
                       ConvSetup& out) {
  const int dims = conv_dims(v);
  if (!dims) return v.id + " is not a convolution variant";
  ConvSetup s;
  int w = p.mask_width;
  std::string err = make_conv_mask(p.mask, dims, w, s.mask);
  if (!err.empty()) return err;
  const std::int64_t cols = dims == 2 ? in.cols : in.n();
  const std::int64_t rows = dims == 2 ? in.rows : 0;
  err = conv_geometry(v, w, p.tile, requested_block, cols, rows, s.g);
  if (!err.empty()) return err;
  out = std::move(s);
  return "";
}

namespace {

std::string validate(const VariantInfo& v, const RunRequest& req) {
  const int dims = conv_dims(v);
  if (!dims) return v.id + " is not a convolution variant";
  if (req.params.width < 0 || req.params.height < 0) return "--width and --height must be positive";
  if (dims == 1 && req.params.height > 0) return v.id + " convolves a 1D signal: give --width (or --n), not --height";
  if (dims == 2 && req.n > 0 && req.params.width == 0)
    return v.id + " convolves a 2D image: give --width and --height (or an image file), not --n";
  if (dims == 1 && req.n > 0 && req.params.width > 0 && req.n != req.params.width)
    return "--n " + std::to_string(req.n) + " and --width " + std::to_string(req.params.width) + " disagree";
  // Mask and launch shape on a placeholder size: the tile, block and mask rules do not depend on it.
  Input probe;
  probe.type = DType::Float32;
  probe.f32.assign(1, 0.0f);
  probe.rows = dims == 2 ? 1 : 0;
  probe.cols = 1;
  ConvSetup s;
  return conv_setup(v, req.params, req.launch.block, probe, s);
}

std::string make_input(const VariantInfo& v, const RunRequest& req, Input& out) {
  const int dims = conv_dims(v);
  const bool generated = is_generated_kind(req.input);
  std::int64_t width = req.params.width, height = req.params.height;
  if (dims == 1 && width == 0) width = req.n;
  if (generated) {
    if (width == 0) width = dims == 1 ? kConvDefaultWidth1D : kConvDefaultSide2D;
    if (dims == 2 && height == 0) height = req.params.width ? width : kConvDefaultSide2D;
  }
  ConvInput c;
  std::string err = load_conv_input(req.input, dims, width, height, req.seed, c);
  if (!err.empty()) return err;
  Input in;
  in.type = DType::Float32;
  in.kind = c.kind;
  in.seed = req.seed;
  in.rows = c.rows;
  in.cols = c.cols;
  in.f32 = std::move(c.data);
  ConvSetup s;  // the size is known now: check the launch against it (grid limits)
  err = conv_setup(v, req.params, req.launch.block, in, s);
  if (!err.empty()) return err;
  out = std::move(in);
  return "";
}

ConvExpected expected_of(const VariantInfo& v, const PatternParams& p, const Input& in) {
  ConvSetup s;
  const std::string err = conv_setup(v, p, 0, in, s);
  if (!err.empty()) throw std::runtime_error(err);
  // The check uses one scale for every element (compare below): no per-element scale needed.
  return conv_dims(v) == 2 ? conv2d_reference(in.f32, in.rows, in.cols, s.mask, s.g.mask_width, false)
                           : conv1d_reference(in.f32, s.mask, false);
}

ArrayOutput reference(const VariantInfo& v, const PatternParams& p, const Input& in) {
  ArrayOutput out;
  out.values = expected_of(v, p, in).expected;
  out.rows = conv_dims(v) == 2 ? in.rows : 0;
  out.cols = conv_dims(v) == 2 ? in.cols : in.n();
  return out;
}

/// Element-wise within float32 rounding of Mask_Width (2D: its square) products in any order: the
/// bound of reference_conv.hpp with every element's scale taken as sum|M| * max|N| (no second pass
/// over the image for the exact per-element sums).
std::string compare(const VariantInfo& v, const PatternParams& p, const Input& in, const ArrayOutput& got,
                    const ArrayOutput& want) {
  if (got.rows != want.rows || (want.rows > 0 && got.cols != want.cols))
    return "output is " + std::to_string(got.rows) + " x " + std::to_string(got.cols) + ", expected " +
           std::to_string(want.rows) + " x " + std::to_string(want.cols);
  ConvSetup s;
  const std::string err = conv_setup(v, p, 0, in, s);
  if (!err.empty()) return err;
  double mask_abs = 0;
  for (float m : s.mask) mask_abs += std::fabs(double(m));
  const double input_max = chunked_reduce<double>(
      std::int64_t(in.f32.size()), kHostChunk, 0.0,
      [&](std::int64_t b, std::int64_t e) {
        double m = 0;
        for (std::int64_t i = b; i < e; ++i) m = std::max(m, std::fabs(double(in.f32[std::size_t(i)])));
        return m;
      },
      [](double a, double c) { return std::max(a, c); });
  // An exact value beyond float32 cannot come out of a float32 kernel: the request's numbers are at
  // fault, not the kernel (a 3e38 mask overflows at the first sum), so the run is an error that says so.
  if (mask_abs * input_max > double(std::numeric_limits<float>::max()))
    for (std::size_t i = 0; i < want.values.size(); ++i)
      if (std::fabs(want.values[i]) > double(std::numeric_limits<float>::max())) {
        char buf[320];
        std::snprintf(buf, sizeof buf,
                      "the exact out[%zu] = %.3g is beyond float32's range (3.4e38): the mask (sum of |weights| "
                      "%.3g) times the input (largest |value| %.3g) overflows float32; use smaller numbers",
                      i, want.values[i], mask_abs, input_max);
        throw std::invalid_argument(buf);
      }
  return compare_conv_output(got.values, want.values, mask_abs * input_max, int(s.mask.size()), want.rows, want.cols);
}

std::string sweep_refusal(const VariantInfo& v) {
  if (conv_dims(v) != 2) return "";
  return v.id +
         " convolves a 2-D image of --width x --height: sweeps vary a 1-D n (sweep the 1-D convolutions, "
         "or run it at chosen sizes)";
}

/// The centre element: a value every variant computes from a full window (the last one is a corner).
double summary(const VariantInfo&, const ArrayOutput& out) {
  if (out.values.empty()) return 0;
  if (out.rows > 0) return out.values[std::size_t((out.rows / 2) * out.cols + out.cols / 2)];
  return out.values[out.values.size() / 2];
}

/// A mask file's width (its values' count, or their square root in 2-D) replaces --mask-width's; a file
/// that cannot be read leaves the params as given (the run refuses it with the reason).
void resolve_params(const VariantInfo& v, PatternParams& p) {
  if (p.mask == "box" || p.mask == "gauss" || !conv_dims(v)) return;
  int w = p.mask_width;
  std::vector<float> mask;
  if (make_conv_mask(p.mask, conv_dims(v), w, mask).empty()) p.mask_width = w;
}

/// One multiply-add per output element and mask tap: n x mask_width (1D) or n x mask_width^2 (2D, n = pixels).
double operations(const VariantInfo& v, const PatternParams& p, std::int64_t n) {
  const double taps = conv_kind_is_2d(v.conv) ? double(p.mask_width) * p.mask_width : double(p.mask_width);
  return double(n) * taps;
}

/// Runs share an input when they convolve the same signal or image: its dimensions and size.
std::string input_key(const VariantInfo& v, const RunRequest& req) {
  if (conv_dims(v) == 0) return "";
  return "conv" + std::to_string(conv_dims(v)) + "d|" + std::to_string(req.params.width) + "x" +
         std::to_string(req.params.height);
}

/// The kernels convolve float32 signals and images, whatever --type asks for.
DType input_type(const VariantInfo& v, DType requested) { return conv_dims(v) > 0 ? DType::Float32 : requested; }

}  // namespace

PatternSpec convolution_pattern() {
  PatternSpec p;
  p.kind = PatternKind::Convolution;
  p.noun = "convolutions";
  p.options = kOptionImage;
  p.validate = validate;
  p.build_input = make_input;
  p.reference = reference;
  p.compare = compare;
  p.summary = summary;
  // bytes: nullptr = input + output (n elements read, n written), the measure.
  p.sweep_refusal = sweep_refusal;
  p.operations = operations;
  p.sim_models = sim::conv_models;
  p.resolve_params = resolve_params;
  p.input_key = input_key;
  p.input_type = input_type;
  return p;
}

}  // namespace ws
