#include "widgets/theme.hpp"

#include <fcntl.h>
#include <stb_truetype.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <vector>

namespace ws::ui {

namespace {

ImVec4 rgb(int hex, float a = 1.f) {
  return ImVec4(((hex >> 16) & 0xff) / 255.f, ((hex >> 8) & 0xff) / 255.f, (hex & 0xff) / 255.f, a);
}

// Latin-1 and Latin Extended-A (authors' names: Filipovič), plus the punctuation, arrows, maths and
// shapes the views print (× · – … → ≈ ≤ ▶ ●).
const ImWchar kGlyphRanges[] = {
    0x0020, 0x017F, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0,
};

std::uint32_t be32(const unsigned char* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

/// Loads the font at `path`, or returns nullptr and says why in `why` ("" when the file is absent).
ImFont* load(ImGuiIO& io, const std::string& path, float size_px, std::string& why) {
  why.clear();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return nullptr;
  // ImGui asserts (and aborts, even in Release) on a font it cannot parse: check it first.
  if (why = font_file_problem(path); !why.empty()) return nullptr;
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  cfg.OversampleV = 1;
  cfg.PixelSnapH = true;
  ImFont* f = io.Fonts->AddFontFromFileTTF(path.c_str(), size_px, &cfg, kGlyphRanges);
  if (!f) why = "ImGui could not read it";
  return f;
}

/// Builds `path` into a throwaway ImGui atlas in a child process, so that a font whose tables are
/// damaged inside (a loca offset past its glyphs, a cmap pointing nowhere) crashes the child, not the
/// app: stb_truetype trusts those tables (SIGSEGV in stbrp_pack_rects, an assertion in
/// stbtt_FindGlyphIndex). Returns "" when the atlas built, else what happened to the child.
std::string atlas_build_problem(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::string> verdicts;  // a path is checked once per process
  std::lock_guard<std::mutex> lock(mu);
  if (const auto it = verdicts.find(path); it != verdicts.end()) return it->second;
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return "";  // cannot check: use it as before
  if (pid == 0) {
    // The child: bounded in memory and time, no core dump; its only answer is its exit status.
    const rlimit core{0, 0};
    ::setrlimit(RLIMIT_CORE, &core);
    // An address-space bound, except under AddressSanitizer: its shadow memory alone reserves terabytes of
    // address space, so any bound would abort the child before the font is read.
#if !defined(__SANITIZE_ADDRESS__)
    const rlimit mem{rlim_t(2) << 30, rlim_t(2) << 30};
    ::setrlimit(RLIMIT_AS, &mem);
#endif
    ::alarm(20);
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, 2);  // an assertion's text is the parent's to word
    ImFontAtlas atlas;
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    cfg.OversampleV = 1;
    cfg.PixelSnapH = true;
    const bool ok =
        atlas.AddFontFromFileTTF(path.c_str(), Theme::kBaseFontPx * 1.3f, &cfg, kGlyphRanges) && atlas.Build();
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  std::string why;
  if (WIFSIGNALED(status))
    why = std::string("building its glyphs crashed a test process (") + strsignal(WTERMSIG(status)) +
          "): its tables are damaged";
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    why = "ImGui could not build its glyphs";
  verdicts[path] = why;
  return why;
}

}  // namespace

std::string font_file_problem(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return "not a regular file";
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return "cannot read its size";
  if (size < 12) return size == 0 ? "the file is empty" : "the file is too short to be a font";
  if (size > (std::uintmax_t(64) << 20)) return "the file is larger than 64 MiB";
  std::ifstream f(path, std::ios::binary);
  std::vector<unsigned char> data{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  if (!f.eof() && !f) return "cannot read it";
  if (data.size() != size) return "the file changed while it was read";
  const std::uint32_t tag = be32(data.data());
  if (tag != 0x00010000u && tag != 0x74727565u /* true */ && tag != 0x4F54544Fu /* OTTO */)
    return "not a TrueType/OpenType font";
  // Every table the directory lists must lie inside the file (a truncated download does not).
  const std::size_t tables = std::size_t(data[4]) << 8 | data[5];
  if (tables == 0 || 12 + 16 * tables > data.size()) return "its table directory is cut off";
  for (std::size_t i = 0; i < tables; ++i) {
    const unsigned char* rec = data.data() + 12 + 16 * i;
    const std::uint64_t off = be32(rec + 8), len = be32(rec + 12);
    if (off + len > data.size()) return "a table lies past the end of the file (truncated?)";
  }
  if (stbtt_GetFontOffsetForIndex(data.data(), 0) != 0) return "not a TrueType/OpenType font";
  stbtt_fontinfo info;
  if (!stbtt_InitFont(&info, data.data(), 0))
    return "a table the renderer needs (cmap, head, hhea, hmtx, glyphs) is missing";
  return atlas_build_problem(path);
}

Theme& theme() {
  static Theme t;
  return t;
}

std::string Theme::apply(float scale, std::string font_dir) {
  if (font_dir.empty()) {
    const char* env = std::getenv("WARPSCOPE_FONTS");
    font_dir = env && *env ? env : "/usr/share/fonts/truetype/dejavu";
  }
  scale_ = std::clamp(scale, 0.5f, 4.f);
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float base = kBaseFontPx * scale_;
  std::string warning, why;
  const std::string regular_path = font_dir + "/DejaVuSans.ttf";
  fonts_.regular = load(io, regular_path, base, why);
  if (!fonts_.regular) {
    // The built-in font is a 13 px bitmap: scale it up rather than leave the hall unable to read.
    ImFontConfig cfg;
    cfg.SizePixels = 13.f;
    fonts_.regular = io.Fonts->AddFontDefault(&cfg);
    io.FontGlobalScale = base / 13.f;
    warning = "font " + regular_path + (why.empty() ? " not found" : " cannot be used (" + why + ")") +
              ": using ImGui's built-in font (reinstall fonts-dejavu-core or set WARPSCOPE_FONTS)";
    // The other faces would be drawn at base size under a global scale meant for the 13 px font.
    fonts_.bold = fonts_.mono = fonts_.heading = nullptr;
  } else {
    io.FontGlobalScale = 1.f;
    const auto extra = [&](const char* file, float px) {
      ImFont* f = load(io, font_dir + "/" + file, px, why);
      if (!why.empty() && warning.empty())
        warning = "font " + font_dir + "/" + file + " cannot be used (" + why + "): using DejaVuSans.ttf in its place";
      return f;
    };
    fonts_.bold = extra("DejaVuSans-Bold.ttf", base);
    fonts_.mono = extra("DejaVuSansMono.ttf", base);
    fonts_.heading = extra("DejaVuSans-Bold.ttf", base * 1.3f);
  }
  if (!fonts_.bold) fonts_.bold = fonts_.regular;
  if (!fonts_.mono) fonts_.mono = fonts_.regular;
  if (!fonts_.heading) fonts_.heading = fonts_.bold;
  io.FontDefault = fonts_.regular;

  // Dark and high-contrast: white text on near-black survives a washed-out projector.
  palette_.text = rgb(0xF2F4F8);
  palette_.text_dim = rgb(0xA9B1BD);
  palette_.accent = rgb(0x4DA3FF);
  palette_.ok = rgb(0x5BD75B);
  palette_.lesson = rgb(0xFFB52E);
  palette_.bad = rgb(0xFF5A5A);
  palette_.baseline = rgb(0x7FB8FF);
  palette_.cpu = rgb(0xC59BFF);
  palette_.row_lesson = rgb(0xFFB52E, 0.13f);
  palette_.row_bad = rgb(0xFF5A5A, 0.15f);
  palette_.badge_text = rgb(0x111318);

  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = palette_.text;
  c[ImGuiCol_TextDisabled] = palette_.text_dim;
  c[ImGuiCol_WindowBg] = rgb(0x15171C);
  c[ImGuiCol_ChildBg] = rgb(0x15171C);
  c[ImGuiCol_PopupBg] = rgb(0x1E2128);
  c[ImGuiCol_MenuBarBg] = rgb(0x1E2128);
  c[ImGuiCol_Border] = rgb(0x3A404C);
  c[ImGuiCol_FrameBg] = rgb(0x262A33);
  c[ImGuiCol_FrameBgHovered] = rgb(0x323846);
  c[ImGuiCol_FrameBgActive] = rgb(0x3A4252);
  c[ImGuiCol_Button] = rgb(0x2D5C95);
  c[ImGuiCol_ButtonHovered] = rgb(0x3A72B5);
  c[ImGuiCol_ButtonActive] = rgb(0x4484CC);
  c[ImGuiCol_Header] = rgb(0x2A4E7A);
  c[ImGuiCol_HeaderHovered] = rgb(0x31598A);
  c[ImGuiCol_HeaderActive] = rgb(0x3A6AA3);
  c[ImGuiCol_Tab] = rgb(0x22262E);
  c[ImGuiCol_TabHovered] = rgb(0x3A72B5);
  c[ImGuiCol_TabActive] = rgb(0x2D5C95);
  c[ImGuiCol_TableHeaderBg] = rgb(0x232730);
  c[ImGuiCol_TableRowBgAlt] = rgb(0xFFFFFF, 0.03f);
  c[ImGuiCol_TableBorderStrong] = rgb(0x3A404C);
  c[ImGuiCol_TableBorderLight] = rgb(0x2C313B);
  c[ImGuiCol_PlotHistogram] = rgb(0x4DA3FF);
  c[ImGuiCol_Separator] = rgb(0x3A404C);
  c[ImGuiCol_CheckMark] = rgb(0x8CC4FF);
  c[ImGuiCol_SliderGrab] = rgb(0x4DA3FF, 0.45f);  // the value is drawn over it
  c[ImGuiCol_SliderGrabActive] = rgb(0x8CC4FF);
  style.WindowRounding = 0.f;
  style.ChildRounding = 3.f;
  style.FrameRounding = 3.f;
  style.GrabRounding = 3.f;
  style.TabRounding = 3.f;
  style.PopupRounding = 3.f;
  style.WindowBorderSize = 0.f;
  style.ChildBorderSize = 1.f;
  style.FrameBorderSize = 0.f;
  style.WindowPadding = ImVec2(8, 8);
  style.FramePadding = ImVec2(6, 4);
  style.ItemSpacing = ImVec2(9, 6);
  style.ItemInnerSpacing = ImVec2(6, 4);
  style.CellPadding = ImVec2(7, 4);
  style.IndentSpacing = 18.f;
  style.ScrollbarSize = 15.f;
  style.GrabMinSize = 12.f;
  // The sizes above are for the 20 px base font at scale 1.
  style.ScaleAllSizes(scale_);
  ImGui::GetStyle() = style;
  return warning;
}

}  // namespace ws::ui
