// Sim models of the convolution variants of "CS 677 Lecture 6", Mordohai (docs/patterns.md): each runs
// the thread-level model of its kernel (conv_sim.cpp) on the run's input, mask and launch shape.
#include <stdexcept>

#include "patterns/convolution/conv_sim.hpp"
#include "patterns/convolution/pattern_convolution.hpp"
#include "sim/model_kit.hpp"
#include "sim/sim.hpp"

namespace ws::sim {

namespace {

/// One model for all eight kernels: conv_sim.cpp dispatches on the variant's kind. The launch's block
/// (the rules' default when none was asked for) counts only for 1D kernels without --tile.
SimOutput conv_model(const VariantInfo& v, const Input& in, const LaunchConfig& launch, const PatternParams& params,
                     int trace_block) {
  const int block = conv_dims(v) == 1 && params.tile == 0 ? launch.block : 0;
  ConvSetup s;
  const std::string err = conv_setup(v, params, block, in, s);
  if (!err.empty()) throw std::runtime_error(err);
  if (trace_block >= s.g.blocks())
    throw std::runtime_error(v.id + ": block index " + std::to_string(trace_block) + " is outside the grid of " +
                             std::to_string(s.g.blocks()) + " blocks");
  SimOutput out;
  out.trace.variant = v.id;
  out.trace.source = "sim";
  out.trace.n = in.n();
  out.trace.type = in.type;
  out.trace.launch = LaunchConfig{s.g.threads(), s.g.blocks()};
  out.output = simulate_conv(s.g, in.f32, s.mask, trace_block, trace_block >= 0 ? &out.trace : nullptr);
  out.output_rows = s.g.dims == 2 ? s.g.height : 0;
  out.output_cols = s.g.width;
  out.launches = 1;
  return out;
}

}  // namespace

std::vector<ModelEntry> conv_models() {
  return {
      {"stevens.conv1d_basic", conv_model},        {"stevens.conv1d_const", conv_model},
      {"stevens.conv1d_tiled", conv_model},        {"stevens.conv1d_tiled_cache", conv_model},
      {"stevens.conv2d_basic", conv_model},        {"stevens.conv2d_tiled", conv_model},
      {"stevens.conv2d_tiled_coarse", conv_model}, {"stevens.conv2d_register_tiled", conv_model},
  };
}

}  // namespace ws::sim
