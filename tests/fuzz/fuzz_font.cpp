// Fonts (WARPSCOPE_FONTS, a damaged DejaVu): the theme's check before ImGui is given a font
// (app/ui/widgets/font_check.hpp). The structure checks run in process on every input; an input that
// passes them has its atlas built in a child process, as the app does, which may crash: the check must
// then answer in one line. Traps: a verdict of more than one line, or a structure check that passes
// data the atlas build cannot read back from the file.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_file.hpp"
#include "widgets/font_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<unsigned char> bytes(data, data + size);
  std::string why = ws::ui::font_data_problem(bytes);
  if (why.empty()) {
    const std::string path = ws::fuzz::as_file(data, size, ".ttf");
    why = ws::ui::font_atlas_problem(path, 26.f, false);  // not remembered: the path holds a new font each time
  }
  if (why.find('\n') != std::string::npos) __builtin_trap();
  return 0;
}
