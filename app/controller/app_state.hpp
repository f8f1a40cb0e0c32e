// The model the views draw: lessons, the selection, run parameters, the reports on screen, the
// device line and messages. Views read it and write intents (runs to queue) into it; they never
// run anything themselves. main_window moves intents to the RunWorker and results back.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "backend.hpp"
#include "bound_edit.hpp"
#include "collective/allreduce_run.hpp"
#include "collective/schedule.hpp"
#include "grid_summary.hpp"
#include "kernel_edit.hpp"
#include "lessons.hpp"
#include "perf_state.hpp"
#include "report.hpp"
#include "run_types.hpp"
#include "trace_source.hpp"
#include "variant.hpp"

namespace ws::controller {

/// Inputs offered by the parameters panel: the three generators, numbers typed in the panel
/// ("3 1 7 0 4 1 6 3") and a file (text; PNG/JPEG for 2-D convolution), read by the CLI's loaders.
inline const char* const kInputKinds[] = {"random", "ones", "sequence", "typed", "file"};
constexpr int kInputGenerators = 3;  ///< kInputKinds[0..2] are generators
constexpr int kInputTyped = 3, kInputFile = 4;

/// Keys that must never be lost between frames (ImGui 1.86 keeps only whether a key is down): the
/// window's GLFW key callback, or a test, appends one event per press or auto-repeat.
enum class NavKey { Left, Right, PageUp, PageDown, Help, Escape };  ///< Help = F1

/// The parameters panel's values.
struct RunParams {
  bool n_pow2 = true;  ///< n as 2^k (slider) or an exact count
  int n_log2 = 20;     ///< k for n = 2^k
  std::int64_t n_exact = 1000000;
  int block = 0;          ///< threads per block, 0 = the variant's default
  std::int64_t grid = 0;  ///< blocks, 0 = auto (derived from n or one wave of the device)
  DType type = DType::Int32;
  int input = 0;             ///< index into kInputKinds
  std::string typed_values;  ///< kInputTyped: the numbers as typed
  std::string typed_path;    ///< kInputTyped: the file they were written to (AppState::set_typed_values)
  std::string file_path;     ///< kInputFile: a text file of numbers, or a PNG/JPEG image (2-D convolution)
  bool input_auto = true;    ///< the input follows the variant's own default (racy variants: ones) until chosen
  std::uint64_t seed = 1;    ///< random input only
  int repeat = 10;           ///< timed launches (median of these)
  PatternParams pattern;     ///< scan / convolution / atomics options (docs/patterns.md)
  std::string metrics;       ///< hardware metrics to collect ("" none, "default"), Metrics tab

  std::int64_t n() const { return n_pow2 ? std::int64_t(1) << n_log2 : n_exact; }
  /// n of a request: n(), or 0 for a file or typed input (the loader takes all of its numbers, as the CLI does).
  std::int64_t request_n() const { return input >= kInputGenerators ? 0 : n(); }
  /// Sets n, as 2^k when it is a power of two (the slider), else as an exact count.
  void set_n(std::int64_t n);
  /// The request's input: a generator name, or the path of the typed numbers' file or of the chosen file.
  std::string input_kind() const;
  /// A cuda-backend request for `variant` with these values.
  RunRequest to_request(const std::string& variant) const;
};

/// What the device side looks like to the UI (from the worker's snapshot).
struct DeviceStatus {
  bool opened = false;  ///< false while the worker is still opening the device
  DeviceInfo device;    ///< available = false without a CUDA device
  std::string backend;  ///< backend name ("cuda"), "" without one
  std::string error;    ///< why there is no device
  bool busy = false;
  std::string running;  ///< variant id of the run in progress
  int batch_done = 0, batch_total = 0;
  std::string worker;        ///< the GPU worker process ("worker 4711 on gpu7 (local)"), "" when in-process
  int worker_restarts = 0;   ///< fresh workers started after a fault
  std::string worker_fault;  ///< the latest fault's reason
};

struct Message {
  enum Level { Info, Warning, Error } level = Info;
  std::string text;
};

/// A lesson as the browser lists it: from assets/lessons, or a group of registry variants that no
/// lesson file lists (so every registered variant can be reached).
struct LessonEntry {
  Lesson lesson;
  bool from_file = true;
};

class AppState {
 public:
  /// Loads the lessons from `lessons_dir` (errors become a message; registry variants still show).
  void load(const std::string& lessons_dir);

  // Selection
  const std::vector<LessonEntry>& lessons() const { return lessons_; }
  int lesson_index() const { return lesson_; }
  const Lesson* lesson() const;
  const VariantInfo* variant() const;          ///< nullptr when nothing is selected
  const LessonStep* step() const;              ///< the selected variant's step in its lesson
  int step_index() const;                      ///< its position in the lesson (0-based), -1 if none
  void select_lesson(int index);               ///< and its first variant
  bool select_lesson(const std::string& id);   ///< false when there is no such lesson
  bool select_variant(const std::string& id);  ///< also selects a lesson listing it; false if unknown

  // Scenes: the selected lesson's script (Lesson::scenes), walked by PageDown / PageUp.
  int scene_index() const { return scene_; }  ///< 0-based, -1 when no scene was opened
  const Scene* scene() const;                 ///< the open scene, nullptr if none
  int scene_count() const;                    ///< scenes of the selected lesson
  /// How many scenes were opened so far (each open_scene that succeeds counts one).
  int scene_serial() const { return scene_serial_; }
  /// Opens scene `index` (0-based) of the selected lesson: variant, view (must be one of `views`), n,
  /// block, input, then the step. Clears the pen drawings. Returns "" or a one-line error (the
  /// message is also posted; the previous scene stays).
  std::string open_scene(int index, const std::vector<std::string>& views);
  /// The next (+1) or previous (-1) scene; the first one when none is open. False at either end.
  bool move_scene(int delta, const std::vector<std::string>& views);

  /// Parses `text` as numbers and writes them to a file in the temporary folder that runs and traces
  /// read with the CLI's loader; selects the typed input. Returns "" or a one-line error.
  std::string set_typed_values(const std::string& text);
  /// Makes an input kind the parameters' input: a generator name, numbers ("3 1 7 0"), or a file path.
  /// Returns "" or a one-line error (missing file, bad numbers).
  std::string set_input(const std::string& kind);

  RunParams params;

  // Reports: runs made in this session, and a report opened from disk (replay).
  Report session;
  std::optional<Report> replay;
  std::string replay_path;
  bool show_replay = false;  ///< which of the two the results view shows
  const Report& shown() const { return show_replay && replay ? *replay : session; }
  bool showing_replay() const { return show_replay && replay.has_value(); }
  /// Opens a report file as the replay and shows it. Returns "" or a one-line error (nothing changes).
  std::string open_report(const std::string& path);
  /// Shows `r`, read from `path` already (startup_report's), as the replay.
  void show_report(const std::string& path, Report r);
  /// Writes the session's runs to `path`. Returns "" or a one-line error.
  std::string save_session(const std::string& path);
  /// Adds a finished run to the session report and shows the session.
  void add_result(RunResult r);

  /// Under the open scene's note when the numbers it ranks are not this session's (Results, Compare,
  /// Plots, Roofline, Metrics): "" when the session has the scene's run or the view ranks nothing.
  std::string scene_report_line;
  /// For the open scene whose view ranks runs, once per scene: when the session has no run of the
  /// scene's variant (a GPU machine before its first runs, or no GPU), shows the replay: the scene's own
  /// report (Scene::report) or, when the open replay lacks the run, the bundled default; `report_path`
  /// maps a report's file name ("" = the bundled default) to its path ("" = none). scene_report_line
  /// then says, on a GPU, that the numbers are the bundled report's (R runs the lesson here), or that
  /// no report has the run. Each frame it clears the line once the session is shown again (a run came in).
  void fall_back_for_scene(const std::function<std::string(const std::string&)>& report_path);

  /// The report file in `dir` with the newest "created" stamp (ties: name), "" if none loads.
  static std::string newest_report(const std::string& dir);
  /// The report the GUI replays at start without a GPU: the file named on the first line of
  /// `dir`/DEFAULT when that names a report in `dir`, else newest_report(dir). Lets a checkout keep its
  /// main recording (all reductions, with GPU traces) first while newer, narrower ones sit beside it.
  /// The report it read to check it comes out in `loaded` when given (the bundled one is 10 MB: the page
  /// and the GUI parse it once at start), and a file checked before (same path, size and time) is not
  /// parsed again.
  static std::string startup_report(const std::string& dir, Report* loaded = nullptr);

  // Device
  DeviceStatus device;
  /// Whether `v` can run here now: "" or the reason (no device for a GPU variant, broken launch rules).
  std::string why_not_runnable(const VariantInfo& v) const;

  // Intents, drained by main_window each frame.
  std::vector<RunRequest> to_run;
  /// All-reduces for the worker's GPUs (the All-reduce tab's "Run on the GPUs"); answers land in allreduce.
  std::vector<collective::AllReduceRequest> to_allreduce;
  bool cancel_requested = false;
  /// Queues the selected variant; false (and a message) when it cannot run.
  bool request_run();
  /// Requests for every runnable variant of the selected lesson, each with its own default launch
  /// where the chosen block/grid breaks its rules; the ids that cannot run go to `skipped`.
  std::vector<RunRequest> lesson_requests(std::vector<std::string>* skipped = nullptr) const;
  /// Queues lesson_requests() (a message lists the skipped ones). Returns how many were queued.
  int request_run_lesson();

  // Messages (newest last); the main window shows the latest until dismissed.
  std::vector<Message> messages;
  void message(Message::Level level, const std::string& text);

  // Text fields of the report bar.
  std::string report_path;
  /// Open the newest assets/reports/ file when the device turns out to be missing (off after --report).
  bool auto_replay = true;

  /// The tab the centre shows ("results", "tree", "warps", "banks"); set by --view and by clicks.
  std::string view = "results";

  /// The All-reduce tab (issue 30): what it draws and where its step slider stands; a scene with a
  /// "collective" sets them (open_scene), the view's controls and Left/Right change them.
  struct AllReduceView {
    collective::Algorithm algorithm = collective::Algorithm::Ring;
    int gpus = 4;          ///< 2..collective::kMaxGpus
    int bytes_log2 = 28;   ///< bytes per GPU = 2^bytes_log2 (12..30: 4 KiB .. 1 GiB)
    int step = 0;          ///< 0 = before any step, k = after step k of the schedule
    bool playing = false;  ///< Space: one step per 1 / speed seconds, as the trace views' player
    double clock = 0;      ///< seconds towards the next step while playing
    /// This session's all-reduces on the worker's GPUs (the tab's "Run on the GPUs"), newest first: the picture
    /// takes a measured ring or tree of its GPU count and size from here before the bundled report.
    std::vector<collective::AllReduceResult> measured;
    int pending = 0;        ///< asked (to_allreduce or the worker) and not yet answered
    std::string note;       ///< why the latest ask did not run (one line); "" when it ran
    int visible_gpus = -1;  ///< the GPUs the worker's machine sees, from its latest answer (-1: none yet)
  } allreduce;

  /// Presses of Left/Right/PageUp/PageDown since the last frame, oldest first (MainWindow::draw drains them).
  std::vector<NavKey> nav_keys;

  // Step-through views: the selected variant's trace (sim model, block 0, one block window).
  TraceState trace;
  /// What the trace of the current selection and parameters is computed for.
  TraceKey trace_key() const;
  /// Recomputes the trace when the selection or parameters changed (one block: fast enough for the
  /// UI thread). Keeps the step index when only the input changed and it is still in range.
  void refresh_trace();
  /// refresh_trace() while the editor holds an edit of the selected variant: the edit's recorded steps
  /// (KernelEdit::step_trace) or one line why there are none.
  void show_edit_trace(const TraceKey& k);

  /// Compare, Plots, Sweep, Live and exports (perf_state.hpp).
  PerfState perf;

  /// The Grid view: every warp of the launch (grid_summary.hpp).
  GridState grid;

  /// The Source view's editor of a variant's kernel ("Edit a copy", kernel_edit.hpp).
  KernelEdit edit;
  /// The editor's "Find the bound": the copies, the three runs and the slides' reading (bound_edit.hpp).
  BoundEdit bound;

 private:
  std::vector<LessonEntry> lessons_;
  int lesson_ = -1;
  bool session_capped_ = false;  ///< the session reached kMaxReportRuns and said so
  std::string variant_;
  int scene_ = -1;
  int scene_serial_ = 0;            ///< scene_serial()
  std::string scene_checked_;       ///< lesson and scene fall_back_for_scene last looked at
  bool picked_by_scene_ = false;    ///< perf.picked holds a scene's "compare" list, not the user's pick
  bool replay_from_scene_ = false;  ///< the replay is a report a scene named (Scene::report)
  /// Racy variants teach with ones (the expected sum is n, so the lost additions show); others random.
  void apply_default_input();
};

}  // namespace ws::controller
