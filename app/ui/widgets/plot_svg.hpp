// The plot widget's picture as SVG, for handouts: the same axes, ticks, series and reference lines that
// Plot() draws, as vector lines and text (no hover read-out). Pure: no ImGui context needed.
#pragma once
#include <string>
#include <vector>

#include "widgets/plot.hpp"

namespace ws::ui {

/// What Plot(cfg, series, refs) draws, as a self-contained SVG document of width x height pixels
/// (> 0) on `background` with text in `ink` (ImU32 colours, e.g. the theme's). Line and marker
/// series become polylines and circles, bars rectangles (hatched with their flag when wrong), references
/// dashed lines labelled at the right; the legend lists the series under the title.
std::string PlotSvg(const PlotConfig& cfg, const std::vector<PlotSeries>& series,
                    const std::vector<PlotReference>& refs, int width, int height, ImU32 background, ImU32 ink);

}  // namespace ws::ui
