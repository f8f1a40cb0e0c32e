// Interactive mode: a GLFW window with an OpenGL 3.3 core context and ImGui's GLFW/OpenGL3 backends.
#define GLFW_INCLUDE_NONE
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "gl_device_choice.hpp"
#include "gl_recovery.hpp"
#include "main_window.hpp"
#include "memory_trim.hpp"
#include "modes.hpp"
#include "nav_keys.hpp"
#include "png_region.hpp"
#include "step_export.hpp"
#include "views/grid_renderer.hpp"
#include "widgets/image_texture.hpp"
#include "widgets/theme.hpp"
#include "worker_exchange.hpp"

namespace ws::gui {

namespace {
void glfw_error(int code, const char* text) { std::fprintf(stderr, "warpscope: GLFW error %d: %s\n", code, text); }

using ResetStatusFn = GLenum (*)();

/// A window with an OpenGL 3.3 core context, robust (reset notification) where the driver has it, current
/// on this thread, with ImGui's GLFW and OpenGL3 backends and our GL renderers installed in it.
struct GlWindow {
  GLFWwindow* win = nullptr;
  ResetStatusFn reset_status = nullptr;  ///< null for a context without reset notification
  std::string renderer;                  ///< GL_RENDERER of the context, e.g. "NVIDIA H100 80GB HBM3/PCIe/SSE2"
  bool nvidia = false;                   ///< GL_VENDOR is NVIDIA's driver
  bool mesa_egl = false;                 ///< made through EGL with Mesa only (after a GPU fault), not GLX
  bool glfw_backend = false, gl_backend = false;

  /// "" or why no window could be made.
  std::string open(controller::AppState& s, const Options& o) {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // A context that reports a GPU reset (checked every frame) instead of leaving the driver to end the
    // process; a driver without robustness gets the plain context.
    glfwWindowHint(GLFW_CONTEXT_ROBUSTNESS, GLFW_LOSE_CONTEXT_ON_RESET);
    glfwWindowHint(GLFW_CONTEXT_CREATION_API, mesa_egl ? GLFW_EGL_CONTEXT_API : GLFW_NATIVE_CONTEXT_API);
    win = glfwCreateWindow(o.width, o.height, "warpscope", nullptr, nullptr);
    if (!win) {
      glfwWindowHint(GLFW_CONTEXT_ROBUSTNESS, GLFW_NO_ROBUSTNESS);
      win = glfwCreateWindow(o.width, o.height, "warpscope", nullptr, nullptr);
    }
    if (!win) return "cannot create an OpenGL 3.3 core window";
    glfwMakeContextCurrent(win);
    glfwSwapInterval(1);
    reset_status = glfwGetWindowAttrib(win, GLFW_CONTEXT_ROBUSTNESS) == GLFW_LOSE_CONTEXT_ON_RESET
                       ? reinterpret_cast<ResetStatusFn>(glfwGetProcAddress("glGetGraphicsResetStatus"))
                       : nullptr;
    glfwSetWindowUserPointer(win, &s);
    glfwSetKeyCallback(win, queue_nav_key);  // before ImGui's, which then calls it first
    const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    renderer = r ? r : "an unknown renderer";
    const auto* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
    nvidia = vendor && std::strstr(vendor, "NVIDIA");
    glfw_backend = ImGui_ImplGlfw_InitForOpenGL(win, true);
    gl_backend = ImGui_ImplOpenGL3_Init("#version 330 core");
    if (!gl_backend) return "ImGui's OpenGL 3 loader failed";
    install_gl_image_textures();
    install_gl_grid_renderer(o.shader_dir);
    return "";
  }
  /// The driver's reset line for this context, "" while it draws.
  std::string lost() const {
    if (!reset_status) return "";
    switch (reset_status()) {
      case GL_NO_ERROR: return "";
      case GL_GUILTY_CONTEXT_RESET: return "the GPU reset the window's OpenGL context (caused by its own commands)";
      case GL_INNOCENT_CONTEXT_RESET: return "the GPU reset the window's OpenGL context (caused by other work)";
      default: return "the GPU reset the window's OpenGL context (cause unknown)";
    }
  }
  /// Closes the window. `context_lost`: forget the GL objects instead of deleting them.
  void close(bool context_lost) {
    if (!win) return;
    glfwHideWindow(win);
    ui::set_image_texture_api({});  // the views' textures go with the GL context
    if (context_lost) {
      abandon_gl_grid_renderer();
    } else if (const ui::GridRendererApi* grid = ui::grid_renderer()) {
      grid->release();
      ui::set_grid_renderer({});
    }
    if (gl_backend) ImGui_ImplOpenGL3_Shutdown();
    if (glfw_backend) ImGui_ImplGlfw_Shutdown();
    gl_backend = glfw_backend = false;
    glfwDestroyWindow(win);
    win = nullptr;
  }
};
/// Whether a CUDA fault mark (gpu_fault_marks.hpp) is there for an NVIDIA GPU the window may draw on; reads
/// the marks only when their folder changed. GLX does not say which GPU draws, so any marked GPU counts.
/// WARPSCOPE_TEST_WINDOW_FAULT_MARK=1 (tests) answers yes, whatever the driver.
class FaultMarkWatch {
 public:
  bool marked(const GlWindow& gw) {
    if (test_) return !gw.mesa_egl;
    if (!gw.nvidia) return false;
    if (const long long stamp = gpu_fault_marks_stamp(); stamp != stamp_) {
      stamp_ = stamp;
      marks_ = gpu_fault_marks();
    }
    return !marks_.empty();
  }
  const std::vector<GpuFaultMark>& marks() const { return marks_; }

 private:
  bool test_ = [] {
    const char* t = std::getenv("WARPSCOPE_TEST_WINDOW_FAULT_MARK");
    return t && std::strcmp(t, "1") == 0;
  }();
  long long stamp_ = -2;
  std::vector<GpuFaultMark> marks_;
};

/// A CUDA kernel faulted on the GPU the window draws with (NVIDIA's driver will reset the window's context
/// beside CUDA work there: docs/device/gl-after-fault.md): makes the window again through EGL with Mesa only,
/// drawing on the CPU, before that happens. Once per process (glvnd reads its vendor list once); returns the
/// status line to show, or "" when it could not (no Mesa EGL: the reset path is left to recover).
/// `user_kernel`: the reason is a user's kernel about to run on this machine's GPU, not a fault mark.
std::string move_window_to_mesa(GlWindow& gw, controller::AppState& s, const Options& o, const FaultMarkWatch& watch,
                                bool user_kernel = false) {
  static bool tried = false;
  if (tried) return "";
  tried = true;
  const std::string vendor_file = mesa_egl_vendor_file();
  if (vendor_file.empty()) {
    s.message(controller::Message::Warning,
              "A CUDA kernel faulted on an NVIDIA GPU here, and NVIDIA's driver then resets OpenGL beside CUDA work on "
              "it: the window may be reset. Install Mesa's EGL (libegl-mesa0) to draw on the CPU instead.");
    return "";
  }
  use_mesa_egl_only(vendor_file);
  const std::string before = gw.renderer;
  gw.close(false);
  gw.mesa_egl = true;
  if (std::string err = gw.open(s, o); !err.empty()) {
    gw.close(false);
    gw.mesa_egl = false;  // back to the native context: the reset path still recovers
    if (std::string again = gw.open(s, o); !again.empty()) return "no window after leaving the GPU (" + again + ")";
    s.message(controller::Message::Warning,
              "Mesa's EGL could not make the window (" + err + "); drawing stays on " + before);
    return "";
  }
  const std::string gpu = watch.marks().empty() ? "an NVIDIA GPU" : "the " + watch.marks().front().gpu.name;
  std::string text =
      user_kernel ? "Drawing on the CPU (Mesa, " + gw.renderer +
                        "): your own kernel runs on this machine's GPU, and a kernel that faults there stops a picture "
                        "drawn on it until NVIDIA's driver resets it (about 20 s)."
                  : "Drawing on the CPU (Mesa, " + gw.renderer + "): a CUDA kernel faulted on " + gpu +
                        ", and NVIDIA's driver then resets OpenGL beside CUDA work on that GPU until it is reset. "
                        "After a GPU reset, WARPSCOPE_IGNORE_GPU_FAULTS=1 draws on the GPU again.";
  s.message(controller::Message::Warning, text);
  std::fprintf(stderr, "warpscope: %s\n", text.c_str());
  return "";
}

}  // namespace

int run_window(controller::AppState& s, controller::RunWorker& worker, const Options& o) {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!x11 || !*x11) && (!wayland || !*wayland)) {
    std::fprintf(stderr,
                 "warpscope: no display (DISPLAY and WAYLAND_DISPLAY are unset): run it in a desktop session, "
                 "under `xvfb-run -a`, or render a picture with --screenshot FILE\n");
    return kNoDisplay;
  }
  if (!glfwInit()) {  // before the error callback, so that the reason comes in our one line
    const char* why = nullptr;
    glfwGetError(&why);
    std::fprintf(stderr,
                 "warpscope: cannot open a window (%s): run it under `xvfb-run -a`, or render a picture with "
                 "--screenshot FILE\n",
                 why ? why : "GLFW could not start");
    return kNoDisplay;
  }
  glfwSetErrorCallback(glfw_error);
  int exit_code = 0;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // fixed layout: nothing worth saving
  GlWindow gw;
  if (std::string err = gw.open(s, o); !err.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", err.c_str());
    gw.close(false);
    ImGui::DestroyContext();
    glfwTerminate();
    return 1;
  }
  float scale = o.font_scale;
  if (scale <= 0) {
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(gw.win, &sx, &sy);
    scale = sx > 0 ? sx : 1;
  }
  if (std::string warn = ui::theme().apply(scale); !warn.empty()) {
    std::fprintf(stderr, "warpscope: %s\n", warn.c_str());
    s.message(controller::Message::Warning, warn);
  }
  GlRecovery recovery;
  FaultMarkWatch fault_marks;
  worker.hold_user_kernels(gw.nvidia && worker.runs_on_this_machine());  // moved to Mesa before one runs

  ui::MainWindow window;
  StepExporter steps;
  for (int frame = 0; !glfwWindowShouldClose(gw.win); ++frame) {
    if (o.frames_given && frame >= o.frames) break;
    // Idle: sleep until input (or a quarter second, to pick up the device opening). Busy: keep drawing.
    if (s.device.busy || !s.device.opened || s.perf.sweeping || s.perf.live_running || steps.busy())
      glfwWaitEventsTimeout(1.0 / 30.0);
    else
      glfwWaitEventsTimeout(0.25);
    controller::exchange_with_worker(s, worker, reports_dir());
    // A GPU of this machine faulted (a run of ours, or earlier): move the window to Mesa before the next CUDA
    // work makes the driver reset its context.
    if (fault_marks.marked(gw))
      if (std::string err = move_window_to_mesa(gw, s, o, fault_marks); !err.empty()) {
        std::fprintf(stderr, "warpscope: %s\n", err.c_str());
        exit_code = 1;
        break;
      }
    if (worker.user_kernels_waiting()) {
      if (gw.nvidia && !gw.mesa_egl) {
        if (std::string err = move_window_to_mesa(gw, s, o, fault_marks, true); !err.empty()) {
          std::fprintf(stderr, "warpscope: %s\n", err.c_str());
          exit_code = 1;
          break;
        }
      }
      worker.release_user_kernels();
    }
    apply_presentation(s);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // While a PNG request or a step export stands the frames draw the view alone for the files: they are
    // not shown.
    const bool png_frame = !s.perf.png_request.empty() || steps.busy() || !s.perf.steps_request.empty();
    ImGui::NewFrame();
    window.draw(s, io.DisplaySize);
    ImGui::Render();
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(gw.win, &fw, &fh);
    glViewport(0, 0, fw, fh);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (!s.perf.png_request.empty()) {
      glReadBuffer(GL_BACK);
      handle_png_request(s, fw, fh, io.DisplayFramebufferScale.x);
    }
    if (steps.busy() || !s.perf.steps_request.empty()) {
      glReadBuffer(GL_BACK);
      steps.after_frame(s, fw, fh, io.DisplayFramebufferScale.x);
    }
    if (!png_frame) glfwSwapBuffers(gw.win);
    trim_free_memory_now_and_then();
    if (const std::string reset = recovery.check(gw.lost()); !reset.empty()) {
      // A new window and context, ImGui's GL objects, fonts and our textures made again; the session,
      // queue, Live series and settings live in `s` and go on.
      const std::string before = gw.renderer;
      const bool live = GlRecovery::stop_live(s, [&] { controller::exchange_with_worker(s, worker, reports_dir()); });
      gw.close(true);
      std::string err = recovery.may_recover() ? gw.open(s, o) : "too many resets";
      if (err.empty()) {
        recovery.recovered(s, reset, gw.renderer, gw.renderer == before, live);
        std::fprintf(stderr, "warpscope: %s\n", s.messages.back().text.c_str());
        continue;
      }
      std::fprintf(stderr, "warpscope: %s\n", recovery.give_up(s, reset).c_str());
      exit_code = 1;
      break;
    }
  }
  // Closing mid-run: hide at once, drop the queue and wait for the run in progress (runs are short).
  if (gw.win) glfwHideWindow(gw.win);
  worker.stop();
  gw.close(false);
  ImGui::DestroyContext();
  glfwTerminate();
  return exit_code;
}

}  // namespace ws::gui
