// The page's URL parameters: ?lesson=ID&scene=K&view=NAME&variant=ID&report=URL&font_scale=X&high_contrast=1
// &focus=1, as the desktop's --lesson, --scene, --view, --variant, --report, --font-scale, --high-contrast
// and --focus; &fresh=1 forgets the session the browser kept (browser_session.hpp).
#pragma once
#include <string>

#include "app_state.hpp"

namespace ws::web {

/// The parameters of the page's address ("" / 0 when absent).
struct PageParams {
  std::string lesson, view, variant, report;
  int scene = 0;           ///< 1-based, 0 = none
  float font_scale = 1.f;  ///< text and layout scale (0.5 to 4)
  bool high_contrast = false, focus = false;
  bool fresh = false;         ///< forget the stored session
  bool names_a_look = false;  ///< font_scale, high_contrast or focus given: they win over the stored ones
  /// The address names a place (lesson, scene, view or variant): it wins over the stored session's place.
  bool names_a_place() const { return !lesson.empty() || scene > 0 || !view.empty() || !variant.empty(); }
};

/// Reads location.search (percent-decoded; unknown keys are ignored).
PageParams read_page_params();

/// Applies them to `s` in the desktop's order (lesson, scene, then view and variant override the scene).
/// Returns "" or the first refusal (unknown lesson, scene, view or variant), which the page shows.
std::string apply_page_params(controller::AppState& s, const PageParams& p);

}  // namespace ws::web
