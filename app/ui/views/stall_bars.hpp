// Stall reasons from PC sampling, drawn: a colour per reason, the Source view's stacked bar per line
// (its top three reasons coloured, the rest grey, the length its share of the file's busiest line)
// with a legend, and the Metrics view's rows per kernel. Draws a report's numbers; collects nothing.
#pragma once
#include <imgui.h>

#include <map>
#include <string>
#include <vector>

#include "metrics.hpp"

namespace ws::ui {

/// The colour of a stall reason (short name): the ten common ones distinct, the rare ones grey.
ImU32 StallColor(const std::string& reason);

/// The sampled lines of one source file, summed over the run's kernels.
struct StallColumn {
  std::map<int, LineStalls> lines;  ///< by 1-based line of the file
  double max_line = 0;              ///< samples of the busiest line (the bars' full length)
  double file_samples = 0;          ///< samples on this file's lines
  double run_samples = 0;           ///< samples of the whole run
  std::vector<StallCount> legend;   ///< the file's reasons, most samples first (at most 6)
  bool empty() const { return lines.empty(); }
};

/// The column for `file` (basename) from a run's PC sampling; empty when nothing was sampled there.
StallColumn stall_column(const PcSampling& p, const std::string& file);

/// Width of the bar column at the current scale.
float StallColumnWidth();

/// One line above the source: "stalls (PC sampling): N samples" and a swatch per legend reason,
/// each with its explanation on hover.
void StallLegend(const StallColumn& c);

/// The stacked bar of `line` in the rectangle at `origin` (`width` x `height`), with a tooltip naming
/// every reason and its share when the mouse is over it.
void StallBar(ImDrawList* dl, ImVec2 origin, float width, float height, const LineStalls& line, const StallColumn& c);

/// Rows for the Metrics view's table (4 columns): per kernel its samples, then per reason (>= 1 %) a
/// swatch, the name, its share and the explanation.
void StallTableRows(const PcSampling& p);

}  // namespace ws::ui
