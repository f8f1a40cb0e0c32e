// warpscope in a browser: the desktop GUI's window (app/ui) on a WebGL2 canvas, one frame per
// requestAnimationFrame (emscripten_set_main_loop). Sim and replay only: no CUDA, no worker, no threads.
// Page parameters: ?lesson=ID&scene=K&view=NAME&report=URL and more (page_params.hpp).
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <emscripten.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "app_state.hpp"
#include "backend_factory.hpp"
#include "browser_files.hpp"
#include "browser_session.hpp"
#include "bundled_recordings.hpp"
#include "frame_capture.hpp"
#include "gl_api.hpp"
#include "main_window.hpp"
#include "modes.hpp"
#include "nav_keys.hpp"
#include "page_params.hpp"
#include "paths.hpp"
#include "png_region.hpp"
#include "request.hpp"
#include "run_worker.hpp"
#include "widgets/theme.hpp"
#include "worker_exchange.hpp"

namespace ws::web {

namespace {

/// Everything the page keeps between frames.
struct Page {
  controller::AppState s;
  std::unique_ptr<controller::RunWorker> worker;
  ui::MainWindow window;
  GLFWwindow* win = nullptr;
  int frames = 0;
  double build_ms = 0;  ///< the last frame's ImGui build (NewFrame to Render), CPU milliseconds
  // Where the first frame's time goes, in performance.now() milliseconds (from the page's navigation): main()
  // entered (the page, .wasm and .data loaded), main() done (lessons, fonts), the first frame's exchange (the
  // bundled report opened) and its end.
  double t_main = 0, t_ready = 0, first_exchange_ms = 0, t_first = 0;
  double t_recordings = 0;  ///< performance.now() when the bundled recordings were first in the replay (0: not yet)
  BundledRecordings recordings{assets_dir() + "/reports", assets_dir() + "/recordings"};
  BrowserSession stored;  ///< the session in the browser's storage
  // The Grid view's job: when its blocks began (performance.now(), 0 = not running) and how long the last
  // whole grid took in ms (its variant and n in grid_of), for ws_status.
  double grid_t0 = 0, grid_ms = 0;
  std::string grid_of;
};

Page* g_page = nullptr;

std::string reports_dir() { return assets_dir() + "/reports"; }

/// Whether this frame may draw a GPU recording: any view but those that show none, or a queued key that may
/// open a scene (its view is drawn in the same frame).
bool may_show_a_recording(const controller::AppState& s) {
  static const char* const kWithout[] = {"results", "metrics", "compare", "plots", "roofline"};
  if (!s.nav_keys.empty()) return true;
  for (const char* v : kWithout)
    if (s.view == v) return false;
  return true;
}

/// One frame: the canvas follows the browser window, results come in, the window is drawn.
void frame(void* arg) {
  Page& p = *static_cast<Page*>(arg);
  const int w = EM_ASM_INT(return window.innerWidth), h = EM_ASM_INT(return window.innerHeight);
  int cw = 0, ch = 0;
  glfwGetWindowSize(p.win, &cw, &ch);
  if (w > 0 && h > 0 && (w != cw || h != ch)) glfwSetWindowSize(p.win, w, h);
  const double t_exchange = emscripten_get_now();
  controller::exchange_with_worker(p.s, *p.worker, reports_dir());
  if (p.frames == 0) p.first_exchange_ms = emscripten_get_now() - t_exchange;
  // The bundled report's recordings (most of its bytes): after the first frame, or before it when it needs them.
  p.recordings.supply(p.s, p.frames > 0 || may_show_a_recording(p.s));
  if (p.t_recordings == 0 && p.s.replay && !p.s.replay->traces.empty()) p.t_recordings = emscripten_get_now();
  gui::apply_presentation(p.s);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  const double t0 = emscripten_get_now();
  ImGui::NewFrame();
  p.window.draw(p.s, ImGui::GetIO().DisplaySize);
  ImGui::Render();
  p.build_ms = emscripten_get_now() - t0;
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(p.win, &fw, &fh);
  glViewport(0, 0, fw, fh);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (!p.s.perf.png_request.empty()) gui::handle_png_request(p.s, fw, fh, ImGui::GetIO().DisplayFramebufferScale.x);
  capture_if_asked(fw, fh);  // before the browser shows (and may clear) the drawing buffer
  offer_exports(p.s.perf.export_dir);
  if (++p.frames == 1) p.t_first = emscripten_get_now();
  p.stored.save_if_changed(p.s);
  const bool grid_running = p.s.grid.job->running();
  if (grid_running && p.grid_t0 == 0) p.grid_t0 = emscripten_get_now();
  if (!grid_running && p.grid_t0 > 0 && p.s.grid.complete()) {
    p.grid_ms = emscripten_get_now() - p.grid_t0;
    p.grid_of = p.s.grid.data.variant + " at n = " + std::to_string(p.s.grid.data.n);
  }
  if (!grid_running) p.grid_t0 = 0;
  EM_ASM({ Module.wsFrames = $0; }, p.frames);
}

void on_drop(GLFWwindow* /*win*/, int count, const char** paths) {
  if (g_page && count > 0) open_report_file(g_page->s, paths[0]);
}

}  // namespace

/// The page's status for its scripts and tests: {"frames", "lesson", "scene" (1-based, 0 = none), "view",
/// "variant", "scenes" (of the lesson), "replay" (the replayed report's path), "replay_traces" (its GPU
/// recordings), "trace_origin" ("report", "sim", ...), "busy", "build_ms" (the last frame's ImGui build),
/// "startup_ms" (performance.now() at main()'s start and end, the first frame's exchange in ms, performance.now()
/// at the first frame's end and when the bundled recordings were in, 0 = not yet)} as JSON. The text lives until
/// the next call.
extern "C" EMSCRIPTEN_KEEPALIVE const char* ws_status() {
  static std::string text;
  if (!g_page) return "{}";
  const controller::AppState& s = g_page->s;
  const Lesson* l = s.lesson();
  const VariantInfo* v = s.variant();
  text = "{\"frames\":" + std::to_string(g_page->frames) + ",\"lesson\":\"" + (l ? l->id : "") +
         "\",\"scene\":" + std::to_string(s.scene_index() + 1) + ",\"view\":\"" + s.view + "\",\"variant\":\"" +
         (v ? v->id : "") + "\",\"scenes\":" + std::to_string(s.scene_count()) + ",\"replay\":\"" + s.replay_path +
         "\",\"replay_traces\":" + std::to_string(s.replay ? s.replay->traces.size() : 0) + ",\"trace_origin\":\"" +
         s.trace.origin + "\",\"busy\":" + (s.device.busy ? "true" : "false") +
         ",\"build_ms\":" + std::to_string(g_page->build_ms) +
         ",\"startup_ms\":{\"main\":" + std::to_string(g_page->t_main) +
         ",\"ready\":" + std::to_string(g_page->t_ready) +
         ",\"first_exchange\":" + std::to_string(g_page->first_exchange_ms) +
         ",\"first_frame\":" + std::to_string(g_page->t_first) +
         ",\"recordings\":" + std::to_string(g_page->t_recordings) + "}" +
         ",\"session_runs\":" + std::to_string(s.session.runs.size()) +
         ",\"stored_bytes\":" + std::to_string(BrowserSession::stored_bytes()) +
         ",\"grid\":{\"done\":" + std::to_string(s.grid.data.blocks_done) +
         ",\"total\":" + std::to_string(s.grid.data.launch.grid) +
         ",\"running\":" + (s.grid.job->running() ? "true" : "false") +
         ",\"last_ms\":" + std::to_string(g_page->grid_ms) + ",\"last_of\":\"" + g_page->grid_of + "\"}}";
  return text.c_str();
}

/// Shows centre view `name` (as the view tabs do); false for an unknown name.
extern "C" EMSCRIPTEN_KEEPALIVE int ws_set_view(const char* name) {
  if (!g_page || !name) return 0;
  for (const auto& v : ui::MainWindow::views())
    if (v == name) {
      g_page->s.view = v;
      return 1;
    }
  return 0;
}

/// Runs `variant` on n = 2^`log2_n` random int32 with the sim backend, through execute() as `warpscope-cli run
/// --backend sim` does (input, model, check against the CPU reference), in this frame. For the test and its
/// figure: {"ms" (the whole call, performance.now()), "status", "result", "expected"} as JSON; the text lives
/// until the next call. Not part of the page's own work: the step views simulate only the traced blocks.
extern "C" EMSCRIPTEN_KEEPALIVE const char* ws_sim_run(const char* variant, int log2_n) {
  static std::string text;
  RunRequest req;
  req.variant = variant ? variant : "";
  req.n = std::int64_t(1) << std::clamp(log2_n, 1, 30);
  req.backend = BackendKind::Sim;
  const double t0 = emscripten_get_now();
  const RunResult r = execute(req, nullptr, "no CUDA in a browser");
  const double ms = emscripten_get_now() - t0;
  text = "{\"ms\":" + std::to_string(ms) + ",\"status\":\"" + to_string(r.status) +
         "\",\"result\":" + std::to_string(r.result) + ",\"expected\":" + std::to_string(r.expected) + "}";
  return text.c_str();
}

/// Replays the report at `path` in the page's file system (the file picker and drag and drop put it there).
extern "C" EMSCRIPTEN_KEEPALIVE void ws_open_report(const char* path) {
  if (g_page && path) open_report_file(g_page->s, path);
}

int main() {
  setenv("WARPSCOPE_DATA", "/warpscope", 1);  // the lessons and reports preloaded with the page
  static Page page;
  page.t_main = emscripten_get_now();
  g_page = &page;
  controller::AppState& s = page.s;
  s.load(assets_dir() + "/lessons");
  s.perf.export_dir = kExportDir;
  s.perf.exports_are_downloads = true;
  std::error_code ec;
  std::filesystem::create_directories(kExportDir, ec);
  const PageParams params = read_page_params();
  if (params.fresh) BrowserSession::forget();
  if (std::string line = page.stored.restore(s, params.names_a_place(), params.names_a_look); !line.empty())
    s.message(line.rfind("restored", 0) == 0 ? controller::Message::Info : controller::Message::Warning, line);
  if (std::string err = apply_page_params(s, params); !err.empty()) s.message(controller::Message::Error, err);
  s.refresh_trace();
  if (!params.report.empty()) fetch_report(s, params.report);

  page.worker = std::make_unique<controller::RunWorker>([](std::string& error) { return open_cuda_backend(error); });
  if (!glfwInit()) {
    std::fprintf(stderr, "warpscope: GLFW could not start\n");
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const int w = EM_ASM_INT(return window.innerWidth), h = EM_ASM_INT(return window.innerHeight);
  page.win = glfwCreateWindow(w > 0 ? w : 1280, h > 0 ? h : 720, "warpscope", nullptr, nullptr);
  if (!page.win) {
    std::fprintf(stderr, "warpscope: no WebGL2 context on this page\n");
    return 1;
  }
  glfwMakeContextCurrent(page.win);
  glfwSetWindowUserPointer(page.win, &s);
  glfwSetKeyCallback(page.win, gui::queue_nav_key);  // before ImGui's, which then calls it first
  glfwSetDropCallback(page.win, on_drop);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui_ImplGlfw_InitForOpenGL(page.win, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  gui::install_gl_image_textures();
  gui::install_gl_grid_renderer("");
  if (std::string warn = ui::theme().apply(params.font_scale); !warn.empty())
    s.message(controller::Message::Warning, warn);
  page.t_ready = emscripten_get_now();
  emscripten_set_main_loop_arg(frame, &page, 0, true);  // 0: the browser's requestAnimationFrame
  return 0;
}

}  // namespace ws::web

int main() { return ws::web::main(); }
