#include "views/conv_preview.hpp"

#include <algorithm>
#include <exception>

#include "limits.hpp"
#include "registry.hpp"

namespace ws::ui {

ConvPreview make_conv_preview(const ConvPreviewKey& key, const Report* shown) {
  ConvPreview p;
  p.key = key;
  const VariantInfo* v = find_variant(key.variant);
  if (!v || v->conv == ConvKind::None) {
    p.error = key.variant + " is not a convolution variant";
    return p;
  }
  const PatternSpec& spec = pattern_of(*v);
  p.dims = conv_dims(*v);
  RunRequest req;
  req.variant = key.variant;
  req.type = DType::Float32;
  req.input = key.input;
  req.seed = key.seed;
  req.params = key.params;
  req.launch.block = p.dims == 1 ? key.block : 0;
  req.n = p.dims == 1 && key.params.width == 0 ? key.n : 0;
  const std::int64_t size =
      p.dims == 2 ? key.params.width * key.params.height : (key.params.width ? key.params.width : key.n);
  if (size > kConvPreviewMax) {
    p.error = "the preview stops at 2^22 elements (" + std::to_string(size) + " asked for); runs take any size";
    return p;
  }
  try {
    if (std::string e = spec.validate(*v, req); !e.empty()) return p.error = e, p;
    if (std::string e = spec.build_input(*v, req, p.input); !e.empty()) return p.error = e, p;
    if (std::string e = conv_setup(*v, key.params, req.launch.block, p.input, p.setup); !e.empty())
      return p.error = e, p;
    const ConvGeometry& g = p.setup.g;
    p.traffic = p.dims == 2 ? array_traffic_2d(g.height, g.width, g.tile_y, g.tile_x, g.mask_width)
                            : array_traffic_1d(g.width, g.tile_x, g.mask_width);
    if (shown)
      for (auto it = shown->runs.rbegin(); it != shown->runs.rend(); ++it)
        if (it->variant == key.variant && std::int64_t(it->output.size()) == p.input.n() &&
            it->output_rows == p.input.rows && (it->status == RunStatus::Ok || it->status == RunStatus::Wrong)) {
          p.output.values = it->output;
          p.output.rows = it->output_rows;
          p.output.cols = it->output_cols;
          p.output_source = "last run (" + std::string(to_string(it->backend)) + ", " + to_string(it->status) + ")";
          const auto& m = it->metrics.values;
          if (it->metrics.collected && m.count("dram__bytes_read.sum") && m.count("dram__bytes_write.sum")) {
            p.dram_read = m.at("dram__bytes_read.sum");
            p.dram_write = m.at("dram__bytes_write.sum");
          }
          return p;
        }
    p.output = spec.reference(*v, key.params, p.input);
    p.output_source = "CPU reference";
  } catch (const std::exception& e) { p.error = describe_exception(e); }
  return p;
}

std::vector<std::uint32_t> grey_pixels(ConstSpan<double> values, std::int64_t rows, std::int64_t cols, int max_side,
                                       int& out_w, int& out_h) {
  out_w = out_h = 0;
  if (rows <= 0 || cols <= 0 || std::int64_t(values.size()) < rows * cols || max_side < 1) return {};
  const std::int64_t step = std::max<std::int64_t>(1, (std::max(rows, cols) + max_side - 1) / max_side);
  out_w = int((cols + step - 1) / step);
  out_h = int((rows + step - 1) / step);
  std::vector<double> avg(std::size_t(out_w) * std::size_t(out_h), 0.0);
  std::vector<int> count(avg.size(), 0);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::size_t k = std::size_t((r / step) * out_w + c / step);
      avg[k] += values[std::size_t(r * cols + c)];
      ++count[k];
    }
  double lo = 0, hi = 0;
  for (std::size_t k = 0; k < avg.size(); ++k) {
    avg[k] /= count[k];
    if (k == 0 || avg[k] < lo) lo = avg[k];
    if (k == 0 || avg[k] > hi) hi = avg[k];
  }
  std::vector<std::uint32_t> px(avg.size());
  for (std::size_t k = 0; k < avg.size(); ++k) {
    const double t = hi > lo ? (avg[k] - lo) / (hi - lo) : 0.5;
    const auto g = std::uint32_t(std::clamp(t, 0.0, 1.0) * 255.0 + 0.5);
    px[k] = 0xFF000000u | (g << 16) | (g << 8) | g;
  }
  return px;
}

std::vector<float> plot_samples(ConstSpan<double> values, int max_points) {
  const std::size_t k = std::min(values.size(), std::size_t(std::max(0, max_points)));
  return std::vector<float>(values.begin(), values.begin() + std::ptrdiff_t(k));
}

}  // namespace ws::ui
