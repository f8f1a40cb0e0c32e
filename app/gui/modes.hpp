// The two ways warpscope runs: in a GLFW window, or headless to a PNG.
#pragma once
#include <string>
#include <vector>

#include "app_state.hpp"
#include "run_worker.hpp"

namespace ws::gui {

/// Exit status when no window can be opened (no X11 or Wayland display), like warpscope-cli's 3 for
/// "no CUDA device": the situation, not a failure of the program.
constexpr int kNoDisplay = 3;

/// Command-line options (main.cpp parses them).
struct Options {
  std::string lesson, variant, report, screenshot;
  std::string view = "results";
  int block = 0;              ///< threads per block for runs and traces (0 = the variant's default)
  std::string input;          ///< input kind, numbers or a file ("" = the parameters' default)
  std::string n;              ///< elements as given ("" = the default 2^20)
  int scene = 0;              ///< scene to open (1-based; 0 = none)
  int step = -1;              ///< trace step the step-through views open at (-1 = the first)
  int trace_blocks = 1;       ///< blocks the step-through trace covers (1..8)
  int block_index = 0;        ///< the block of that grid the views show
  int frames = 3;             ///< headless: frames before the screenshot; window: close after this many
  bool frames_given = false;  ///< --frames was on the command line (the window then closes by itself)
  float font_scale = 0;       ///< 0 = automatic (1, times the monitor's content scale in a window)
  int width = 1600, height = 900;
  // Presentation, Live in screenshots, the frame benchmark.
  bool high_contrast = false;      ///< start with the high-contrast theme
  bool focus = false;              ///< start in focus mode (views only, no browser or parameters)
  bool show_keys = false;          ///< start with the key help overlay open
  double live_seconds = 0;         ///< headless: run Live for this long before the screenshot (needs a GPU)
  int benchmark_frames = 0;        ///< > 0: render this many frames headless and print the timing JSON line
  std::string export_dir = ".";    ///< where the CSV/PNG export buttons write
  std::string tour;                ///< headless: a folder for every view tab and every scene of every lesson (PNGs)
  bool force = false;              ///< --force: outputs and exports replace existing files
  std::string export_view;         ///< headless: the centre view alone, no controls, at width x height (PNG or SVG)
  std::string export_steps;        ///< headless: a folder for every trace step of the centre view (PNGs, GIF)
  double gif_fps = 0;              ///< --gif-fps: the step GIF's frames per second (0 = the player's speed)
  std::vector<std::string> queue;  ///< headless: variant ids run (with the parameters) before the screenshot
  std::string shader_dir;          ///< read the GLSL from here instead of the copies built in ("" = built in)
  std::string after_edit_view;     ///< headless --edit with --view: the view shown once the editor's run is back
};

/// --benchmark-frames: renders o.benchmark_frames frames headless (after o.frames warm-up frames)
/// and prints {"frames", "ui_build_ms_median" (NewFrame to Render, CPU), "frame_ms_median" (whole
/// frame incl. glFinish), "view", "live_points", "sweep_lines", "sweep_points", "compare_rows", "grid_warps"
/// (the Grid view's warps, waited for until every block is computed, then panned by one warp each
/// timed frame so that each redraws its picture; 0 for other views)}.
int run_benchmark(controller::AppState& s, controller::RunWorker& worker, const Options& o);

/// GLFW + OpenGL 3.3 window until it is closed. Returns the exit status: kNoDisplay with one line on
/// stderr (what to do instead) when there is no display, 1 when the window or GL context fails.
int run_window(controller::AppState& s, controller::RunWorker& worker, const Options& o);

/// Renders o.frames frames into an EGL FBO and writes o.screenshot (when given); with o.export_steps,
/// exports the trace's steps there first. Returns 0, or 1 with a line on stderr.
int run_screenshot(controller::AppState& s, controller::RunWorker& worker, const Options& o);

/// --tour DIR: in this one process, every view tab with the selected variant (DIR/view-VIEW.png) and every
/// scene of every lesson (DIR/scene-LESSON-NN.png, NN from 01), each after o.frames frames, at
/// o.width x o.height. The gpu-gui suite's long-process round (issue 24). Returns 0 when every picture was
/// written; 1 with a line on stderr when one failed or the GL context was lost for good.
int run_tour(controller::AppState& s, controller::RunWorker& worker, const Options& o);

/// Lets the views draw images as OpenGL textures (image_texture_gl.cpp); call with the GL context current.
void install_gl_image_textures();

/// Lets the Grid view draw with its shaders (grid_renderer_gl.cpp); call with the GL context current.
/// `shader_dir` non-empty: the GLSL files are read from there instead of the embedded copies.
void install_gl_grid_renderer(const std::string& shader_dir);

/// After a GPU reset: forgets the Grid view's GL objects without deleting them (their context is gone) and
/// uninstalls the renderer; install_gl_grid_renderer in the new context draws again.
void abandon_gl_grid_renderer();

/// Where reports to replay live: assets_dir()/reports.
std::string reports_dir();

}  // namespace ws::gui
