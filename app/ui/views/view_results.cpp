// The Results tab's entry in the view list; the table itself is app/ui/results_table.{hpp,cpp}.
#include "results_table.hpp"
#include "views/view_registry.hpp"

namespace ws::ui {

/// The first tab (key 1): the runs of the report on screen.
/// Its tab stands at position 10 (all_views() sorts by it).
ViewInfo results_view_info() { return make_view_info<ResultsTable>(10, "results", "Results", false); }

}  // namespace ws::ui
