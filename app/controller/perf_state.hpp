// The state of the performance views (Compare, Plots) and their intents: which variants are
// compared, the sweep being asked for or running, Live, exports. Lives in AppState::perf; the
// views write intents, exchange_perf() moves them to the RunWorker and its snapshots back.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "file_write.hpp"
#include "live.hpp"
#include "run_worker.hpp"
#include "sweep.hpp"

namespace ws {
struct Lesson;
}

namespace ws::controller {

class AppState;
struct DeviceStatus;
struct RunParams;

/// Presentation mode: requests the gui layer applies between frames.
struct Presentation {
  bool show_help = false;        ///< the key overlay (F1 or ?)
  bool high_contrast = false;    ///< wanted
  float font_scale_request = 0;  ///< > 0: rebuild the fonts at this scale before the next frame
  bool focus = false;            ///< hide the lesson browser and parameters: the views get the window
  /// Headless exports for handouts: the open view alone over the whole picture (no tab bar, banners,
  /// parameters, status bar, nor the view's own controls), so the picture is exactly the size asked.
  bool handout = false;
  bool pointer = false;  ///< a bright ring follows the mouse (o), for pointing from the back row
  bool pen = false;      ///< the mouse draws on the window (d); clicks go to the pen, not the views
  /// The pen's strokes in window pixels (x, y pairs), cleared by e and by opening a scene.
  std::vector<std::vector<float>> strokes;
};

struct PerfState {
  Presentation present;
  // Compare
  std::set<std::string> picked;  ///< variants picked for Compare/Sweep/Live (empty = the lesson's)
  std::string baseline;    ///< speedup baseline ("" = the first correct compared variant: not racy, not a slide bug)
  int bar_metric = 0;      ///< index of the metric the bar column shows
  bool plot_time = false;  ///< Plots: y = time (ms) instead of GB/s
  bool range_wrong =
      false;  ///< Plots: the axes span runs whose check is not ok too (off: they run off the scale, marked)

  // Sweep
  int sweep_from = 10, sweep_to = 28;
  bool sweep_by_keep = false;  ///< filters: sweep the kept fraction 0..1 (by 0.1) at n = 2^keep_log2
  int keep_log2 = 24;
  std::optional<SweepSpec> sweep_to_start;  ///< intent
  bool sweep_cancel = false;                ///< intent
  bool sweeping = false;
  int sweep_done = 0, sweep_total = 0;
  std::optional<Sweep> sweep_partial;  ///< the runs of the sweep in progress
  int sweep_shown = -1;                ///< index into the shown report's sweeps (-1 = newest)

  // Live
  bool live_wanted = false;                ///< the toggle
  bool live_applied = false;               ///< what the worker was last told
  std::vector<std::string> live_variants;  ///< what Live runs (set when switched on)
  int live_log2 = 24;                      ///< n = 2^live_log2 for Live launches
  bool live_running = false;               ///< the worker's view
  LiveData live;
  std::string live_stopped;  ///< why Live stopped by itself ("" if it did not)

  // Exports (intents; the gui layer writes PNGs after rendering a frame)
  std::string export_dir = ".";
  /// --force: an export replaces a file of its name; without it nothing is replaced (the buttons take a new
  /// name, export_path; --export-view and --screenshot refuse an existing file).
  bool export_force = false;
  /// The web page: export_dir is a folder whose files the page hands to the browser as downloads, and Save
  /// session writes there too (warpscope-session.json) rather than to the report field's path.
  bool exports_are_downloads = false;
  std::string png_request;           ///< path of a PNG to write of png_rect
  std::string png_error;             ///< why the last PNG export failed ("" = it was written)
  float png_rect[4] = {0, 0, 0, 0};  ///< x, y, w, h in pixels of the last frame
  bool png_ready = false;            ///< the frame just drawn is png_request's picture (the open view alone)
  std::string steps_request;         ///< a folder to export every trace step of the centre view to
  std::string steps_error;           ///< why the last step export failed ("" = it was written)
  /// A step export is under way (set by the exporter): the frames until it ends draw the view alone, as a
  /// handout picture, and the window does not show them.
  bool steps_busy = false;
  float steps_gif_fps = 0;  ///< the step GIF's frames per second (0 = the player's speed)
  /// Path of an SVG of the open view's chart (Plots, Roofline) to write; the view serves it while drawing
  /// and clears it (still set after a frame: the view has no chart to write as SVG).
  std::string svg_request;
  std::string svg_error;          ///< why the last SVG export failed ("" = it was written)
  int svg_size[2] = {1600, 900};  ///< the SVG's width and height in pixels
};

/// Where an export button writes `name` (a file or folder): in p.export_dir, under a new name (NAME-2.EXT, ...)
/// where one of that name exists, unless p.export_force.
std::string export_path(const PerfState& p, const std::string& name);

/// What an export may replace at its path: output_policy(p.export_force) (file_write.hpp).
OutputPolicy export_policy(const PerfState& p);

/// The variants Compare, Sweep and Live use: the picked ones, or else the selected lesson's, in
/// lesson order (picked ones in registry order).
std::vector<std::string> chosen_variants(const AppState& s);
/// chosen_variants() from the parts it reads: the picks in `perf` and the selected lesson (null if none).
std::vector<std::string> chosen_variants(const PerfState& perf, const Lesson* lesson);

/// Why Live and Sweep cannot time anything here ("" when a CUDA device is open).
std::string why_no_timing(const AppState& s);
/// why_no_timing() from the device line alone.
std::string why_no_timing(const DeviceStatus& device);

/// A sweep spec over `ids` from the parameters (type, input, seed, repeat, pattern options) and the
/// chosen range; with sweep_by_keep, a kept-fraction sweep (0, 0.1, .. 1 at n = 2^keep_log2, random
/// input) of the filters among `ids`.
SweepSpec make_sweep_spec(const AppState& s, const std::vector<std::string>& ids);
/// make_sweep_spec() from the parts it reads: the sweep's settings in `perf` and the parameters.
SweepSpec make_sweep_spec(const PerfState& perf, const RunParams& params, const std::vector<std::string>& ids);

/// Moves sweep and Live intents to the worker (exchange_with_worker calls it before take()).
void send_perf_intents(AppState& s, RunWorker& worker);
/// Moves the snapshot's sweep runs, finished sweeps (into the session report, shown) and live
/// points and results into `s`; switches the Live toggle off when the worker stopped Live.
void take_perf_results(AppState& s, RunWorker::Snapshot& snap);

}  // namespace ws::controller
