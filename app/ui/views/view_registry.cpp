#include "views/view_registry.hpp"

#include <algorithm>

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

/// A view whose class V has `void draw(AppState&)` (no base class: the views stay plain classes).
template <class V>
ViewInfo registered_view(const char* id, const char* label, bool steps,
                         void (*keys)(AppState&, const std::vector<NavKey>&, bool) = nullptr) {
  struct Panel final : ViewPanel {
    V view;
    void draw(AppState& s) override { view.draw(s); }
  };
  return ViewInfo{id, label, steps, keys, []() -> std::unique_ptr<ViewPanel> { return std::make_unique<Panel>(); }};
}

constexpr bool kSteps = true;  ///< a step-through view: the trace's steps (registered_view's `steps`)

}  // namespace

const std::vector<ViewInfo>& all_views() {
  // The tabs in order; the number keys 1-9 and 0 open the first ten. Labels at full length: the tab row
  // scales its text down rather than cutting them.
  static const std::vector<ViewInfo> views = {
      registered_view<ResultsTable>("results", "Results", false),
      registered_view<TreeView>("tree", "Tree", kSteps),
      registered_view<WarpsView>("warps", "Warps", kSteps),
      registered_view<BanksView>("banks", "Banks", kSteps),
      registered_view<SourceView>("source", "Source", kSteps),
      registered_view<MemoryView>("memory", "Memory", kSteps),
      registered_view<MetricsView>("metrics", "Metrics", false),
      registered_view<ScanView>("scan", "Scan", kSteps),
      registered_view<ConvView>("conv", "Convolution", false),
      registered_view<AtomicsView>("atomics", "Atomics", kSteps),
      registered_view<CompareView>("compare", "Compare", false),
      registered_view<PlotsView>("plots", "Plots", false),
      registered_view<RooflineView>("roofline", "Roofline", false),
      // The slides' own pictures: the race as a timeline, a block scan's steps stacked, two variants side by side.
      registered_view<RaceView>("race", "Race", kSteps),
      registered_view<ScanLadderView>("ladder", "Ladder", kSteps),
      registered_view<PairView>("pair", "Pair", kSteps),
      registered_view<GridView>("grid", "Grid", false),  // every warp of the launch at once, drawn by shaders
      // Reduction across GPUs: the schedule's steps (its own keys), not a trace's.
      registered_view<AllReduceView>("allreduce", "All-reduce", false, HandleAllReduceKeys),
  };
  return views;
}

const std::vector<std::string>& view_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> out;
    for (const ViewInfo& v : all_views()) out.push_back(v.id);
    return out;
  }();
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
