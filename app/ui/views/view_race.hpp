// Race view: a racy variant's traced block as an interleaving timeline (race_timeline.hpp): a row per
// thread, time to the right, each thread's load of its value, its read of the shared word, its add and
// its write; lost writes in red, an arrow from each to the write that replaced it. Fits the view; zoom
// and pan (zoom_pan.hpp).
#pragma once
#include <optional>

#include "trace_source.hpp"
#include "view_context.hpp"
#include "views/race_timeline.hpp"
#include "widgets/zoom_pan.hpp"

namespace ws::ui {

class RaceView {
 public:
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  const Trace* built_from_ = nullptr;  ///< the trace `timeline_` was built from
  std::optional<controller::TraceKey> key_;
  RaceTimeline timeline_;
  ZoomPan zoom_;
};

}  // namespace ws::ui
