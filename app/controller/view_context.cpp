#include "view_context.hpp"

namespace ws::controller {

ViewContext ViewContext::of(const AppState& s) {
  return ViewContext{s.shown(),      s.showing_replay(), s.lesson(), s.variant(),
                     s.step_index(), s.params,           s.device,   s.trace};
}

void ViewActions::set_metrics(const std::string& metrics) { s_.params.metrics = metrics; }

}  // namespace ws::controller
