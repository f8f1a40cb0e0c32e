#include "views/view_registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "results_table.hpp"
#include "views/view_allreduce.hpp"
#include "views/view_atomics.hpp"
#include "views/view_banks.hpp"
#include "views/view_compare.hpp"
#include "views/view_conv.hpp"
#include "views/view_grid.hpp"
#include "views/view_memory.hpp"
#include "views/view_metrics.hpp"
#include "views/view_pair.hpp"
#include "views/view_plots.hpp"
#include "views/view_race.hpp"
#include "views/view_roofline.hpp"
#include "views/view_scan.hpp"
#include "views/view_scan_ladder.hpp"
#include "views/view_source.hpp"
#include "views/view_tree.hpp"
#include "views/view_warps.hpp"

namespace ws::ui {

namespace {

constexpr bool kSteps = true;  ///< a step-through view: the trace's steps (make_view_info's `steps`)

/// The built-in views, then the registered ones (register_view).
std::vector<ViewInfo>& view_table() {
  // The tabs in order; the number keys 1-9 and 0 open the first ten. Labels at full length: the tab row
  // scales its text down rather than cutting them.
  static std::vector<ViewInfo> views = {
      make_view_info<ResultsTable>("results", "Results", false),
      make_view_info<TreeView>("tree", "Tree", kSteps),
      make_view_info<WarpsView>("warps", "Warps", kSteps),
      make_view_info<BanksView>("banks", "Banks", kSteps),
      make_view_info<SourceView>("source", "Source", kSteps),
      make_view_info<MemoryView>("memory", "Memory", kSteps),
      make_view_info<MetricsView>("metrics", "Metrics", false),
      make_view_info<ScanView>("scan", "Scan", kSteps),
      make_view_info<ConvView>("conv", "Convolution", false),
      make_view_info<AtomicsView>("atomics", "Atomics", kSteps),
      make_view_info<CompareView>("compare", "Compare", false),
      make_view_info<PlotsView>("plots", "Plots", false),
      make_view_info<RooflineView>("roofline", "Roofline", false),
      // The slides' own pictures: the race as a timeline, a block scan's steps stacked, two variants side by side.
      make_view_info<RaceView>("race", "Race", kSteps),
      make_view_info<ScanLadderView>("ladder", "Ladder", kSteps),
      make_view_info<PairView>("pair", "Pair", kSteps),
      make_view_info<GridView>("grid", "Grid", false),  // every warp of the launch at once, drawn by shaders
      // Reduction across GPUs: the schedule's steps (its own keys), not a trace's.
      make_view_info<AllReduceView>("allreduce", "All-reduce", false, HandleAllReduceKeys),
  };
  return views;
}

}  // namespace

const std::vector<ViewInfo>& all_views() { return view_table(); }

void register_view(ViewInfo view) {
  if (view.id.empty() || view.label.empty() || !view.make)
    throw std::logic_error("register_view: a view needs an id, a label and a make function");
  if (find_view(view.id)) throw std::logic_error("register_view: view id '" + view.id + "' is taken");
  view_table().push_back(std::move(view));
}

const std::vector<std::string>& view_ids() {
  static std::vector<std::string> ids;
  if (ids.size() != all_views().size()) {  // built on first use, again after a register_view()
    ids.clear();
    for (const ViewInfo& v : all_views()) ids.push_back(v.id);
  }
  return ids;
}

const ViewInfo* find_view(const std::string& id) {
  const std::vector<ViewInfo>& views = all_views();
  const auto it = std::find_if(views.begin(), views.end(), [&](const ViewInfo& v) { return v.id == id; });
  return it == views.end() ? nullptr : &*it;
}

std::string view_id_list(bool steps_only) {
  std::string list;
  for (const ViewInfo& v : all_views())
    if (!steps_only || v.steps) list += (list.empty() ? "" : ", ") + v.id;
  return list;
}

}  // namespace ws::ui
