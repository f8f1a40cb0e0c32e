// The one main window, fixed layout (ImGui 1.86 has no docking): report bar on top, lesson browser
// left, parameters and view tabs in the centre, status bar at the bottom. It is also the one place
// where the views' intents reach the RunWorker and its results reach the model.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "app_state.hpp"
#include "lesson_browser.hpp"
#include "parameters_panel.hpp"
#include "results_table.hpp"
#include "run_worker.hpp"
#include "status_bar.hpp"
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

class MainWindow {
 public:
  /// Names of the centre tabs, for --view ("results" first, then tree, warps, banks, source, memory,
  /// metrics, scan, conv, atomics, compare, plots, roofline, race, ladder, pair, grid, allreduce).
  static const std::vector<std::string>& views();
  /// Moves queued runs to the worker and finished results, progress and the device into `s`.
  /// On the first snapshot with no device, opens the newest report in `reports_dir` as a replay.
  static void exchange(AppState& s, RunWorker& worker, const std::string& reports_dir);
  /// Draws the whole window over `size` pixels at (0, 0); with Presentation::handout, the open view alone.
  void draw(AppState& s, ImVec2 size);
  /// Whether `name` is a step-through view (one picture per trace step: tree, warps, banks, source, memory,
  /// scan, atomics, race, ladder, pair); --export-steps takes only these.
  static bool is_step_view(const std::string& name);

 private:
  void draw_report_bar(AppState& s);
  void draw_message(AppState& s);
  void draw_narrative(AppState& s);
  void draw_views(AppState& s);
  void draw_handout(AppState& s, ImVec2 size);
  /// Draws view `name`'s content at the cursor; false for an unknown name.
  bool draw_view(AppState& s, const std::string& name);

  LessonBrowser browser_;
  ParametersPanel parameters_;
  ResultsTable results_;
  TreeView tree_;
  WarpsView warps_;
  BanksView banks_;
  SourceView source_;
  MemoryView memory_;
  MetricsView metrics_;
  ScanView scan_;
  ConvView conv_;
  AtomicsView atomics_;
  CompareView compare_;
  PlotsView plots_;
  RooflineView roofline_;
  RaceView race_;
  ScanLadderView ladder_;
  PairView pair_;
  GridView grid_;
  AllReduceView allreduce_;
  StatusBar status_;
  std::size_t dismissed_ = 0;  ///< messages before this index were dismissed
  std::string applied_view_;   ///< the view last forced open from s.view
  int handout_frames_ = 0;     ///< frames in a row drawn as the view alone (a handout or a PNG request)
};

}  // namespace ws::ui
