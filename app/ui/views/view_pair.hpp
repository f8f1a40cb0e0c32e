// Pair (side by side): two variants of the lesson at the same step in the same picture (Tree, Warps or Banks),
// e.g. reduce2's interleaved tree beside reduce3's sequential one. The left half is the selected
// variant's trace (ViewContext::trace), the right half a second variant's trace for the same parameters;
// one step index drives both (either half's controls and the arrow keys move it). The picture and the second
// variant are the view's own: a scene names them (Scene::pair_picture, Scene::pair_with), the controls change them.
#pragma once
#include <optional>
#include <string>

#include "view_context.hpp"
#include "views/view_banks.hpp"
#include "views/view_tree.hpp"
#include "views/view_warps.hpp"

namespace ws::ui {

/// What the Pair view shows: the picture and the variant on the right.
struct PairChoice {
  int picture = 0;     ///< 0 Tree, 1 Warps, 2 Banks (PairView::kPictures)
  std::string second;  ///< the variant on the right, "" = the lesson's variant after the selected one
};

class PairView {
 public:
  /// The pictures the pair can show: "tree", "warps", "banks".
  static const char* const kPictures[3];
  /// What scene `sc` asks the pair to show: Scene::pair_picture "tree" / "warps" / "banks" as 0 / 1 / 2 (Tree
  /// when it names none), Scene::pair_with as the second variant.
  static PairChoice choice_of(const Scene& sc);
  /// Takes the open scene's choice (choice_of) when a scene was opened since the last call (c.scene_serial
  /// changed and c.scene is set); the user's choice stays otherwise.
  void adopt(const controller::ViewContext& c);
  /// The picture drawn (0 Tree, 1 Warps, 2 Banks).
  int picture() const { return picture_; }
  /// The variant asked for on the right ("" = the lesson's next one; second_id() says which is drawn).
  const std::string& second() const { return second_; }
  /// Shows picture `picture` (0 Tree, 1 Warps, 2 Banks), as its button does.
  void set_picture(int picture) { picture_ = picture; }
  /// Draws picture() of the selected variant and of second_id(): the left half with the shared trace, the
  /// right with the second variant's (swapped into act.trace() while that half draws).
  void draw(const controller::ViewContext& c, controller::ViewActions& act);
  /// The variant drawn on the right: second() when set and not the selected one, else the lesson's
  /// variant after the selected one (before it for the last); "" when the lesson has one.
  std::string second_id(const controller::ViewContext& c) const;

 private:
  void refresh_other(const controller::ViewContext& c, const std::string& id);
  void draw_half(const controller::ViewContext& c, controller::ViewActions& act, int half);
  int picture_ = 0;
  std::string second_;
  int scene_serial_ = 0;  ///< ViewContext::scene_serial when adopt() last looked
  controller::TraceState other_;
  TreeView tree_[2];
  WarpsView warps_[2];
  BanksView banks_[2];
};

}  // namespace ws::ui
