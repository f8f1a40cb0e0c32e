// Pair (side by side): two variants of the lesson at the same step in the same picture (Tree, Warps or Banks),
// e.g. reduce2's interleaved tree beside reduce3's sequential one. The left half is the selected
// variant's trace (AppState::trace), the right half a second variant's trace for the same parameters;
// one step index drives both (either half's controls and the arrow keys move it).
#pragma once
#include <optional>
#include <string>

#include "app_state.hpp"
#include "views/view_banks.hpp"
#include "views/view_tree.hpp"
#include "views/view_warps.hpp"

namespace ws::ui {

class PairView {
 public:
  /// The pictures the pair can show: "tree", "warps", "banks".
  static const char* const kPictures[3];
  /// Draws AppState::pair_picture of the selected variant and of AppState::pair_second.
  void draw(controller::AppState& s);
  /// The variant drawn on the right: s.pair_second when set and not the selected one, else the
  /// lesson's variant after the selected one (before it for the last); "" when the lesson has one.
  static std::string second_id(const controller::AppState& s);

 private:
  void refresh_other(controller::AppState& s, const std::string& id);
  void draw_half(controller::AppState& s, int half);
  controller::TraceState other_;
  TreeView tree_[2];
  WarpsView warps_[2];
  BanksView banks_[2];
};

}  // namespace ws::ui
