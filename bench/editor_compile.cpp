// ws_editor_compile: how long the Source view's editor waits for a compile of its copy (KernelEdit::compile,
// NVRTC on a thread, as Ctrl+Enter without a GPU does; a worker compiles the same way before it launches),
// uncached and cached, against the goal of "<= 0.3 s when cached" for an edited reduce3. NVRTC runs on the
// CPU: no GPU is needed. Each uncached compile edits the text (a comment with a counter), so its cache key is
// new; a cached one compiles a text compiled before, in this process (memory cache) or in an earlier one
// (the disk cache in --cache-dir, kept between two invocations with --keep).
//   build-ci/bench/ws_editor_compile [--variant epita.reduce3] [--rounds 5] [--cc 9.0] [--cache-dir DIR] [--keep]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "kernel_compile.hpp"
#include "kernel_copy.hpp"
#include "kernel_edit.hpp"
#include "kernel_sources.hpp"
#include "registry.hpp"

namespace {

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

/// Wall time of one KernelEdit compile of `text`, from compile() to poll() taking the result; the editor's
/// status line in `status`.
double editor_compile_ms(ws::controller::KernelEdit& e, const std::string& text, int cc_major, int cc_minor,
                         std::string& status) {
  e.text = text;
  const double t0 = now_ms();
  e.compile(cc_major, cc_minor);
  while (!e.poll(5)) {}
  status = e.status();
  return now_ms() - t0;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"ws_editor_compile: the editor's NVRTC compile time, uncached and cached"};
  std::string variant = "epita.reduce3", cache_dir = "/tmp/ws_editor_compile_cache";
  int rounds = 5;
  double cc = 9.0;
  bool keep = false;
  app.add_option("--variant", variant, "the variant whose copy is compiled");
  app.add_option("--rounds", rounds, "compiles of each kind (median and range printed)")->check(CLI::Range(1, 100));
  app.add_option("--cc", cc, "compute capability to compile for (9.0: sm_90)");
  app.add_option("--cache-dir", cache_dir, "the module cache (XDG_CACHE_HOME for the editor); emptied first");
  app.add_flag("--keep", keep, "keep the cache: a second invocation measures compiles cached on disk");
  CLI11_PARSE(app, argc, argv);
  if (!ws::built_with_nvrtc()) {
    std::fprintf(stderr, "ws_editor_compile: this build has no NVRTC\n");
    return 1;
  }
  const ws::VariantInfo* v = ws::find_variant(variant);
  if (!v) {
    std::fprintf(stderr, "ws_editor_compile: unknown variant '%s'\n", variant.c_str());
    return 2;
  }
  std::error_code ec;
  const bool warm_disk = keep && std::filesystem::is_directory(cache_dir, ec);
  if (!keep) std::filesystem::remove_all(cache_dir, ec);
  std::filesystem::create_directories(cache_dir, ec);
  ::setenv("XDG_CACHE_HOME", cache_dir.c_str(), 1);  // the editor's cache: $XDG_CACHE_HOME/warpscope/kernels
  const int major = int(cc), minor = int(cc * 10 + 0.5) % 10;
  const ws::controller::KernelCopy copy = ws::controller::make_kernel_copy(*v, ws::controller::find_section(v->id));
  ws::controller::KernelEdit e;
  e.open(v->id, v->pattern, copy.text, copy.note, "-");
  std::printf("%s's copy (%zu bytes), NVRTC %s, sm_%d%d, cache %s\n", variant.c_str(), copy.text.size(),
              ws::nvrtc_version().c_str(), major, minor, cache_dir.c_str());
  std::string status;
  // Texts the same across invocations: the first rounds of a --keep rerun hit the disk cache.
  auto text_of = [&](int i) { return copy.text + "// edit " + std::to_string(i) + "\n"; };
  std::vector<double> first, memory;
  for (int i = 0; i < rounds; ++i) {
    first.push_back(editor_compile_ms(e, text_of(i), major, minor, status));
    if (i == 0) std::printf("  first compile: %s\n", status.c_str());
  }
  for (int i = 0; i < rounds; ++i) memory.push_back(editor_compile_ms(e, text_of(i), major, minor, status));
  std::printf("  again in this process: %s\n", status.c_str());
  auto line = [](const char* what, const std::vector<double>& ms) {
    std::printf("%-44s median %8.1f ms  (min %.1f, max %.1f, %zu compiles)\n", what, median(ms),
                *std::min_element(ms.begin(), ms.end()), *std::max_element(ms.begin(), ms.end()), ms.size());
  };
  line(warm_disk ? "cached on disk (new process, same texts)" : "uncached (new text each time)", first);
  line("cached in memory (the same texts again)", memory);
  std::printf("goal: <= 300 ms cached, <= 1000 ms edit -> checked result (compile included)\n");
  return 0;
}
