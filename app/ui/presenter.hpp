// Lecture aids: the scene line (which scene of the lesson's script is open and what to say), the
// pointer ring and the pen for drawing on the window. Keys: help_overlay.cpp (PageDown / PageUp,
// o pointer, d pen, e erase).
#pragma once
#include <string>

#include "app_state.hpp"

namespace ws::ui {

/// A scene's note as the audience reads it: the seed file name the note cites for the docs
/// ("001_9970031c1e4143ff.txt, slide ...") left out, the rest from "Slide ..." on; other notes unchanged.
std::string note_for_screen(const std::string& note);

/// The text of the scene line: the open scene's note for the screen, or, once n / p left the scene's
/// variant, "(left the scene's reduce2 for reduce3) " and the lesson's narrative of the variant shown.
/// "" with no scene open.
std::string scene_line_text(const controller::AppState& s);

/// One wrapped line over the views while a scene is open: "Scene 3 / 10  ·  note".
void DrawSceneLine(const controller::AppState& s);

/// Over everything: the pen's strokes and, with the pointer or the pen on, a ring at the mouse. With
/// the pen on, a left drag adds a stroke (the views under it get no clicks until d turns the pen off).
void DrawPresenterOverlay(controller::AppState& s);

}  // namespace ws::ui
