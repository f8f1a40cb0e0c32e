#include "app_state.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "registry.hpp"
#include "trace/trace_compare.hpp"

namespace ws::controller {

void RunParams::set_n(std::int64_t count) {
  if (count > 0 && (count & (count - 1)) == 0) {
    n_pow2 = true;
    n_log2 = 0;
    while ((std::int64_t(1) << n_log2) < count) ++n_log2;
  } else {
    n_pow2 = false;
    n_exact = std::max<std::int64_t>(1, count);
  }
}

std::string RunParams::input_kind() const {
  if (input == kInputTyped) return typed_path;
  if (input == kInputFile) return file_path;
  return kInputKinds[std::clamp(input, 0, kInputGenerators - 1)];
}

RunRequest RunParams::to_request(const std::string& variant) const {
  RunRequest r;
  r.variant = variant;
  r.n = request_n();
  r.launch = LaunchConfig{block, grid};
  r.repeat = repeat;
  r.type = type;
  r.input = input_kind();
  r.seed = seed;
  r.backend = BackendKind::Cuda;
  r.params = pattern;
  r.params.output_path.clear();  // the GUI keeps outputs in its results, never writes them
  r.metrics = metrics;
  return r;
}

void AppState::load(const std::string& lessons_dir) {
  lessons_.clear();
  // One bad lesson file costs that lesson only: the good ones load, the bad ones are named.
  std::vector<std::string> problems;
  try {
    for (auto& l : load_lessons(lessons_dir, &problems)) lessons_.push_back(LessonEntry{std::move(l), true});
  } catch (const std::exception& e) { problems.push_back(e.what()); }
  // Each problem names its file, and says whether the lesson or only one of its scenes was dropped.
  for (const std::string& p : problems) std::fprintf(stderr, "warpscope: lessons: %s\n", p.c_str());
  if (problems.size() == 1)
    message(Message::Error, "lessons: " + problems[0]);
  else if (!problems.empty())
    message(Message::Error,
            "lessons: " + std::to_string(problems.size()) + " problems: " + problems[0] + "; ... (all on stderr)");
  // Registry variants that no lesson file lists, grouped by their lesson id, so all can be reached.
  std::set<std::string> listed;
  for (const auto& e : lessons_)
    for (const auto& s : e.lesson.steps) listed.insert(s.variant);
  for (const auto& v : all_variants()) {
    if (listed.count(v.id)) continue;
    auto it = std::find_if(lessons_.begin(), lessons_.end(),
                           [&](const LessonEntry& e) { return !e.from_file && e.lesson.id == v.lesson; });
    if (it == lessons_.end()) {
      LessonEntry e;
      e.from_file = false;
      e.lesson.id = v.lesson;
      e.lesson.title = v.baseline ? "Library baselines (" + v.lesson + ")" : "More variants (" + v.lesson + ")";
      e.lesson.seed = v.seed;
      // Cite the document as its lesson file does; a library baseline's "seed" is the library itself.
      e.lesson.source = v.seed;
      for (const auto& f : lessons_)
        if (f.from_file && f.lesson.seed == v.seed) {
          e.lesson.lecture = f.lesson.lecture;
          e.lesson.authors = f.lesson.authors;
          e.lesson.source = f.lesson.source;
        }
      e.lesson.summary = "Variants registered in this build that no lesson file lists.";
      lessons_.push_back(std::move(e));
      it = std::prev(lessons_.end());
    }
    if (std::find(it->lesson.patterns.begin(), it->lesson.patterns.end(), v.pattern) == it->lesson.patterns.end())
      it->lesson.patterns.push_back(v.pattern);
    it->lesson.steps.push_back(LessonStep{v.id, "", std::nullopt});
  }
  if (!lessons_.empty()) select_lesson(0);
}

const Lesson* AppState::lesson() const {
  return lesson_ >= 0 && lesson_ < int(lessons_.size()) ? &lessons_[lesson_].lesson : nullptr;
}

const VariantInfo* AppState::variant() const { return variant_.empty() ? nullptr : find_variant(variant_); }

int AppState::step_index() const {
  const Lesson* l = lesson();
  if (!l) return -1;
  for (std::size_t i = 0; i < l->steps.size(); ++i)
    if (l->steps[i].variant == variant_) return int(i);
  return -1;
}

const LessonStep* AppState::step() const {
  const int i = step_index();
  return i < 0 ? nullptr : &lesson()->steps[i];
}

void AppState::select_lesson(int index) {
  if (index < 0 || index >= int(lessons_.size())) return;
  if (index != lesson_) scene_ = -1;
  trace.pending_step = -1;
  lesson_ = index;
  const auto& steps = lessons_[index].lesson.steps;
  variant_ = steps.empty() ? std::string() : steps.front().variant;
  apply_default_input();
}

void AppState::apply_default_input() {
  if (!params.input_auto) return;
  const VariantInfo* v = variant();
  const std::string want = v && !v->default_input.empty() ? v->default_input : "random";
  for (int i = 0; i < kInputGenerators; ++i)
    if (want == kInputKinds[i]) params.input = i;
}

bool AppState::select_lesson(const std::string& id) {
  for (std::size_t i = 0; i < lessons_.size(); ++i)
    if (lessons_[i].lesson.id == id) {
      select_lesson(int(i));
      return true;
    }
  return false;
}

bool AppState::select_variant(const std::string& id) {
  if (!find_variant(id)) return false;
  variant_ = id;
  trace.pending_step = -1;
  apply_default_input();
  if (step_index() >= 0) return true;  // the current lesson lists it
  for (std::size_t i = 0; i < lessons_.size(); ++i)
    for (const auto& s : lessons_[i].lesson.steps)
      if (s.variant == id) {
        if (lesson_ != int(i)) scene_ = -1;
        lesson_ = int(i);
        return true;
      }
  return true;
}

int AppState::scene_count() const {
  const Lesson* l = lesson();
  return l ? int(l->scenes.size()) : 0;
}

const Scene* AppState::scene() const {
  return scene_ >= 0 && scene_ < scene_count() ? &lesson()->scenes[std::size_t(scene_)] : nullptr;
}

std::string AppState::set_typed_values(const std::string& text) {
  std::vector<double> values;
  std::string err = parse_scene_input(text, values);
  if (err.empty() && values.empty()) err = "type numbers separated by spaces or commas, e.g. 3 1 7 0 4 1 6 3";
  if (err.empty() && is_generated_kind(text)) err = "'" + text + "' is a generator: pick it in the input list";
  if (!err.empty()) return err;
  // One file per distinct list, so that runs queued with an earlier list keep reading theirs.
  std::string normal;
  for (double v : values) normal += format_value(v, DType::Float32) + "\n";
  char name[64];
  std::snprintf(name, sizeof name, "warpscope-typed-%016zx.txt", std::hash<std::string>{}(normal));
  std::error_code ec;
  const std::filesystem::path path = std::filesystem::temp_directory_path(ec) / name;
  if (ec) return "no temporary folder to keep the typed numbers in: " + ec.message();
  {
    std::ofstream out(path);
    out << normal;
    if (!out) return "cannot write the typed numbers to " + path.string();
  }
  params.typed_values = text;
  params.typed_path = path.string();
  params.input = kInputTyped;
  params.input_auto = false;
  return "";
}

std::string AppState::set_input(const std::string& kind) {
  for (int i = 0; i < kInputGenerators; ++i)
    if (kind == kInputKinds[i]) {
      params.input = i;
      params.input_auto = false;
      return "";
    }
  if (kind.empty()) return "no input given";
  std::error_code ec;
  if (std::filesystem::is_regular_file(kind, ec)) {
    params.file_path = kind;
    params.input = kInputFile;
    params.input_auto = false;
    return "";
  }
  std::vector<double> values;
  if (parse_scene_input(kind, values).empty() && !values.empty()) return set_typed_values(kind);
  // It exists, but is not a file to read to its end: say what it is, not "use an existing file".
  if (std::filesystem::exists(kind, ec)) {
    const std::string err = check_input_file(kind, kMaxNumberFileBytes, "input");
    return err.empty() ? "input '" + kind + "' is not a regular file" : err;
  }
  return "unknown input '" + kind + "': use random, ones, sequence, numbers like \"3 1 7 0\", or an existing file";
}

std::string AppState::open_scene(int index, const std::vector<std::string>& views) {
  const Lesson* l = lesson();
  std::string err;
  if (!l || l->scenes.empty())
    err = "lesson " + (l ? l->id : std::string("(none)")) + " has no scenes";
  else if (index < 0 || index >= int(l->scenes.size()))
    err = "lesson " + l->id + " has scenes 1 to " + std::to_string(l->scenes.size()) + ", not " +
          std::to_string(index + 1);
  const Scene* sc = err.empty() ? &l->scenes[std::size_t(index)] : nullptr;
  if (sc && !sc->view.empty() && std::find(views.begin(), views.end(), sc->view) == views.end())
    err = "scene " + std::to_string(index + 1) + " of " + l->id + " names an unknown view '" + sc->view + "'";
  if (sc && err.empty() && !find_variant(sc->variant))
    err = "scene " + std::to_string(index + 1) + ": unknown variant " + sc->variant;
  if (!err.empty()) {
    message(Message::Warning, err);
    return err;
  }
  // Keep the lesson even when the scene shows a variant it does not list (the scenes stay reachable).
  const int keep_lesson = lesson_;
  variant_ = sc->variant;
  params.block = sc->block;
  params.grid = 0;
  if (sc->n > 0)
    params.set_n(sc->n);
  else
    params.n_pow2 = true, params.n_log2 = 20;
  params.input_auto = sc->input.empty();
  if (sc->input.empty())
    apply_default_input();
  else if (std::string e = set_input(sc->input); !e.empty())
    message(Message::Warning, "scene " + std::to_string(index + 1) + ": " + e);
  lesson_ = keep_lesson;
  scene_ = index;
  ++scene_serial_;
  if (!sc->view.empty()) view = sc->view;
  if (sc->collective) {  // the All-reduce view's picture (lesson "Reduction across GPUs")
    const CollectiveStep& c = *sc->collective;
    allreduce.algorithm = c.algorithm();
    allreduce.gpus = c.gpus;
    if (c.bytes > 0)
      for (int e = 0; e < 31; ++e)
        if ((std::int64_t(1) << e) == c.bytes) allreduce.bytes_log2 = e;
    allreduce.step = c.step;
    allreduce.playing = false;
  }
  // A scene's own comparison replaces the picks while it is open; the next scene without one goes back to
  // the lesson's. Picks made while no such scene was open stay.
  if (!sc->compare.empty()) {
    perf.picked = std::set<std::string>(sc->compare.begin(), sc->compare.end());
    picked_by_scene_ = true;
  } else if (picked_by_scene_) {
    perf.picked.clear();
    picked_by_scene_ = false;
  }
  perf.present.strokes.clear();
  trace.blocks = std::max(1, sc->blocks);  // a scene shows block 0 of its trace (one block unless it says); [ and ]
  trace.block_index = 0;
  trace.whole_launch = false;
  trace.key.reset();
  refresh_trace();
  trace.step = std::clamp(sc->step, 0, std::max(0, trace.steps() - 1));
  trace.pending_step = sc->step;  // kept if the trace is recomputed (a report opening) before it is shown
  return "";
}

bool AppState::move_scene(int delta, const std::vector<std::string>& views) {
  const int n = scene_count();
  if (n == 0) return false;
  const int next = scene_ < 0 ? 0 : scene_ + delta;
  if (next < 0 || next >= n) return false;
  return open_scene(next, views).empty();
}

void AppState::fall_back_for_scene(const std::function<std::string(const std::string&)>& report_path) {
  const Scene* sc = scene();
  static const char* const kRanking[] = {"results", "compare", "plots", "roofline", "metrics"};
  const bool ranks = sc && std::find_if(std::begin(kRanking), std::end(kRanking),
                                        [&](const char* v) { return view == v; }) != std::end(kRanking);
  if (!ranks) {
    scene_report_line.clear();
    scene_checked_.clear();
    return;
  }
  const std::string key = (lesson() ? lesson()->id : std::string()) + "#" + std::to_string(scene_);
  if (key == scene_checked_) {
    if (!showing_replay()) scene_report_line.clear();  // the session's runs are shown now
    return;
  }
  scene_checked_ = key;
  scene_report_line.clear();
  auto has_run = [&](const Report& r) {
    auto of = [&](const RunResult& x) { return x.variant == sc->variant; };
    if (std::any_of(r.runs.begin(), r.runs.end(), of)) return true;
    return std::any_of(r.sweeps.begin(), r.sweeps.end(),
                       [&](const Sweep& w) { return std::any_of(w.runs.begin(), w.runs.end(), of); });
  };
  if (has_run(session)) return;  // this machine's own runs: shown as they are
  // The scene's own report (a recorded sweep), else the bundled default unless the open one has the run.
  const bool named = !sc->report.empty();
  // A report another scene opened (its sweep) gives way to the default again.
  if (!replay || (named && std::filesystem::path(replay_path).filename() != sc->report) ||
      (!named && (replay_from_scene_ || !has_run(*replay))))
    if (const std::string path = report_path ? report_path(sc->report) : std::string(); !path.empty()) {
      if (std::string err = open_report(path); !err.empty())
        message(Message::Error, err);
      else
        replay_from_scene_ = named;
    }
  if (replay && has_run(*replay)) {
    show_replay = true;
    const std::string file = std::filesystem::path(replay_path).filename().string();
    const std::string where = replay->device.name.empty() ? file : replay->device.name + ", " + file;
    if (device.device.available)
      scene_report_line = "No run on this GPU yet: the bundled report's numbers (" + where +
                          ") are shown; R runs the lesson here, r this variant.";
    return;
  }
  scene_report_line = "No run of " + sc->variant + " in " + (replay ? "the report shown" : "this session") +
                      (device.device.available ? ": R runs the lesson on this GPU, r this variant."
                                               : ": its numbers need a GPU (a report recorded on one, or r there).");
}

std::string AppState::open_report(const std::string& path) {
  if (path.empty()) return "no report path given";
  try {
    show_report(path, load_report(path));
    return "";
  } catch (const std::exception& e) { return describe_exception(e); }
}

void AppState::show_report(const std::string& path, Report r) {
  replay = std::move(r);
  replay_path = path;
  show_replay = true;
  report_path = path;
  replay_from_scene_ = false;  // fall_back_for_scene marks its own
}

std::string AppState::save_session(const std::string& path) {
  if (path.empty()) return "type a file path first, e.g. my-session.json";
  if (session.runs.empty() && session.sweeps.empty()) return "nothing to save: this session has no runs or sweeps yet";
  try {
    save_report(session, path);
    return "";
  } catch (const std::exception& e) { return describe_exception(e); }
}

void AppState::add_result(RunResult r) {
  // The session is a report: it keeps what a report may hold (the newest runs) so Save session reopens.
  if (session.runs.size() >= kMaxReportRuns) {
    if (!session_capped_)
      message(Message::Warning, "this session keeps its newest " + std::to_string(kMaxReportRuns) +
                                    " runs (what a report may hold): older ones are dropped");
    session.runs.erase(session.runs.begin());
    session_capped_ = true;
  }
  session.runs.push_back(std::move(r));
  show_replay = false;
}

std::string AppState::newest_report(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return "";
  std::string best, best_created;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    try {
      Report r = load_report(p.string());
      if (best.empty() || r.created >= best_created) {
        best = p.string();
        best_created = r.created;
      }
    } catch (const std::exception&) {
      // Not a report (or a newer format): skip it.
    }
  }
  return best;
}

std::string AppState::startup_report(const std::string& dir, Report* loaded) {
  // DEFAULT names one report file: a line, so 4 KiB is plenty (a device or a huge file is not read).
  std::string text, name;
  if (read_file_bounded((std::filesystem::path(dir) / "DEFAULT").string(), 4096, "DEFAULT file", text).empty()) {
    name = text.substr(0, text.find('\n'));
    while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
    const auto p = std::filesystem::path(dir) / name;
    std::error_code ec;
    if (!name.empty() && name.find('/') == std::string::npos && std::filesystem::is_regular_file(p, ec)) {
      // The last file that read as a report (the GUI's thread alone calls this).
      static struct {
        std::string path;
        std::uintmax_t size = 0;
        std::filesystem::file_time_type time;
      } checked;
      std::error_code size_ec, time_ec;
      const std::uintmax_t size = std::filesystem::file_size(p, size_ec);
      const auto time = std::filesystem::last_write_time(p, time_ec);
      const bool known = !size_ec && !time_ec;
      if (!loaded && known && checked.path == p.string() && checked.size == size && checked.time == time)
        return p.string();
      try {
        Report r = load_report(p.string());
        if (known) checked = {p.string(), size, time};
        if (loaded) *loaded = std::move(r);
        return p.string();
      } catch (const std::exception&) {
        // Not a report: fall back to the newest.
      }
    }
  }
  std::string newest = newest_report(dir);
  if (loaded && !newest.empty()) {
    try {
      *loaded = load_report(newest);
    } catch (const std::exception&) { newest.clear(); }  // gone or changed since
  }
  return newest;
}

std::string AppState::why_not_runnable(const VariantInfo& v) const {
  if (!v.cpu_only) {
    if (!device.opened) return "opening the CUDA device...";
    if (!device.device.available) {
      if (replay)
        for (const auto& r : replay->runs)
          if (r.variant == v.id)
            return "no CUDA device: " + v.id + " needs an NVIDIA GPU; the recorded report shows its runs on " +
                   (replay->device.name.empty() ? std::string("a GPU") : replay->device.name) + ".";
      return "no CUDA device: " + v.id + " needs an NVIDIA GPU. Open a report recorded on one to see its numbers.";
    }
  }
  LaunchConfig resolved;
  return resolve_launch(v, params.n(), params.type, LaunchConfig{params.block, params.grid}, device.device.shape(),
                        resolved);
}

bool AppState::request_run() {
  const VariantInfo* v = variant();
  if (!v) return false;
  if (std::string why = why_not_runnable(*v); !why.empty()) {
    message(Message::Warning, why);
    return false;
  }
  to_run.push_back(params.to_request(v->id));
  return true;
}

std::vector<RunRequest> AppState::lesson_requests(std::vector<std::string>* skipped) const {
  std::vector<RunRequest> out;
  const Lesson* l = lesson();
  if (!l) return out;
  for (const auto& s : l->steps) {
    const VariantInfo* v = find_variant(s.variant);
    if (!v) continue;
    RunRequest req = params.to_request(v->id);
    std::string why = why_not_runnable(*v);
    if (!why.empty() && device.opened && (device.device.available || v->cpu_only)) {
      // The chosen block/grid may break this variant's rules: fall back to its own defaults.
      LaunchConfig resolved;
      req.launch = LaunchConfig{};
      why = resolve_launch(*v, req.n, req.type, req.launch, device.device.shape(), resolved);
    }
    if (!why.empty()) {
      if (skipped) skipped->push_back(v->id);
      continue;
    }
    out.push_back(req);
  }
  return out;
}

int AppState::request_run_lesson() {
  std::vector<std::string> skipped;
  std::vector<RunRequest> reqs = lesson_requests(&skipped);
  if (!skipped.empty()) {
    std::string list;
    for (const auto& id : skipped) list += (list.empty() ? "" : ", ") + id;
    const std::string why =
        device.device.available ? "their launch rules or type do not fit these parameters" : "they need a CUDA device";
    message(Message::Warning, "skipped " + std::to_string(skipped.size()) + " of " +
                                  std::to_string(skipped.size() + reqs.size()) + " variants (" + why + "): " + list);
  }
  to_run.insert(to_run.end(), reqs.begin(), reqs.end());
  return int(reqs.size());
}

void AppState::message(Message::Level level, const std::string& text) { messages.push_back(Message{level, text}); }

TraceKey AppState::trace_key() const {
  TraceKey k;
  if (const VariantInfo* v = variant()) k.variant = v->id;
  if (edit.steps_are_the_edits(k.variant)) k.edit_trace = 1 + edit.step_trace_generation();
  k.n = params.n();
  k.block = params.block;
  k.type = params.type;
  k.exclusive = params.pattern.exclusive;
  k.input = params.input_kind();
  if (params.input >= kInputGenerators) k.n = 0;  // a file: all of its numbers
  if (params.input == kInputTyped)
    k.input_label = "typed " + params.typed_values;
  else if (params.input == kInputFile)
    k.input_label = "file " + params.file_path;
  k.seed = params.seed;
  k.use_recorded = trace.use_recorded;
  if (replay) k.report_created = replay_path + "@" + replay->created;
  k.keep = params.pattern.keep_fraction;  // filters: the kept fraction shapes the trace
  if (trace.whole_launch) {               // a block of the whole launch, opened from the Grid view
    k.whole_launch = true;
    k.grid = params.grid;
    k.block_index = std::max(0, trace.block_index);
    return k;
  }
  k.blocks = std::clamp(trace.blocks, 1, kMaxTraceBlocks);
  k.block_index = std::clamp(trace.block_index, 0, k.blocks - 1);
  return k;
}

void AppState::show_edit_trace(const TraceKey& k) {
  const KernelEdit::StepTrace* st = edit.step_trace();
  trace.recorded_available = false;
  trace.origin = "edit";
  trace.origin_note.clear();
  if (!st || st->text != edit.text) {
    trace.why_none = "the edited kernel's steps are recorded on the GPU after it runs there (Ctrl+Enter)";
  } else if (!st->trace) {
    trace.why_none = st->why;
  } else if (st->block_index != k.block_index) {
    trace.why_none = "the edited kernel's steps were recorded for block " + std::to_string(st->block_index) +
                     ": run it again (Ctrl+Enter) to record block " + std::to_string(k.block_index);
  } else {
    trace.trace = *st->trace;
    trace.origin_note =
        "the edited kernel's steps, recorded on the GPU by its traced build (lines of " + st->trace->source_file + ")";
  }
}

void AppState::refresh_trace() {
  const TraceKey k = trace_key();
  if (trace.key && *trace.key == k) return;
  const bool same_variant = trace.key && trace.key->variant == k.variant;
  trace.key = k;
  trace.trace.reset();
  trace.why_none.clear();
  trace.playing = false;
  trace.clock = 0;
  // A GPU recording stored in the open report (made on the device by report --traces) is shown when
  // it is of what the parameters ask (recording_mismatch); otherwise the sim model runs now, and the
  // header says why.
  const VariantInfo* v = variant();
  if (k.edit_trace > 0) {
    show_edit_trace(k);
    if (!same_variant) trace.step = 0;
    trace.step = std::clamp(trace.step, 0, std::max(0, trace.steps() - 1));
    return;
  }
  const Trace* recorded = nullptr;
  std::string mismatch;
  if (replay && v)
    for (const Trace& t : replay->traces) {
      if (t.variant != k.variant) continue;
      const std::string why = recording_mismatch(*v, t, k);
      if (why.empty()) {
        recorded = &t;
        break;
      }
      if (mismatch.empty()) mismatch = "sim: the recording is for " + describe_trace_config(t) + "; " + why;
    }
  trace.recorded_available = recorded != nullptr;
  if (recorded && trace.use_recorded) {
    trace.trace = *recorded;
    trace.origin = "report";
    trace.origin_note = "GPU recording of what is asked: " + describe_trace_config(*recorded);
    // A recording stored before traces carried source lines: when its ops equal the model's trace of
    // the same run, op for op, the model's lines are the lines of those very ops (else: no lines).
    // A recording whose lines are of an older kernel file (lines moved since) gets the model's lines the
    // same way: its ops equal the model's, its lines do not.
    std::string why_not;
    if (std::optional<Trace> model = compute_trace(*v, k, why_not);
        model && model->has_lines() && model->steps.size() == recorded->steps.size()) {
      Trace bare = *recorded;
      bare.source_file.clear();
      const bool same_ops = compare_traces(*model, bare).empty();
      if (same_ops && !recorded->has_lines()) {
        adopt_model_lines(*trace.trace, *model);
        trace.origin_note +=
            "; source lines from the sim model (the recording predates lines; its ops equal the model's)";
      } else if (same_ops && !compare_traces(*model, *recorded).empty()) {
        adopt_model_lines(*trace.trace, *model);
        trace.origin_note +=
            "; source lines from the sim model (the recording's lines are of an older kernel file; "
            "its ops equal the model's)";
      }
    }
  } else if (v) {
    trace.trace = compute_trace(*v, k, trace.why_none);
    trace.origin = "sim";
    trace.origin_note = recorded            ? "sim: the GPU recording is switched off (the checkbox brings it back)"
                        : !mismatch.empty() ? mismatch
                        : replay            ? "sim: the open report holds no GPU recording of " + v->id
                                            : "sim: no report with GPU recordings is open";
  } else {
    trace.why_none = "select a variant to step through its trace";
    trace.origin_note.clear();
  }
  if (!same_variant) trace.step = 0;
  if (trace.pending_step >= 0) trace.step = trace.pending_step;
  trace.step = std::clamp(trace.step, 0, std::max(0, trace.steps() - 1));
  if (trace.trace) trace.bank_warp = std::clamp(trace.bank_warp, 0, std::max(0, trace.trace->warps() - 1));
}

}  // namespace ws::controller
