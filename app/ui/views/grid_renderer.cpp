#include "grid_renderer.hpp"

#include <algorithm>
#include <cmath>

namespace ws::ui {

using controller::GridMetric;

namespace {
GridRendererApi g_api;
bool g_set = false;
}  // namespace

void set_grid_renderer(const GridRendererApi& api) {
  g_api = api;
  g_set = api.render != nullptr && api.release != nullptr;
}

const GridRendererApi* grid_renderer() { return g_set ? &g_api : nullptr; }

const GridColorMap& grid_color_map(GridMetric m) {
  // Lanes: a viridis-like ramp, dark = idle, so divergence reads as a darker band.
  static const GridColorMap lanes{{{0.16f, 0.05f, 0.30f},
                                   {0.23f, 0.32f, 0.55f},
                                   {0.13f, 0.57f, 0.55f},
                                   {0.37f, 0.79f, 0.38f},
                                   {0.99f, 0.91f, 0.14f}}};
  // Costs: green is the best case, red the worst (32 ways, 32 sectors).
  static const GridColorMap cost{{{0.20f, 0.75f, 0.35f},
                                  {0.75f, 0.85f, 0.20f},
                                  {0.98f, 0.75f, 0.15f},
                                  {0.95f, 0.42f, 0.15f},
                                  {0.90f, 0.15f, 0.20f}}};
  return m == GridMetric::ActiveLanes ? lanes : cost;
}

void grid_metric_range(GridMetric m, float& lo, float& hi) {
  // Sectors start at 4: a warp's 32 lanes reading 4 consecutive bytes each fill 4 sectors, the best a
  // whole warp can do, so 4 and fewer are green.
  lo = m == GridMetric::ActiveLanes ? 0.f : m == GridMetric::Sectors ? 4.f : 1.f;
  hi = 32.f;
}

ImVec4 grid_color(GridMetric m, float v) {
  float lo = 0, hi = 1;
  grid_metric_range(m, lo, hi);
  // Lanes on a linear scale; ways and sectors on log2 (lo, 2 lo, .. 32 evenly spaced), as in the shader.
  float t = m == GridMetric::ActiveLanes ? (v - lo) / (hi - lo) : std::log2(std::max(v, lo) / lo) / std::log2(hi / lo);
  t = std::clamp(t, 0.f, 1.f) * float(kGridColorStops - 1);
  const int i = std::min(int(t), kGridColorStops - 2);
  const float f = t - float(i);
  const GridColorMap& c = grid_color_map(m);
  return ImVec4(c.rgb[i][0] + (c.rgb[i + 1][0] - c.rgb[i][0]) * f, c.rgb[i][1] + (c.rgb[i + 1][1] - c.rgb[i][1]) * f,
                c.rgb[i][2] + (c.rgb[i + 1][2] - c.rgb[i][2]) * f, 1.f);
}

}  // namespace ws::ui
