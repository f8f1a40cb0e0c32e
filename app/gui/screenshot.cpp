// Headless mode: ImGui with the OpenGL3 backend only (no platform backend: display size and time
// step are set here), drawn into HeadlessGl's FBO. Also the frame benchmark (--benchmark-frames).
#include <GL/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>
#include <vector>

#include "file_write.hpp"
#include "gl_recovery.hpp"
#include "headless.hpp"
#include "main_window.hpp"
#include "memory_trim.hpp"
#include "modes.hpp"
#include "patterns.hpp"
#include "png_region.hpp"
#include "registry.hpp"
#include "step_export.hpp"
#include "views/grid_renderer.hpp"
#include "widgets/image_texture.hpp"
#include "widgets/theme.hpp"
#include "worker_exchange.hpp"

namespace ws::gui {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// The EGL context, ImGui and the main window for a headless session.
class HeadlessSession {
 public:
  /// "" or the error line.
  std::string open(controller::AppState& s, controller::RunWorker& worker, const Options& o) {
    // The picture must show the device line, so wait for the worker to open (or fail to open) it, and do so
    // before the GL context exists: the worker measures the copy bandwidth as it opens, and on a GPU where
    // a kernel has faulted NVIDIA's driver resets a GL context that lives through CUDA work
    // (docs/device/gl-after-fault.md).
    if (!worker.wait_opened(std::chrono::seconds(60)))
      std::fprintf(stderr, "warpscope: the CUDA device did not open within 60 s; rendering without it\n");
    if (std::string err = gl_.open(o.width, o.height); !err.empty()) return "headless rendering: " + err;
    if (!gl_.notice().empty())
      s.message(controller::Message::Warning, gl_.notice());  // a GPU faulted earlier: Mesa draws
    worker.hold_user_kernels(gl_.on_nvidia() && worker.runs_on_this_machine());
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(float(o.width), float(o.height));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    // Shown in the picture, and printed on stderr with the other warnings at the end (print_messages).
    if (std::string warn = ui::theme().apply(o.font_scale > 0 ? o.font_scale : 1.f); !warn.empty())
      s.message(controller::Message::Warning, warn);
    if (!ImGui_ImplOpenGL3_Init("#version 330 core")) {
      ImGui::DestroyContext();
      return "headless rendering: ImGui's OpenGL 3 loader failed (is libGL.so.1 installed?)";
    }
    imgui_ = gl_backend_ = true;
    shader_dir_ = o.shader_dir;
    install_gl_image_textures();
    install_gl_grid_renderer(o.shader_dir);
    width_ = o.width, height_ = o.height;
    return "";
  }
  ~HeadlessSession() {
    if (!imgui_) return;
    if (gl_backend_) {
      if (const ui::GridRendererApi* grid = ui::grid_renderer()) grid->release();
      ui::set_grid_renderer({});
      ImGui_ImplOpenGL3_Shutdown();
    }
    ImGui::DestroyContext();
  }
  /// One frame; returns the UI build time (NewFrame to Render) in ms.
  double frame(controller::AppState& s, controller::RunWorker& worker) {
    ImGuiIO& io = ImGui::GetIO();
    controller::exchange_with_worker(s, worker, reports_dir());
    // A run of this session just faulted on the GPU this picture draws on: move before the next CUDA work
    // (the worker's restart) makes the driver reset this context.
    if (lost_.empty() && !stay_on_faulted_gpu_ && gl_.on_faulted_gpu()) leave_gpu(s, worker, "");
    // A user's own kernel waits to run on this machine's GPU (RunWorker holds it): the picture leaves the GPU
    // first, because a fault while it draws there freezes it until the driver resets it (about 20 s).
    if (lost_.empty() && worker.user_kernels_waiting()) {
      if (gl_.on_nvidia())
        leave_gpu(s, worker,
                  "Your own kernel runs on the GPU this picture drew on; a kernel that faults there stops the picture "
                  "until NVIDIA's driver resets it (about 20 s), so it is drawn on ");
      worker.release_user_kernels();
    }
    apply_presentation(s);
    io.DeltaTime = 1.f / 60.f;
    ImGui_ImplOpenGL3_NewFrame();
    const auto t0 = Clock::now();
    ImGui::NewFrame();
    window_.draw(s, io.DisplaySize);
    ImGui::Render();
    const double build = ms_since(t0);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glViewport(0, 0, width_, height_);
    glClearColor(bg.x, bg.y, bg.z, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    // No swap ends a headless frame: unless the frame finishes here the driver queues every frame's
    // commands and keeps the vertex buffers they orphaned (Mesa: about 45 MB a second of Live or
    // --frames with glFlush missing; NVIDIA's EGL aborted after about 250 s of Live with only a flush).
    glFinish();
    if (lost_.empty())
      if (const std::string reset = recovery_.check(gl_.reset_status()); !reset.empty())
        return recover(s, worker, reset) ? frame(s, worker) : build;  // a whole frame in the new context
    trim_free_memory_now_and_then();
    if (!s.perf.png_request.empty()) handle_png_request(s, width_, height_, 1.f);
    steps_.after_frame(s, width_, height_, 1.f);
    return build;
  }
  std::string save(const std::string& path) {
    glFinish();
    return gl_.save_png(path);
  }

 private:
  /// A new context after a GPU reset, with ImGui's GL objects, the fonts' texture, the views' textures and
  /// the Grid view's renderer made again in it; false (and lost_ says why) when no more can be made.
  bool recover(controller::AppState& s, controller::RunWorker& worker, const std::string& reset) {
    if (!recovery_.may_recover()) {
      lost_ = recovery_.give_up(s, reset);
      return false;
    }
    const std::string before = gl_.description();
    const bool live = GlRecovery::stop_live(s, [&] { controller::exchange_with_worker(s, worker, reports_dir()); });
    ImGui_ImplOpenGL3_Shutdown();  // its objects' context is gone: the deletes are no-ops there
    abandon_gl_grid_renderer();
    ui::set_image_texture_api({});
    if (std::string err = gl_.reopen(); !err.empty()) {
      gl_backend_ = false;
      lost_ = recovery_.give_up(s, reset + "; no new OpenGL context (" + err + ")");
      return false;
    }
    ImGui_ImplOpenGL3_Init("#version 330 core");
    install_gl_image_textures();
    install_gl_grid_renderer(shader_dir_);
    recovery_.recovered(s, reset, gl_.description(), gl_.description() == before, live);  // printed at the end
    return true;
  }

  /// Makes the context again on another device (another GPU, Mesa) with every GL object, and says so once
  /// (`why` + where it draws now; "" for a fault mark: the device choice's own notice); where nothing else
  /// draws the picture stays (the reset path is left to recover it).
  void leave_gpu(controller::AppState& s, controller::RunWorker& worker, const std::string& why) {
    const std::string before = gl_.description();
    ImGui_ImplOpenGL3_Shutdown();
    abandon_gl_grid_renderer();
    ui::set_image_texture_api({});
    if (std::string err = gl_.reopen(); !err.empty()) {
      gl_backend_ = false;
      lost_ = recovery_.give_up(s, "no OpenGL context after leaving the GPU (" + err + ")");
      return;
    }
    ImGui_ImplOpenGL3_Init("#version 330 core");
    install_gl_image_textures();
    install_gl_grid_renderer(shader_dir_);
    stay_on_faulted_gpu_ = gl_.on_faulted_gpu();  // nothing else draws here: do not try every frame
    worker.hold_user_kernels(gl_.on_nvidia() && worker.runs_on_this_machine());
    if (!gl_.notice().empty())
      s.message(controller::Message::Warning, gl_.notice());
    else if (!why.empty() && gl_.description() != before)
      s.message(controller::Message::Warning, why + gl_.description() + ".");
    else if (why.empty() && !stay_on_faulted_gpu_)
      s.message(controller::Message::Warning, "A CUDA kernel faulted on the GPU of " + before +
                                                  ": the picture moved to " + gl_.description() +
                                                  " before NVIDIA's driver would reset it.");
  }

  HeadlessGl gl_;
  GlRecovery recovery_;
  bool stay_on_faulted_gpu_ = false;  // the faulted GPU is the only device: left to the reset path
  std::string shader_dir_;
  bool imgui_ = false, gl_backend_ = false;  // ImGui's context; its OpenGL3 backend in the current GL context
  int width_ = 0, height_ = 0;
  std::string lost_;  // set once no context can draw any more: nothing drawn after it is kept
  ui::MainWindow window_;
  StepExporter steps_;

 public:
  bool exporting_steps(const controller::AppState& s) const { return steps_.busy() || !s.perf.steps_request.empty(); }
  /// "" while the GL context is usable, else why not (the GPU reset it).
  const std::string& lost() const { return lost_; }
};

/// The Grid view fills in while its job runs: a picture or a benchmark of it waits for every block
/// (at most `limit_s`), drawing frames meanwhile. Returns false when the limit ran out.
bool wait_for_grid(HeadlessSession& h, controller::AppState& s, controller::RunWorker& worker, double limit_s) {
  if (s.view != "grid") return true;
  const auto t0 = Clock::now();
  h.frame(s, worker);
  while (s.grid.job->running() || (!s.grid.complete() && s.grid.error.empty())) {
    if (ms_since(t0) > limit_s * 1000) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    h.frame(s, worker);
  }
  h.frame(s, worker);  // the complete summary, drawn
  return true;
}

/// Whether an export path names an SVG file (".svg", any case).
bool is_svg_path(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".svg";
}

/// Test hook for the soak (scripts/device-soak.sh SOAK_USER_FAULT_EVERY, issue 24): with
/// WARPSCOPE_TEST_EDIT_RUN_EVERY_S=S and the editor open (--edit, --edit-text), Live runs the editor's kernel
/// again every S seconds, as a student pressing Ctrl+Enter would, so that a faulting kernel goes the user's
/// path (RunWorker holds it until the picture left the GPU). Each finished run's status is printed on
/// stderr with the Live second it came back at. Without the variable it does nothing.
class EditRunsDuringLive {
 public:
  EditRunsDuringLive() {
    if (const char* e = std::getenv("WARPSCOPE_TEST_EDIT_RUN_EVERY_S")) every_s_ = next_s_ = std::atof(e);
  }
  void tick(controller::AppState& s, double live_s) {
    if (every_s_ <= 0 || !s.edit.is_open()) return;
    const bool busy = s.edit.compiling() || s.edit.running();
    if (waiting_ && !busy) {
      waiting_ = false;
      std::fprintf(stderr, "warpscope: Live %.1f s: the editor's run %d came back: %s\n", live_s, runs_,
                   s.edit.status().c_str());
    }
    const VariantInfo* v = find_variant(s.edit.variant());
    if (!busy && live_s >= next_s_ && v) {
      // What Ctrl+Enter sends (KernelEditor::compile_and_run) while another view is open.
      s.to_run.push_back(s.edit.run_request(s.params.to_request(v->id)));
      s.edit.run_queued(s.session.runs);
      waiting_ = true;
      ++runs_;
      next_s_ = live_s + every_s_;
      std::fprintf(stderr, "warpscope: Live %.1f s: the editor's run %d sent\n", live_s, runs_);
    }
  }

 private:
  double every_s_ = 0, next_s_ = 0;
  int runs_ = 0;
  bool waiting_ = false;
};

void print_messages(const controller::AppState& s) {
  for (const auto& m : s.messages)
    if (m.level != controller::Message::Info) std::fprintf(stderr, "warpscope: %s\n", m.text.c_str());
}

}  // namespace

int run_screenshot(controller::AppState& s, controller::RunWorker& worker, const Options& o) {
  HeadlessSession h;
  if (std::string err = h.open(s, worker, o); !err.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", err.c_str());
    return 1;
  }
  for (int i = 0; i < o.frames; ++i) h.frame(s, worker);
  if (!o.queue.empty()) {
    // The runs go the way the Run button sends them (GPU work through the worker); the picture is taken
    // once every one of them has a row, or after 300 s with what has finished.
    const std::size_t before = s.session.runs.size();
    for (const auto& id : o.queue) s.to_run.push_back(s.params.to_request(id));
    const auto t0 = Clock::now();
    while (s.session.runs.size() < before + o.queue.size() && ms_since(t0) < 300e3) {
      h.frame(s, worker);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::fprintf(stderr, "warpscope: --queue: %zu of %zu runs finished in %.1f s\n", s.session.runs.size() - before,
                 o.queue.size(), ms_since(t0) / 1000);
    for (int i = 0; i < 2; ++i) h.frame(s, worker);
  }
  // The kernel editor's compile or run (--edit-run) is in the picture: wait for it (at most 120 s).
  for (const auto t0 = Clock::now();
       (s.edit.request_run || s.edit.compiling() || s.edit.running() || (s.edit.is_open() && s.device.busy) ||
        s.bound.request_open || s.bound.request_run || s.bound.running()) &&
       ms_since(t0) < 120e3;) {
    h.frame(s, worker);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (s.edit.is_open()) {
    std::fprintf(stderr, "warpscope: --edit: %s\n", s.edit.status().empty() ? "open" : s.edit.status().c_str());
    if (s.bound.is_open())  // Find the bound: where the copies came from, then the three runs' verdict
      std::fprintf(stderr, "warpscope: --edit-bound: copies (%s): memory-only %d lines, compute-only %d lines; %s\n",
                   s.bound.hand_written() ? "hand-written" : "from the text",
                   int(std::count(s.bound.memory.begin(), s.bound.memory.end(), '\n')),
                   int(std::count(s.bound.compute.begin(), s.bound.compute.end(), '\n')),
                   s.bound.status().empty() ? "not run" : s.bound.status().c_str());
    if (!o.after_edit_view.empty()) s.view = o.after_edit_view;
    for (int i = 0; i < 3; ++i) h.frame(s, worker);
  }
  if (!wait_for_grid(h, s, worker, 300))
    s.message(controller::Message::Warning, "the Grid view was still computing after 300 s");
  if (o.live_seconds > 0) {
    if (std::string why = controller::why_no_timing(s); !why.empty()) {
      std::fprintf(stderr, "warpscope: --live-seconds: %s\n", why.c_str());
    } else {
      s.perf.live_wanted = true;
      s.perf.live_variants = controller::chosen_variants(s);
      const auto t0 = Clock::now();
      auto last = t0;
      double longest_gap_ms = 0;  // between two finished frames: how long the picture stood still
      long frames = 0;
      EditRunsDuringLive edit_runs;  // test only: the editor's kernel again every S s (the soak's faults)
      while (ms_since(t0) < o.live_seconds * 1000 && h.lost().empty()) {
        edit_runs.tick(s, ms_since(t0) / 1000);
        h.frame(s, worker);
        longest_gap_ms = std::max(longest_gap_ms, ms_since(last));
        last = Clock::now();
        ++frames;
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
      }
      std::fprintf(stderr, "warpscope: Live ran %.1f s: %zu launches shown\n", o.live_seconds, s.perf.live.points());
      std::fprintf(stderr, "warpscope: Live drew %ld frames; the longest gap between two was %.0f ms\n", frames,
                   longest_gap_ms);
      h.frame(s, worker);
    }
  }
  bool export_failed = false;
  // Handout pictures: the open view alone over the whole picture (no tab bar, banners or controls), so a
  // PNG is exactly --width x --height. Two frames first: the view's children settle to the new layout.
  const bool handout = !o.export_view.empty() || !o.export_steps.empty();
  if (handout) {
    s.perf.present.handout = true;
    for (int i = 0; i < 2; ++i) h.frame(s, worker);
  }
  if (!o.export_view.empty()) {
    if (is_svg_path(o.export_view)) {
      // The view writes its chart while it draws (Plots, Roofline); a request left standing has no chart.
      s.perf.svg_request = o.export_view;
      s.perf.svg_size[0] = o.width, s.perf.svg_size[1] = o.height;
      s.perf.svg_error.clear();
      h.frame(s, worker);
      std::string err = s.perf.svg_error;
      if (!s.perf.svg_request.empty()) {
        s.perf.svg_request.clear();
        err = "the " + s.view + " view has no chart to write as SVG (SVG: plots and roofline, with runs to draw; " +
              "every view writes PNG)";
      }
      if (!err.empty()) {
        s.message(controller::Message::Error, "--export-view: " + err);
        export_failed = true;
      }
    } else {
      s.perf.png_request = o.export_view;  // the request the PNG buttons make, served after the next frame
      s.perf.png_error.clear();
      h.frame(s, worker);
      export_failed = !s.perf.png_error.empty() || !s.perf.png_request.empty();  // failed, or never served
    }
  }
  if (!o.export_steps.empty()) {
    s.perf.steps_request = o.export_steps;
    s.perf.steps_error.clear();
    // One frame per step, and one to start; the bound only guards against a request never served.
    for (int i = 0, most = s.trace.steps() + 8; i < most && h.exporting_steps(s); ++i) h.frame(s, worker);
    if (h.exporting_steps(s)) {
      s.perf.steps_error = "the step export did not finish";
      s.message(controller::Message::Error, s.perf.steps_error);
    }
    export_failed = export_failed || !s.perf.steps_error.empty();
    if (s.perf.steps_error.empty())
      std::fprintf(stderr, "warpscope: exported %d steps to %s\n", s.trace.steps(), o.export_steps.c_str());
  }
  if (handout) {  // the whole window again for --screenshot
    s.perf.present.handout = false;
    for (int i = 0; i < 2; ++i) h.frame(s, worker);
  }
  if (!h.lost().empty()) {
    worker.stop();
    print_messages(s);
    std::fprintf(stderr, "warpscope: %s No picture is written.\n", h.lost().c_str());
    return 1;
  }
  std::string err;
  if (!o.screenshot.empty()) {  // checked at the start; a file that appeared since is kept too
    err = check_output_path(o.screenshot, {}, "--screenshot", output_policy(o.force));
    // --force replaces a symbolic link itself, never its target: the link goes, the picture takes its name.
    struct stat there {};
    if (err.empty() && o.force && ::lstat(o.screenshot.c_str(), &there) == 0 && S_ISLNK(there.st_mode))
      ::unlink(o.screenshot.c_str());
    if (err.empty()) err = h.save(o.screenshot);
  }
  worker.stop();
  print_messages(s);
  if (!err.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", err.c_str());
    return 1;
  }
  return export_failed ? 1 : 0;  // the export's reason is among the messages printed above
}

int run_benchmark(controller::AppState& s, controller::RunWorker& worker, const Options& o) {
  HeadlessSession h;
  if (std::string err = h.open(s, worker, o); !err.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", err.c_str());
    return 1;
  }
  // The load the issue names: Compare of every reduction variant, the report's sweep plot, and a
  // live plot of 10,000 points. Without a GPU the live points are the report's recorded launch
  // times replayed in a loop (a drawing load, labelled as such, not a measurement).
  for (const auto& v : all_variants())
    if (pattern_of(v).scalar_result) s.perf.picked.insert(v.id);
  // Without --report the startup report opens on the first frame (no device): take its launch times.
  if (s.shown().runs.empty() && s.shown().sweeps.empty()) h.frame(s, worker);
  // One live series per variant of the report's runs (as Live of a lesson has), 10,000 points in all.
  const Report& rep = s.shown();
  std::map<std::string, std::vector<controller::LivePoint>> by_variant;
  auto take_samples = [&](const RunResult& r) {
    for (double ms : r.timing.samples_ms)
      if (ms > 0)
        by_variant[r.variant].push_back(controller::LivePoint{r.variant + " (replayed)", 0, ms, r.bytes / (ms * 1e6)});
  };
  for (const auto& r : rep.runs) take_samples(r);
  if (by_variant.empty())
    for (const auto& sw : rep.sweeps)
      for (const auto& r : sw.runs) take_samples(r);
  std::vector<controller::LivePoint> pts;
  // 10,000 points in all: the first 10,000 % series take one more.
  const std::size_t series = by_variant.size(), per = series ? 10000 / series : 0, extra = series ? 10000 % series : 0;
  std::size_t k = 0;
  for (auto& [id, v] : by_variant)
    for (std::size_t i = 0, count = per + (k++ < extra ? 1 : 0); i < count; ++i) {
      controller::LivePoint p = v[i % v.size()];
      p.launch = std::int64_t(i);
      pts.push_back(p);
    }
  if (pts.empty())
    std::fprintf(stderr, "warpscope: the report shown has no recorded launch times: the live plot is empty\n");
  s.perf.live.add(pts);
  for (int i = 0; i < o.frames; ++i) h.frame(s, worker);
  if (!wait_for_grid(h, s, worker, 300))
    s.message(controller::Message::Warning, "the Grid view was still computing after 300 s");
  std::vector<double> build, frame;
  for (int i = 0; i < o.benchmark_frames; ++i) {
    // The Grid view pans by one warp each frame, so that every timed frame redraws its picture with
    // the shaders (an unchanged picture is reused and costs nothing).
    if (s.view == "grid" && s.grid.complete()) {
      const double span =
          std::max(1.0, (s.grid.warp1 > s.grid.warp0 ? s.grid.warp1 - s.grid.warp0 : double(s.grid.data.warps())) - 1);
      s.grid.warp0 = double(i % 2), s.grid.warp1 = s.grid.warp0 + span;
    }
    const auto t0 = Clock::now();
    build.push_back(h.frame(s, worker));
    glFinish();
    frame.push_back(ms_since(t0));
  }
  if (!o.screenshot.empty())
    if (std::string err = h.save(o.screenshot); !err.empty()) std::fprintf(stderr, "warpscope: %s\n", err.c_str());
  std::size_t sweep_lines = 0, sweep_points = 0;
  if (!rep.sweeps.empty()) {
    const Sweep& sw = rep.sweeps.back();
    sweep_lines = sw.spec.variants.size();
    for (const auto& r : sw.runs) sweep_points += r.timed ? 1 : 0;
  }
  std::printf(
      "{\"frames\": %d, \"ui_build_ms_median\": %.4f, \"frame_ms_median\": %.4f, \"view\": \"%s\", "
      "\"compare_rows\": %zu, \"sweep_lines\": %zu, \"sweep_points\": %zu, \"live_points\": %zu, "
      "\"grid_warps\": %lld}\n",
      o.benchmark_frames, median(build), median(frame), s.view.c_str(), s.perf.picked.size(), sweep_lines, sweep_points,
      s.perf.live.points(), s.view == "grid" && s.grid.complete() ? (long long)s.grid.data.warps() : 0LL);
  worker.stop();
  print_messages(s);
  return 0;
}

int run_tour(controller::AppState& s, controller::RunWorker& worker, const Options& o) {
  HeadlessSession h;
  if (std::string err = h.open(s, worker, o); !err.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", err.c_str());
    return 1;
  }
  const auto t0 = Clock::now();
  int written = 0, failed = 0;
  // One picture: the frames a screenshot draws (the Grid view until its blocks are computed), then the PNG.
  auto shoot = [&](const std::string& name) {
    for (int i = 0; i < o.frames && h.lost().empty(); ++i) h.frame(s, worker);
    if (!wait_for_grid(h, s, worker, 300))
      s.message(controller::Message::Warning, name + ": the Grid view was still computing");
    if (!h.lost().empty()) return;
    const std::string path = o.tour + "/" + name + ".png";
    std::string err = check_output_path(path, {}, "--tour", output_policy(o.force));
    if (err.empty()) err = h.save(path);
    if (!err.empty()) {
      std::fprintf(stderr, "warpscope: --tour: %s\n", err.c_str());
      ++failed;
    } else {
      ++written;
    }
  };
  const std::vector<std::string>& views = ui::MainWindow::views();
  const std::string variant = s.variant() ? s.variant()->id : std::string();
  for (const std::string& v : views) {
    if (!h.lost().empty()) break;
    if (!variant.empty()) s.select_variant(variant);
    s.view = v;
    shoot("view-" + v);
  }
  for (const controller::LessonEntry& l : s.lessons()) {
    s.select_lesson(l.lesson.id);
    for (int k = 0; k < s.scene_count() && h.lost().empty(); ++k) {
      char name[160];
      std::snprintf(name, sizeof name, "scene-%s-%02d", l.lesson.id.c_str(), k + 1);
      if (std::string err = s.open_scene(k, views); !err.empty()) {
        std::fprintf(stderr, "warpscope: --tour: %s: %s\n", name, err.c_str());
        ++failed;
        continue;
      }
      shoot(name);
    }
  }
  worker.stop();
  print_messages(s);
  if (!h.lost().empty()) {
    std::fprintf(stderr, "warpscope: --tour: %s %d pictures were written before it.\n", h.lost().c_str(), written);
    return 1;
  }
  std::fprintf(stderr, "warpscope: --tour: %d pictures written to %s in %.1f s (one process)%s\n", written,
               o.tour.c_str(), ms_since(t0) / 1000, failed ? (", " + std::to_string(failed) + " failed").c_str() : "");
  return failed ? 1 : 0;
}

}  // namespace ws::gui
