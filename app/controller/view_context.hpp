// What a centre view gets (issue 29): not the whole mutable AppState but a read-only ViewContext of what
// it draws (the report on screen, the selection, the parameters, the device line, the trace) and a narrow
// ViewActions through which it asks for the few changes it may make. A view's own state (zoom, caches, its
// switches) stays in its class. Views not converted yet still draw from AppState (view_registry.hpp's
// make_view_info calls whichever draw the class has).
#pragma once
#include <string>

#include "app_state.hpp"

namespace ws::controller {

/// The part of AppState a view draws from, read-only; made fresh each frame (ViewContext::of).
struct ViewContext {
  const Report& shown;                   ///< the report on screen: the session's runs or the opened replay
  bool showing_replay = false;           ///< `shown` is the replay (a report opened from disk)
  const Lesson* lesson = nullptr;        ///< the selected lesson, null if none
  const VariantInfo* variant = nullptr;  ///< the selected variant, null if none
  int step_index = -1;                   ///< the variant's position in its lesson (0-based), -1 if none
  const RunParams& params;               ///< the parameters panel's values
  const DeviceStatus& device;            ///< the device line (from the worker)
  const TraceState& trace;               ///< the step-through trace of the selection

  /// The context of `s` as it stands now (references into it: valid while `s` is unchanged).
  static ViewContext of(const AppState& s);
};

/// The changes a view may ask of the model, one call each (nothing else of AppState is reachable).
class ViewActions {
 public:
  /// Actions applied to `s`.
  explicit ViewActions(AppState& s) : s_(s) {}
  /// The hardware metrics the next runs collect: "" none, "default", "default,pcsampling".
  void set_metrics(const std::string& metrics);

 private:
  AppState& s_;
};

}  // namespace ws::controller
