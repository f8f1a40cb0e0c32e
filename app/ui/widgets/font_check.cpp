#include "widgets/font_check.hpp"

#include <fcntl.h>
#include <stb_truetype.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>

#include "widgets/theme.hpp"

// The sanitizers' death callback (libFuzzer sets one that writes the input as a crash artifact): present only
// in sanitized builds, so weak.
extern "C" __attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void));

namespace ws::ui {

const ImWchar kFontGlyphRanges[] = {
    0x0020, 0x017F, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0,
};

namespace {

std::uint32_t be32(const unsigned char* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

}  // namespace

std::string font_data_problem(const std::vector<unsigned char>& data) {
  if (data.size() < 12) return data.empty() ? "the file is empty" : "the file is too short to be a font";
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
  // The glyph index (loca): every glyph inside its glyf table, in order. stb_truetype follows these
  // offsets unchecked whenever it draws a glyph, in the app's own atlas build.
  const auto table = [&](const char* tag, std::uint64_t& off, std::uint64_t& len) {
    for (std::size_t i = 0; i < tables; ++i) {
      const unsigned char* rec = data.data() + 12 + 16 * i;
      if (std::memcmp(rec, tag, 4) == 0) return off = be32(rec + 8), len = be32(rec + 12), true;
    }
    return false;
  };
  // The character map (cmap): its encoding records and the subtables they point at inside the table.
  // stb_truetype's InitFont walks the records unchecked; whether reading past them crashed the checking
  // child depended on what lay beyond the file in its memory (fuzz_font's first find, judged "fine" when
  // the heap happened to be mapped there), so the structure is checked here, the same every time.
  std::uint64_t cmap = 0, cmap_len = 0;
  if (table("cmap", cmap, cmap_len)) {
    if (cmap_len < 4) return "its character map (cmap) is cut short";
    const std::size_t records = std::size_t(data[cmap + 2]) << 8 | data[cmap + 3];
    if (4 + 8 * std::uint64_t(records) > cmap_len) return "its character map's records (cmap) run past its table";
    for (std::size_t i = 0; i < records; ++i) {
      const std::uint64_t sub = be32(data.data() + cmap + 4 + 8 * i + 4);
      if (sub + 4 > cmap_len) return "its character map (cmap) points outside its table";
    }
  }
  std::uint64_t head = 0, head_len = 0, maxp = 0, maxp_len = 0, loca = 0, loca_len = 0, glyf = 0, glyf_len = 0;
  if (table("loca", loca, loca_len) && table("glyf", glyf, glyf_len)) {
    if (!table("head", head, head_len) || head_len < 54 || !table("maxp", maxp, maxp_len) || maxp_len < 6)
      return "a table the renderer needs (head, maxp) is missing or cut short";
    const bool long_offsets = (std::size_t(data[head + 50]) << 8 | data[head + 51]) != 0;  // indexToLocFormat
    const std::size_t glyphs = std::size_t(data[maxp + 4]) << 8 | data[maxp + 5];
    const std::size_t entry = long_offsets ? 4 : 2;
    if (loca_len < (glyphs + 1) * entry) return "its glyph index (loca) is shorter than its glyph count";
    std::uint64_t last = 0;
    for (std::size_t g = 0; g <= glyphs; ++g) {
      const unsigned char* e = data.data() + loca + g * entry;
      const std::uint64_t at = long_offsets ? be32(e) : (std::uint64_t(e[0]) << 8 | e[1]) * 2;
      if (at < last || at > glyf_len) return "its glyph index (loca) points outside its glyphs (glyf)";
      last = at;
    }
  }
  return "";
}

std::string font_atlas_problem(const std::string& path, float size_px, bool remember) {
  static std::mutex mu;
  static std::map<std::string, std::string> verdicts;  // a path is checked once per process
  std::lock_guard<std::mutex> lock(mu);
  if (const auto it = verdicts.find(path); remember && it != verdicts.end()) return it->second;
#ifdef WS_NO_THREADS
  (void)size_px;
  return "";  // the browser build has no child processes; its fonts are the ones bundled with the page
#endif
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
    // The child dies by the signal itself: handlers a fuzzer or sanitizer installed (libFuzzer's SIGALRM
    // handler ignores an alarm below its own -timeout; its crash handlers write an artifact of the fuzzer's
    // input for what is the check's expected outcome) are the parent's, not the check's.
    for (int sig : {SIGALRM, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) ::signal(sig, SIG_DFL);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
    ::alarm(5);  // a font whose glyphs take longer is refused (fuzz_font found one that never ended)
    const int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0) ::dup2(devnull, 2);  // an assertion's text is the parent's to word
    // stb_truetype's own parse first: it reads inside the tables without bounds (a cmap whose encoding
    // records run past its table crashed stbtt_InitFont: fuzz_font's first find).
    std::ifstream in(path, std::ios::binary);
    const std::vector<unsigned char> font{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (font.empty() || stbtt_GetFontOffsetForIndex(font.data(), 0) != 0) ::_exit(3);
    stbtt_fontinfo info;
    if (!stbtt_InitFont(&info, font.data(), 0)) ::_exit(4);
    ImFontAtlas atlas;
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    cfg.OversampleV = 1;
    cfg.PixelSnapH = true;
    const bool ok = atlas.AddFontFromFileTTF(path.c_str(), size_px, &cfg, kFontGlyphRanges) && atlas.Build();
    ::_exit(ok ? 0 : 1);
  }
  // The parent's own bound too (the child's alarm may not fire, e.g. under a tracer): 6 s, then SIGKILL.
  int status = 0;
  bool killed = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(6);
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) break;
    if (!killed && std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(killed ? 1 : 2));
  }
  std::string why;
  if (killed || (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM))
    why = "building its glyphs took longer than 5 s: its tables are damaged";
  else if (WIFSIGNALED(status))
    why = std::string("building its glyphs crashed a test process (") + strsignal(WTERMSIG(status)) +
          "): its tables are damaged";
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 3)
    why = "not a TrueType/OpenType font";
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
    why = "a table the renderer needs (cmap, head, hhea, hmtx, glyphs) is missing";
  else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    why = "ImGui could not build its glyphs";
  if (remember) verdicts[path] = why;
  return why;
}

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
  if (std::string why = font_data_problem(data); !why.empty()) return why;
  return font_atlas_problem(path, Theme::kBaseFontPx * 1.3f);
}

}  // namespace ws::ui
