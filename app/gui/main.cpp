// warpscope: the desktop app. A window by default; --screenshot FILE renders headless to a PNG.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <memory>
#include <string>

#include "app_state.hpp"
#include "backend_factory.hpp"
#include "file_write.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "main_window.hpp"
#include "modes.hpp"
#include "paths.hpp"
#include "registry.hpp"
#include "run_worker.hpp"
#include "step_export.hpp"
#include "user_kernel.hpp"
#include "version.hpp"
#include "worker_client.hpp"

namespace ws::gui {

std::string reports_dir() { return (std::filesystem::path(assets_dir()) / "reports").string(); }

namespace {

int fail(int code, const std::string& line) {
  std::fprintf(stderr, "warpscope: %s\n", line.c_str());
  return code;
}

/// Refuses, before CLI11 converts it, a floating value that is not a finite number in [lo, hi] (NaN
/// passes CLI::Range, and a NaN warp range made the Grid view loop for ever).
CLI::Validator finite(double lo, double hi) {
  return CLI::Validator([=](std::string& text) { return check_number_option("", text, lo, hi); }, "", "finite");
}

/// Refuses an empty whole number, which CLI11 would read as 0.
CLI::Validator whole() {
  return CLI::Validator([=](std::string& text) { return check_integer_text("", text); }, "", "whole");
}

std::string join_ids(const std::vector<controller::LessonEntry>& lessons) {
  std::string out;
  for (const auto& e : lessons) out += (out.empty() ? "" : ", ") + e.lesson.id;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"warpscope: watch GPU parallel patterns run (window, or headless PNG with --screenshot)", "warpscope"};
  app.set_version_flag("--version", std::string("warpscope ") + WS_VERSION);
  app.add_option("--lesson", o.lesson, "lesson to open (default: the first, epita)");
  app.add_option("--variant", o.variant, "variant to select, e.g. epita.reduce3 (selects its lesson)");
  app.add_option("--report", o.report, "report JSON to replay (recorded by warpscope on a GPU)");
  app.add_option("--screenshot", o.screenshot, "render headless (EGL, no X server) to this PNG and exit");
  app.add_option("--view", o.view, "centre tab to show: " + ui::view_id_list());
  app.add_option("--block", o.block,
                 "threads per block (0 = the variant's default); the trace covers --trace-blocks blocks")
      ->check(whole())
      ->check(CLI::Range(0, 1024));
  app.add_option(
      "--input", o.input,
      "input: random, ones, sequence, numbers (\"3 1 7 0 4 1 6 3\") or a file (text; PNG/JPEG for 2-D convolution)");
  app.add_option("--n", o.n,
                 "elements (1000, 2^20 or 1<<20; default 2^20); the trace covers --trace-blocks blocks of them");
  app.add_option("--scene", o.scene,
                 "open scene K (1, 2, ...) of the lesson's script (--lesson); other options then override it")
      ->check(whole())
      ->check(CLI::Range(1, 10000));
  app.add_option("--step", o.step,
                 "trace step the step-through views (" + ui::view_id_list(true) + ") open at (default: the first)")
      ->check(whole())
      ->check(CLI::Range(0, 100000));
  app.add_option("--trace-blocks", o.trace_blocks,
                 "blocks of the input the step-through trace covers (1 to 8; default 1)")
      ->check(whole())
      ->check(CLI::Range(1, 8));
  app.add_option("--block-index", o.block_index,
                 "the block of that grid the step-through views show (default 0; [ and ] switch)")
      ->check(whole())
      ->check(CLI::Range(0, 7));
  app.add_option("--frames", o.frames,
                 "frames to render before the screenshot (in a window: close after that many, for smoke tests)")
      ->check(whole())
      ->check(CLI::Range(1, 1000));
  app.add_option("--font-scale", o.font_scale, "text and layout scale (1 = 20 px text)")->check(finite(0.5, 4.0));
  app.add_option("--width", o.width, "window / image width in pixels")->check(whole())->check(CLI::Range(320, 8192));
  app.add_option("--height", o.height, "window / image height in pixels")->check(whole())->check(CLI::Range(240, 8192));
  app.add_flag("--high-contrast", o.high_contrast, "high-contrast colours for projectors (h toggles)");
  app.add_flag("--focus", o.focus, "presentation: the views alone, full width (f toggles)");
  app.add_flag("--show-keys", o.show_keys, "open the key help overlay (F1 or ? toggles it)");
  app.add_option("--live-seconds", o.live_seconds,
                 "with --screenshot: run Live (the compared variants) this many seconds first (needs a GPU)")
      ->check(finite(0.0, 600.0));
  app.add_option("--benchmark-frames", o.benchmark_frames,
                 "render N frames headless and print one JSON line of frame timings")
      ->check(whole())
      ->check(CLI::Range(1, 100000));
  app.add_option("--export-view", o.export_view,
                 "render headless the view (--view) alone, without tabs or controls, at --width x --height to this "
                 "PNG, or SVG (FILE.svg: plots and roofline), and exit");
  app.add_option("--export-steps", o.export_steps,
                 "render headless every step of a step view (" + ui::view_id_list(true) +
                     ") alone at --width x --height to DIR/step_000.png ... and DIR/steps.gif, and exit");
  app.add_option("--gif-fps", o.gif_fps, "frames per second of --export-steps' steps.gif (default: 2, the player's)")
      ->check(finite(0.1, 50.0));
  std::string grid_color;
  app.add_option("--grid-color", grid_color,
                 "what the Grid view colours by: lanes (active lanes, default), ways (bank-conflict ways) or sectors "
                 "(per request)")
      ->check(CLI::IsMember({"lanes", "ways", "sectors"}));
  std::vector<double> grid_warps;
  app.add_option("--grid-warps", grid_warps,
                 "the warps the Grid view shows at first: FIRST COUNT (warps of the launch; default all)")
      ->expected(2)
      ->check(finite(0, 1 << 25));  // 2^30 threads are 2^25 warps
  app.add_option("--shader-dir", o.shader_dir,
                 "read the Grid view's GLSL (grid_heatmap.vert/.frag) from DIR instead of the copies built in");
  std::string gpu;
  app.add_option(
      "--gpu", gpu,
      "where GPU runs go: local | ssh:HOST | slurm:ARGS (a worker process; default local when built with CUDA)");
  app.add_option(
         "--queue", o.queue,
         "with --screenshot: run these variants (comma-separated ids) with the parameters first and wait for them")
      ->delimiter(',');
  bool edit = false, edit_run = false, edit_bound = false;
  std::string edit_text;
  app.add_flag("--edit", edit, "open the Source view's editor on a copy of the selected variant's kernel");
  app.add_option("--edit-text", edit_text,
                 "with --edit: the editor's text from this .cu file instead of the copy (at most 1 MiB)");
  app.add_flag("--edit-run", edit_run,
               "with --edit or --exercise: compile and run (an exercise: check) the text once (Ctrl+Enter); a "
               "screenshot waits for the result, prints it on stderr and then shows --view if given");
  app.add_flag("--edit-bound", edit_bound,
               "with --edit: press Find the bound (the memory-only and compute-only copies) and Run the three; a "
               "screenshot waits for the three, prints the verdict on stderr and shows the panel");
  std::string exercise;
  app.add_option("--exercise", exercise,
                 "open exercise ID in the editor (its starter, statement and Check button; warpscope-cli grade's "
                 "checks), on the variant whose launch it takes");
  app.add_option("--tour", o.tour,
                 "render headless, in one process, every view tab with the selected variant and every scene of every "
                 "lesson into this folder (view-VIEW.png, scene-LESSON-NN.png)");
  app.add_option("--export-dir", o.export_dir,
                 "folder the CSV and PNG export buttons write to (default: the current folder)");
  app.add_flag("--force,-f", o.force,
               "replace existing files: --screenshot, --export-view, --export-steps' pictures and the export "
               "buttons' files (without it an existing file is kept: refused, or the buttons write a new name)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) { return app.exit(e); } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) { return fail(2, e.what()); }
  o.frames_given = app.count("--frames") > 0;
  const bool headless = !o.screenshot.empty() || o.benchmark_frames > 0 || !o.export_steps.empty() ||
                        !o.export_view.empty() || !o.tour.empty();
  if (app.count("--gif-fps") && o.export_steps.empty()) return fail(2, "--gif-fps needs --export-steps DIR");

  // Output files are checked before anything renders (a directory that is missing, or the report read).
  for (const auto& [path, what] : {std::pair{o.screenshot, "--screenshot"}, std::pair{o.export_view, "--export-view"}})
    if (!path.empty())
      if (std::string err = check_output_path(path, {o.report}, what, output_policy(o.force)); !err.empty())
        return fail(2, err);

  if (!o.export_steps.empty()) {
    std::error_code ec;
    if (std::filesystem::exists(o.export_steps, ec) && !std::filesystem::is_directory(o.export_steps, ec))
      return fail(2, "--export-steps '" + o.export_steps + "' is a file, not a folder");
    if (std::string err = check_steps_folder(o.export_steps, o.force); !err.empty()) return fail(2, err);
  }

  if (!o.tour.empty()) {
    std::error_code ec;
    if (std::filesystem::exists(o.tour, ec) && !std::filesystem::is_directory(o.tour, ec))
      return fail(2, "--tour '" + o.tour + "' is a file, not a folder");
    if (std::filesystem::create_directories(o.tour, ec); ec)
      return fail(2, "--tour: cannot make the folder '" + o.tour + "': " + ec.message());
    for (std::filesystem::directory_iterator it(o.tour, ec), end; !o.force && !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if ((name.rfind("view-", 0) == 0 || name.rfind("scene-", 0) == 0) && it->path().extension() == ".png")
        return fail(2, "--tour '" + o.tour + "' already holds " + name +
                           ": it is kept (give --force to replace the tour's pictures, or another folder)");
    }
  }

  const auto& views = ui::view_ids();
  if (!ui::find_view(o.view)) return fail(2, "unknown view '" + o.view + "' (views: " + ui::view_id_list() + ")");

  controller::AppState s;
  s.load((std::filesystem::path(assets_dir()) / "lessons").string());
  s.view = o.view;
  if (!o.lesson.empty() && !s.select_lesson(o.lesson))
    return fail(2, "unknown lesson '" + o.lesson + "' (lessons: " + join_ids(s.lessons()) + ")");
  if (o.scene > 0) {
    if (std::string err = s.open_scene(o.scene - 1, views); !err.empty()) return fail(2, err);
    if (app.count("--view")) s.view = o.view;  // other options override the scene, --view too
  }
  if (!o.variant.empty() && !s.select_variant(o.variant))
    return fail(2, "unknown variant '" + o.variant + "' (warpscope-cli list shows the ids)");
  if (app.count("--block")) s.params.block = o.block;
  if (!o.n.empty()) {
    std::int64_t n = 0;
    if (!parse_count(o.n, n) || n > kMaxN)
      return fail(2, "--n '" + o.n + "' is not a count from 1 to 2^30 (e.g. 1000, 2^20, 1<<20)");
    s.params.set_n(n);
  }
  if (!o.input.empty())
    if (std::string err = s.set_input(o.input); !err.empty()) return fail(2, err);
  if (!o.queue.empty() && o.screenshot.empty()) return fail(2, "--queue needs --screenshot (in a window, press Run)");
  for (const auto& id : o.queue)
    if (!find_variant(id)) return fail(2, "--queue: unknown variant '" + id + "' (warpscope-cli list shows the ids)");
  if (o.scene == 0 || app.count("--trace-blocks") || app.count("--block-index")) {  // else the scene's blocks
    s.trace.blocks = std::max(o.trace_blocks, o.block_index + 1);
    s.trace.block_index = o.block_index;
  }
  if (!o.export_steps.empty() && !ui::MainWindow::is_step_view(s.view))
    return fail(
        2, "--export-steps: the " + s.view + " view has no steps (views with steps: " + ui::view_id_list(true) + ")");
  s.perf.steps_gif_fps = float(o.gif_fps);
  if (o.step >= 0) s.trace.pending_step = o.step;  // kept when a report opening recomputes the trace
  if (!exercise.empty()) {
    const Exercise* ex = find_exercise(controller::gui_exercises(), exercise);
    if (!ex) {
      std::string ids;
      for (const Exercise& e : controller::gui_exercises()) ids += (ids.empty() ? "" : ", ") + e.id;
      return fail(2, "unknown exercise '" + exercise + "' (exercises: " + (ids.empty() ? "none found" : ids) + ")");
    }
    if (!o.variant.empty() && o.variant != (ex->like.empty() ? ex->reference : ex->like))
      return fail(2, "--exercise " + exercise + " opens on " + (ex->like.empty() ? ex->reference : ex->like) +
                         ", not --variant " + o.variant);
    s.select_variant(ex->like.empty() ? ex->reference : ex->like);
    s.edit.request_exercise = exercise;
    edit = true;
  }
  if ((!edit_text.empty() || edit_run) && !edit)
    return fail(2, "--edit-text and --edit-run go with --edit or --exercise");
  if (edit_bound && (!edit || !exercise.empty())) return fail(2, "--edit-bound goes with --edit");
  if (edit) {
    if (app.count("--view") && o.view != "source") o.after_edit_view = o.view;  // pictures: Compare after the run
    s.view = "source";
    s.edit.request_open = true;
    s.edit.request_run = edit_run;
    s.bound.request_open = s.bound.request_run = edit_bound;
    if (!edit_text.empty()) {
      std::string text;
      if (std::string err = read_file_bounded(edit_text, kMaxKernelSourceBytes, "--edit-text", text); !err.empty())
        return fail(2, err);
      s.edit.request_text = text;
    }
  }
  s.refresh_trace();
  if (!o.report.empty()) {
    s.auto_replay = false;
    if (std::string err = s.open_report(o.report); !err.empty()) {
      if (headless) return fail(2, err);
      s.message(controller::Message::Error, "cannot open report: " + err);
    }
  }

  if (grid_color == "ways")
    s.grid.metric = controller::GridMetric::BankWays;
  else if (grid_color == "sectors")
    s.grid.metric = controller::GridMetric::Sectors;
  if (grid_warps.size() == 2) {
    if (grid_warps[1] < 1) return fail(2, "--grid-warps: COUNT must be at least 1 warp");
    s.grid.initial_warp0 = grid_warps[0], s.grid.initial_warp1 = grid_warps[0] + grid_warps[1];
  }

  s.perf.present.high_contrast = o.high_contrast;
  s.perf.present.focus = o.focus;
  s.perf.present.show_help = o.show_keys;
  s.perf.export_dir = o.export_dir;
  s.perf.export_force = o.force;

  // GPU work goes to a worker process, so that a faulting kernel costs one run, not the session;
  // builds without CUDA have nothing to put there (sim and replay run here) unless --gpu names a worker.
  std::unique_ptr<controller::RunWorker> worker_ptr;
  if (!gpu.empty() || built_with_cuda()) {
    WorkerLaunch launch;
    if (std::string err = parse_gpu_spec(gpu.empty() ? "local" : gpu, find_local_cli(), launch); !err.empty()) {
      if (!gpu.empty()) return fail(2, err);
      worker_ptr = std::make_unique<controller::RunWorker>([](std::string& error) { return open_cuda_backend(error); });
    } else {
      worker_ptr = std::make_unique<controller::RunWorker>(launch, WorkerClientOptions{});
    }
  } else {
    worker_ptr = std::make_unique<controller::RunWorker>([](std::string& error) { return open_cuda_backend(error); });
  }
  controller::RunWorker& worker = *worker_ptr;
  if (o.benchmark_frames > 0) return run_benchmark(s, worker, o);
  if (!o.tour.empty()) return run_tour(s, worker, o);
  return headless ? run_screenshot(s, worker, o) : run_window(s, worker, o);
}

}  // namespace ws::gui

int main(int argc, char** argv) { return ws::gui::main(argc, argv); }
