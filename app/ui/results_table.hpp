// The Results tab: a sortable table of the shown report's runs (time, bandwidth, check), with
// racy and slide-bug rows styled as lessons (amber), wrong/error red, ok green.
#pragma once
#include <string>
#include <vector>

#include "view_context.hpp"

namespace ws::ui {

class ResultsTable {
 public:
  /// Draws the report switcher (recorded file / this session) and the table; clicking a row
  /// selects its variant.
  void draw(const controller::ViewContext& c, controller::ViewActions& act);

 private:
  /// The switch; `replay` is whether the replay is shown, updated when a click changes it.
  void draw_source_switch(const controller::ViewContext& c, controller::ViewActions& act, bool& replay);
  void draw_table(const controller::ViewContext& c, controller::ViewActions& act, const Report& r);
  std::vector<int> order_;   ///< row order after sorting (indices into the report's runs)
  std::string scrolled_to_;  ///< the selected variant whose first row was last scrolled into view
  int center_frames_ = 0;    ///< frames left re-centring that row (rows above it settle their height first)
  /// What order_ and the measured column widths were computed for: work that grows with the report
  /// is done when it changes, not every frame.
  struct Key {
    const Report* report = nullptr;
    std::size_t runs = 0;
    std::string created, lesson;
    float font = 0;
    bool operator==(const Key& o) const {
      return report == o.report && runs == o.runs && created == o.created && lesson == o.lesson && font == o.font;
    }
  };
  Key key_;
  std::vector<float> need_;  ///< widest cell of each column for key_
  bool sorted_ = false;      ///< order_ follows the sort specs for key_
};

}  // namespace ws::ui
