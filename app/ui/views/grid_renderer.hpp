// The Grid view's picture, drawn by GLSL shaders (shaders/grid_heatmap.*) into a texture that the
// view shows as an ImGui image. ws_ui does not touch OpenGL: app/gui (which owns the GL 3.3 context)
// installs the renderer; without one (tests, no renderer) the view says so instead of drawing.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <string>

#include "grid_summary.hpp"

namespace ws::ui {

/// Colour-map stops (RGB, 0..1) the fragment shader interpolates over a metric's range, low to
/// high; the legend draws the same stops.
constexpr int kGridColorStops = 5;
struct GridColorMap {
  float rgb[kGridColorStops][3];
};
/// The map of a metric: active lanes from dark (idle) to bright (all 32 lanes); conflicts and sectors
/// from green (the best case) through yellow to red (32 ways, 32 sectors).
const GridColorMap& grid_color_map(controller::GridMetric m);
/// The value range [lo, hi] a metric's colour map spans (active lanes 0..32 linear, ways 1..32 and
/// sectors 4..32 on log2; values below lo take the first colour).
void grid_metric_range(controller::GridMetric m, float& lo, float& hi);
/// The colour of value `v` under the metric's map (the legend and the hover swatch; the shader does the same).
ImVec4 grid_color(controller::GridMetric m, float v);

/// One picture: the window of the grid to draw and the pixels to draw it into.
struct GridImageRequest {
  const controller::GridSummary* data = nullptr;
  std::uint64_t data_version = 0;  ///< a new version re-uploads the data texture
  controller::GridMetric metric = controller::GridMetric::ActiveLanes;
  double warp0 = 0, warp1 = 1;      ///< warps shown, top to bottom (fractional: zoom)
  double step0 = 0, step1 = 1;      ///< steps shown, left to right
  int width = 1, height = 1;        ///< pixels of the image
  float background[3] = {0, 0, 0};  ///< cells with no step (ragged tails, blocks not computed yet)
};

struct GridRendererApi {
  /// Draws `req` into the renderer's colour texture and returns it, or ImTextureID() with a one-line
  /// reason in `error` (no GL 3.3, shader compile or link error, texture too large). Never throws.
  ImTextureID (*render)(const GridImageRequest& req, std::string& error) = nullptr;
  /// Frees the renderer's GL objects (the GL context must still be current).
  void (*release)() = nullptr;
};

/// Installs the renderer (app/gui, with the GL context current).
void set_grid_renderer(const GridRendererApi& api);
/// The installed renderer, or nullptr.
const GridRendererApi* grid_renderer();

}  // namespace ws::ui
