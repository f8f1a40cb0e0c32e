// The one main window, fixed layout (ImGui 1.86 has no docking): report bar on top, lesson browser
// left, parameters and view tabs in the centre, status bar at the bottom. The views' intents reach the
// RunWorker, and its results the model, through the controller's exchange_with_worker (worker_exchange.hpp).
#pragma once
#include <imgui.h>

#include <memory>
#include <string>
#include <vector>

#include "app_state.hpp"
#include "lesson_browser.hpp"
#include "parameters_panel.hpp"
#include "status_bar.hpp"
#include "views/view_registry.hpp"

namespace ws::ui {

class MainWindow {
 public:
  MainWindow();
  /// Names of the centre tabs in order, for --view: view_ids() (views/view_registry.cpp lists the views).
  static const std::vector<std::string>& views();
  /// Draws the whole window over `size` pixels at (0, 0); with Presentation::handout, the open view alone.
  void draw(controller::AppState& s, ImVec2 size);
  /// Whether `name` is a step-through view (one picture per trace step; ViewInfo::steps); --export-steps
  /// takes only these.
  static bool is_step_view(const std::string& name);
  /// The panel drawing view `id` in this window (ViewPanelOf<V> for a view of class V), null for an unknown id.
  ViewPanel* panel(const std::string& id);

 private:
  void draw_report_bar(controller::AppState& s);
  void draw_message(controller::AppState& s);
  void draw_narrative(controller::AppState& s);
  void draw_views(controller::AppState& s);
  void draw_handout(controller::AppState& s, ImVec2 size);
  /// Draws view `name`'s content at the cursor; false for an unknown name.
  bool draw_view(controller::AppState& s, const std::string& name);

  LessonBrowser browser_;
  ParametersPanel parameters_;
  std::vector<std::unique_ptr<ViewPanel>> views_;  ///< one per all_views() entry, in its order
  StatusBar status_;
  std::size_t dismissed_ = 0;  ///< messages before this index were dismissed
  std::string applied_view_;   ///< the view last forced open from s.view
  int handout_frames_ = 0;     ///< frames in a row drawn as the view alone (a handout or a PNG request)
};

}  // namespace ws::ui
