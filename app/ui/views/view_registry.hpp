// The centre views, in one list (issue 29): per view its id (--view's name, the page's view=, AppState::view),
// the tab's label, whether it steps through the trace, its own keys if any, and how to make the object
// that draws it. The tab row, the number keys, the stepping keys, --view and --export-steps (their help
// and their checks), the page's address and the tour all read this list; view_registry.cpp holds it, in
// tab order. A new view is its own view_<name>.{hpp,cpp} and one line there (or, in a test, one
// register_view() call: tests/fixture/test_stencil_view.cpp).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "app_state.hpp"

namespace ws::ui {

/// What a view keeps between frames (its zoom, scroll, caches), one per window, behind one call.
class ViewPanel {
 public:
  virtual ~ViewPanel() = default;
  /// Draws the view's content at the cursor.
  virtual void draw(controller::AppState& s) = 0;
};

/// One centre view.
struct ViewInfo {
  std::string id;     ///< --view's name, the page's view=, AppState::view: "results", "tree", ...
  std::string label;  ///< the tab's text: "Results", "Tree", ...
  /// A step-through view (one picture per trace step): its draw gets the trace refreshed first, the arrow
  /// keys and Space step the shared trace while it is open, and --export-steps takes it.
  bool steps = false;
  /// The view's own arrow keys and Space while it is open (before the trace's, for a step view); null: none.
  void (*keys)(controller::AppState& s, const std::vector<controller::NavKey>& keys, bool space) = nullptr;
  /// Makes the view's state and drawing (MainWindow makes one of each view).
  std::unique_ptr<ViewPanel> (*make)() = nullptr;
};

/// The entry of a view whose class V has `void draw(AppState&)` (no base class: the views stay plain
/// classes): `id` and `label` as ViewInfo's, `steps` true for a step-through view, `keys` its own keys or null.
template <class V>
ViewInfo make_view_info(const char* id, const char* label, bool steps,
                        void (*keys)(controller::AppState&, const std::vector<controller::NavKey>&, bool) = nullptr) {
  struct Panel final : ViewPanel {
    V view;
    void draw(controller::AppState& s) override { view.draw(s); }
  };
  return ViewInfo{id, label, steps, keys, []() -> std::unique_ptr<ViewPanel> { return std::make_unique<Panel>(); }};
}

/// Every centre view in tab order (1 selects the first, "results"), then those added by register_view().
const std::vector<ViewInfo>& all_views();
/// Adds a view after the built-in ones (a test's view, as register_pattern() adds a test's pattern), before
/// any MainWindow is made (each makes one panel per view when it is built). Throws std::logic_error for an
/// empty or taken id, an empty label or no `make`.
void register_view(ViewInfo view);
/// The ids of all_views(), in the same order.
const std::vector<std::string>& view_ids();
/// The view with this id; null for an unknown one.
const ViewInfo* find_view(const std::string& id);
/// The ids joined with ", " (every view, or the step views alone), as help and error messages list them.
std::string view_id_list(bool steps_only = false);

}  // namespace ws::ui
