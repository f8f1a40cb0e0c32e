// The page's session in the browser's storage (localStorage, key "warpscope.session"): the runs and sweeps
// made in the page (the session report, as Save session writes it) and where the student was (lesson,
// scene, view, variant). The page restores it when it opens again; an address that names a place
// (?lesson, ?scene, ?view, ?variant) wins over the stored place, and ?fresh=1 forgets the stored session.
#pragma once
#include <cstddef>
#include <string>

#include "app_state.hpp"

namespace ws::web {

/// Keeps the session in localStorage: restore() once at the page's start, save_if_changed() once per frame.
class BrowserSession {
 public:
  /// Reads the stored session into `s`: its runs, sweeps, parameters and opened report always, the place
  /// unless `place_given` and the look (font scale, high contrast, focus) unless `look_given` (the address
  /// named them). Returns the line the page shows ("" when nothing was stored; "restored ..." with
  /// the counts; or why the stored text was dropped: not JSON, not a session, a lesson that is gone).
  std::string restore(controller::AppState& s, bool place_given, bool look_given);
  /// Writes the session when its runs, sweeps or place changed since the last write. When the browser's
  /// storage refuses it (quota), the newest runs that fit are kept and `s` gets one warning, once.
  void save_if_changed(controller::AppState& s);
  /// Removes the stored session (?fresh=1).
  static void forget();
  /// The stored text's size in bytes (0 when none): for ws_status and the test.
  static std::size_t stored_bytes();

 private:
  std::string last_;  ///< the signature of what was last written
  bool warned_ = false;
};

}  // namespace ws::web
