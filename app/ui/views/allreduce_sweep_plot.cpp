#include "views/allreduce_sweep_plot.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "collective/allreduce_picture.hpp"
#include "collective/link_model.hpp"
#include "paths.hpp"
#include "widgets/plot.hpp"
#include "widgets/theme.hpp"
#include "widgets/widgets.hpp"

namespace ws::ui {

namespace {

std::string sweep_gbs_text(double gbs) {
  char b[32];
  std::snprintf(b, sizeof b, gbs >= 10 ? "%.0f GB/s" : "%.2f GB/s", gbs);
  return b;
}

}  // namespace

const BundledAllReduce& bundled_allreduce() {
  // Read again only when the data folder changes (WARPSCOPE_DATA: tests point it elsewhere).
  static std::string dir;
  static BundledAllReduce b;
  const std::string now = (std::filesystem::path(assets_dir()) / "allreduce").string();
  if (now != dir || (b.files.empty() && b.problems.empty() && b.results.empty())) {
    dir = now;
    b = BundledAllReduce{};
    b.files = collective::load_allreduce_reports(dir, b.results, b.problems);
  }
  return b;
}

void AllReduceSweepPlot::draw(int gpus, int here_log2, ImVec2 size) {
  namespace co = collective;
  const Theme& t = theme();
  const co::AllReduceSweep w = co::make_sweep(gpus, co::kPictureMinBytesLog2, co::kPictureMaxBytesLog2,
                                              bundled_allreduce().results, co::nvlink4_model());
  x_.clear(), ring_y_.clear(), tree_y_.clear(), cross_x_.clear(), cross_y_.clear();
  double lo = 1e300, hi = 0;
  for (const auto& pt : w.points) {
    x_.push_back(double(pt.bytes));
    ring_y_.push_back(pt.ring_busbw_gbs);
    tree_y_.push_back(pt.tree_busbw_gbs);
    lo = std::min({lo, pt.ring_busbw_gbs, pt.tree_busbw_gbs});
    hi = std::max({hi, pt.ring_busbw_gbs, pt.tree_busbw_gbs});
  }
  std::vector<PlotSeries> series(2);
  series[0].label = "ring";
  series[1].label = "tree";
  series[0].set_style(0), series[1].set_style(1);
  series[0].x = series[1].x = x_.data();
  series[0].y = ring_y_.data(), series[1].y = tree_y_.data();
  series[0].count = series[1].count = int(x_.size());
  std::string cross;
  if (w.crossover >= 0) {
    const co::SweepPoint& pt = w.points[std::size_t(w.crossover)];
    cross_x_.push_back(double(pt.bytes)), cross_y_.push_back(pt.ring_busbw_gbs);
    PlotSeries m;
    m.label = "crossover: ring ahead from " + co::bytes_text(pt.bytes);
    m.color = ImGui::GetColorU32(t.colors().bad);
    m.style = PlotSeries::Scatter;
    m.marker = PlotMarker::Diamond;
    m.thickness = 6.f;
    m.x = cross_x_.data(), m.y = cross_y_.data(), m.count = 1;
    m.keep_in_legend = true;
    series.push_back(m);
    cross = "ring ahead from " + co::bytes_text(pt.bytes);
  } else {
    cross = w.ring_leads_everywhere ? "ring ahead at every size" : "tree ahead at every size";
  }
  PlotConfig cfg;
  // The crossover is named in the legend (its marker, or the ring's label when there is none), not the title.
  cfg.title = "busbw, " + std::to_string(w.gpus) + " GPUs, " + (w.measured ? "measured" : "simulated");
  if (w.crossover < 0) series[w.ring_leads_everywhere ? 0 : 1].label += ", ahead at every size";
  cfg.x_label = "bytes per GPU";
  cfg.y_label = "busbw";
  cfg.x = AxisSpec{double(std::int64_t(1) << co::kPictureMinBytesLog2),
                   double(std::int64_t(1) << co::kPictureMaxBytesLog2), true, 2, AxisUnit::Bytes};
  cfg.y = AxisSpec{std::max(1e-3, lo / 1.6), std::max(1.0, hi * 1.6), true, 10, AxisUnit::GBps};
  cfg.max_x_ticks = 5;
  if (size.y < t.px(220)) {  // no room for a readable plot (large text): the numbers it would show
    ImGui::TextWrapped("%s: %s", cfg.title.c_str(), cross.c_str());
    ItemTooltip(w.source);
    // The picture's size: the model has every doubling size, a measurement only the sizes it ran.
    const std::int64_t bytes = std::int64_t(1)
                               << std::clamp(here_log2, co::kPictureMinBytesLog2, co::kPictureMaxBytesLog2);
    for (const co::SweepPoint& here : w.points)
      if (here.bytes == bytes)
        TextEllipsis("at " + co::bytes_text(here.bytes) + ": ring " + sweep_gbs_text(here.ring_busbw_gbs) + ", tree " +
                         sweep_gbs_text(here.tree_busbw_gbs),
                     ImGui::GetContentRegionAvail().x);
    return;
  }
  Plot("##allreduce_sweep", cfg, series, {}, size);
  ItemTooltip(w.source);
}

}  // namespace ws::ui
