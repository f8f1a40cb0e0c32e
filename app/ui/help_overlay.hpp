// Presentation mode: the keys (one place that both handles them and lists them in the help overlay),
// the high-contrast theme switch and the help overlay itself (F1 or ?).
#pragma once
#include <string>
#include <vector>

#include "app_state.hpp"

namespace ws::ui {

/// One keyboard shortcut as the help overlay lists it.
struct KeyHelp {
  const char* keys;
  const char* what;
};
/// Every global key, in the order the overlay shows them.
const std::vector<KeyHelp>& key_help();

/// Handles the global keys for this frame (not while a text field has focus): help, tabs 1-9 and 0, c Compare, g Plots,
/// n/p variant, r run, R run lesson, l Live, w sweep, Esc cancel/close, +/- font scale, h contrast,
/// f focus (views only), o pointer, d pen, e erase. Arrows and PageUp/PageDown: MainWindow::draw (AppState::nav_keys).
/// `views` are the tab names in order (1 selects views[0]).
void HandleGlobalKeys(controller::AppState& s, const std::vector<std::string>& views);

/// The overlay listing key_help(), centred over the window, when s.perf.present.show_help.
void DrawHelpOverlay(controller::AppState& s);

}  // namespace ws::ui
