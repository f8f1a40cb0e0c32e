// What a centre view gets (issue 29): not the whole mutable AppState but a read-only ViewContext of what
// it draws (the report on screen, the selection, the parameters, the device line, the trace, the settings
// of the views that rank runs) and a narrow ViewActions through which it asks for the changes it may make:
// one call per intent (a message, a run, a view to open, a variant to select) and, for a view whose own
// controls edit a part of the model that others read too (the trace's player, the Compare and Plots
// settings, the All-reduce picture, the Grid summary, the kernel editor), that part alone. A view's own
// state (zoom, caches, its switches) stays in its class. Every centre view draws this way (view_registry.hpp's
// make_view_info takes no other draw).
#pragma once
#include <string>
#include <vector>

#include "app_state.hpp"

namespace ws::controller {

/// The part of AppState a view draws from, read-only; made fresh each frame (ViewContext::of).
struct ViewContext {
  using AllReduce = AppState::AllReduceView;  ///< the All-reduce picture's settings (a view names the type so)
  const Report& shown;                        ///< the report on screen: the session's runs or the opened replay
  bool showing_replay = false;                ///< `shown` is the replay (a report opened from disk)
  const Lesson* lesson = nullptr;             ///< the selected lesson, null if none
  const VariantInfo* variant = nullptr;       ///< the selected variant, null if none
  int step_index = -1;                        ///< the variant's position in its lesson (0-based), -1 if none
  const RunParams& params;                    ///< the parameters panel's values
  const DeviceStatus& device;                 ///< the device line (from the worker)
  const TraceState& trace;                    ///< the step-through trace of the selection
  const Report& session;                      ///< this session's runs (whether or not shown)
  const Report* replay = nullptr;             ///< the report opened from disk, null if none
  const std::string& replay_path;             ///< its path, "" if none
  const PerfState& perf;                      ///< Compare, Plots, Live, exports and the presentation switches
  const AppState::AllReduceView& allreduce;   ///< the All-reduce picture and its step
  const GridState& grid;                      ///< the Grid view's summary of every warp
  const KernelEdit& edit;                     ///< the Source view's editor
  const BoundEdit& bound;                     ///< the editor's "Find the bound"
  const std::string& view;                    ///< the open view's id
  const Scene* scene = nullptr;               ///< the open scene, null if none
  /// Counts the scenes opened so far (AppState::scene_serial): a view that takes options from a scene
  /// (Pair's picture and second variant) adopts them when this changes.
  int scene_serial = 0;
  TraceKey trace_key;  ///< what the trace of the current selection and parameters is computed for

  /// The context of `s` as it stands now (references into it: valid while `s` is unchanged).
  static ViewContext of(const AppState& s);
};

/// The changes a view may ask of the model (nothing else of AppState is reachable).
class ViewActions {
 public:
  /// Actions applied to `s`.
  explicit ViewActions(AppState& s) : s_(s) {}
  /// The hardware metrics the next runs collect: "" none, "default", "default,pcsampling".
  void set_metrics(const std::string& metrics);
  /// Posts a message (the main window shows the latest until dismissed).
  void say(Message::Level level, const std::string& text);
  /// Opens the centre view `id` (one of ui::view_ids()).
  void open_view(const std::string& id);
  /// Selects a variant (and a lesson listing it); false if unknown.
  bool select_variant(const std::string& id);
  /// Shows the replay (true) or this session's runs (false) in Results and the views that rank runs.
  void show_replay(bool on);
  /// Queues a run (the main window hands it to the run worker this frame).
  void queue_run(RunRequest req);
  /// Queues an all-reduce on the GPUs of the worker's machine (handed to the run worker this frame; the answer
  /// comes back into allreduce().measured, or its one line into allreduce().note).
  void queue_allreduce(const collective::AllReduceRequest& req);

  /// The parts whose controls sit in a view, for that view's controls to change:
  TraceState& trace();                   ///< the trace's player: step, block, play
  PerfState& perf();                     ///< Compare's picks, Plots' axes, export requests
  AppState::AllReduceView& allreduce();  ///< the All-reduce picture and its step
  GridState& grid();                     ///< the Grid view's summary and its warp window
  KernelEdit& edit();                    ///< the Source view's editor
  BoundEdit& bound();                    ///< the editor's "Find the bound"
  PatternParams& pattern_params();       ///< the pattern's parameters (the Convolution view's filter)
  /// Sets the parameters' threads per block (the Convolution view's 1D tile, in focus mode).
  void set_block(int block);
  /// Recomputes the trace when the selection or parameters changed (AppState::refresh_trace).
  void refresh_trace();

 private:
  AppState& s_;
};

}  // namespace ws::controller
