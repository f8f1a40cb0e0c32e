// Checking a font file before ImGui is given it (issue 27, item 1): ImGui asserts on a font it cannot
// parse, and stb_truetype trusts a font's tables, so a file damaged inside (a loca offset past its glyphs,
// a cmap pointing nowhere) would crash the app while it builds its atlas. The structure is checked here in
// process; the atlas itself is first built in a child process, which a damaged font may crash instead.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace ws::ui {

/// The glyphs every face of the theme is built with: Latin-1 and Latin Extended-A (authors' names:
/// Filipovič), plus the punctuation, arrows, maths and shapes the views print (× · – … → ≈ ≤ ▶ ●).
/// ImGui's zero-terminated pairs of first and last code point.
extern const ImWchar kFontGlyphRanges[];

/// Why `data` (a whole font file's bytes) cannot be given to ImGui ("" = its structure holds): too short,
/// not a TrueType/OpenType font, its table directory cut off, a table past the end of the data. Reads
/// nothing outside `data`; never throws. What lies inside the tables is stb_truetype's to read, in
/// font_atlas_problem's child process.
std::string font_data_problem(const std::vector<unsigned char>& data);

/// Builds the font at `path` at `size_px` with kFontGlyphRanges into a throwaway ImGui atlas in a child
/// process (2 GiB of address space, 5 s, no core dump), after stb_truetype's own parse of it there.
/// Returns "" when the atlas built, else one line (not a font to stb_truetype, a table it needs missing,
/// the child crashed: "its tables are damaged", or ImGui refused). `remember`: each path's verdict is
/// kept for the process's life (the app asks once per face); a fuzzer passes false.
std::string font_atlas_problem(const std::string& path, float size_px, bool remember = true);

/// Why the font file at `path` cannot be given to ImGui ("" = it can): not a regular file, empty, over
/// 64 MiB, unreadable, font_data_problem, then font_atlas_problem at 1.3 x the base size (remembered).
std::string font_file_problem(const std::string& path);

}  // namespace ws::ui
