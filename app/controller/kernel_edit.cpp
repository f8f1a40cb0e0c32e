#include "kernel_edit.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "file_write.hpp"
#include "limits.hpp"

namespace ws::controller {

namespace {

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/// "epita.reduce3" -> "reduce3": the part after the lesson.
std::string short_name(const std::string& id) {
  const auto dot = id.find('.');
  return dot == std::string::npos ? id : id.substr(dot + 1);
}

/// A variant id as a file name: letters, digits, '.', '_' and '-' kept, others '_'.
std::string file_safe(const std::string& id) {
  std::string out = id;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return out;
}

}  // namespace

std::vector<KernelDiagnostic> parse_diagnostic_lines(const std::string& text, const std::string& file) {
  std::vector<KernelDiagnostic> out;
  std::istringstream in(text);
  std::string line;
  static const char* const kSeverities[] = {"error", "warning", "remark", "note"};
  while (std::getline(in, line)) {
    // FILE:LINE: severity: message, or FILE: severity: message.
    for (const char* sev : kSeverities) {
      const std::string key = std::string(": ") + sev + ": ";
      const auto at = line.find(key);
      if (at == std::string::npos) continue;
      KernelDiagnostic d;
      d.severity = sev;
      d.message = line.substr(at + key.size());
      std::string where = line.substr(0, at);
      const auto colon = where.rfind(':');
      if (colon != std::string::npos && colon + 1 < where.size() &&
          std::all_of(where.begin() + long(colon) + 1, where.end(),
                      [](char c) { return std::isdigit((unsigned char)c); })) {
        d.line = std::atoi(where.c_str() + colon + 1);
        where.resize(colon);
      }
      d.file = where;
      if (where != file) d.line = 0;
      out.push_back(std::move(d));
      break;
    }
  }
  return out;
}

std::size_t line_start_offset(const std::string& text, int line) {
  std::size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return text.size();
    ++pos;
  }
  return pos;
}

int line_of_offset(const std::string& text, std::size_t pos) {
  pos = std::min(pos, text.size());
  return 1 + int(std::count(text.begin(), text.begin() + long(pos), '\n'));
}

std::size_t find_text(const std::string& text, const std::string& needle, std::size_t from, bool ignore_case) {
  if (needle.empty() || needle.size() > text.size()) return std::string::npos;
  auto eq = [ignore_case](char a, char b) {
    return ignore_case ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b))
                       : a == b;
  };
  auto search = [&](std::size_t a, std::size_t b) -> std::size_t {  // first match starting in [a, b)
    const auto end = text.begin() + long(std::min(text.size(), b + needle.size() - 1));
    const auto it = std::search(text.begin() + long(a), end, needle.begin(), needle.end(), eq);
    return it == end ? std::string::npos : std::size_t(it - text.begin());
  };
  from = std::min(from, text.size());
  std::size_t at = search(from, text.size());
  if (at == std::string::npos && from > 0) at = search(0, from);
  return at;
}

std::string edits_dir() {
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return std::string(x) + "/warpscope/edits";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.local/share/warpscope/edits";
  return "";
}

KernelEdit::KernelEdit() = default;

KernelEdit::~KernelEdit() {
  if (open_) save();
  if (compile_.valid()) compile_.wait();  // the thread reads nothing of this object, but must not outlive main
}

void KernelEdit::open(const std::string& variant, PatternKind pattern, const std::string& original,
                      const std::string& note, const std::string& save_dir) {
  open_as(variant, pattern, original, note, save_dir, file_safe(variant) + ".cu");
  exercise_.reset();
}

std::string KernelEdit::open_exercise(const Exercise& ex, const std::string& save_dir) {
  std::string starter;
  if (std::string err = read_file_bounded(ex.starter_path, kMaxKernelSourceBytes, "exercise starter", starter);
      !err.empty())
    return err;
  open_as(ex.like.empty() ? ex.reference : ex.like, ex.pattern, starter, "", save_dir,
          "exercise." + file_safe(ex.id) + ".cu");
  exercise_ = ex;
  return "";
}

void KernelEdit::open_as(const std::string& variant, PatternKind pattern, const std::string& original,
                         const std::string& note, const std::string& save_dir, const std::string& save_name) {
  if (open_) save();
  open_ = true;
  variant_ = variant;
  pattern_ = pattern;
  original_ = original;
  note_ = note;
  text = original;
  restored_ = false;
  clear_results();
  traced_.clear();
  step_trace_.reset();
  ++step_trace_generation_;
  trace_pending.clear();
  run_pending_ = false;
  grading_.reset();
  grade_.reset();
  dirty_ = false;
  save_error_.clear();
  const std::string dir = save_dir.empty() ? edits_dir() : save_dir == "-" ? "" : save_dir;
  save_path_ = dir.empty() ? "" : dir + "/" + save_name;
  if (save_path_.empty()) return;
  std::error_code ec;
  const auto size = std::filesystem::file_size(save_path_, ec);
  if (ec || size == 0 || size > kMaxKernelSourceBytes) return;
  std::ifstream in(save_path_, std::ios::binary);
  std::ostringstream saved;
  saved << in.rdbuf();
  if (in.bad() || saved.str() == original) return;
  text = saved.str();
  restored_ = true;
}

void KernelEdit::set_step_trace(StepTrace t) {
  step_trace_ = std::move(t);
  ++step_trace_generation_;
}

bool KernelEdit::steps_are_the_edits(const std::string& variant_id) const {
  return open_ && !exercise_ && variant_ == variant_id && text != original_;
}

void KernelEdit::clear_results() {
  diagnostics_.clear();
  ++diagnostics_generation_;
  status_.clear();
  status_bad_ = false;
}

std::string KernelEdit::file() const {
  return exercise_ ? short_name(exercise_->id) + ".cu" : short_name(variant_) + ".edited.cu";
}

std::string KernelEdit::run_label() const {
  UserKernel k;
  k.like = variant_;
  return user_kernel_label(k);
}

std::string KernelEdit::changed() {
  dirty_ = true;
  if (now_s() - last_save_s_ >= 1.0) return save();
  return "";
}

std::string KernelEdit::save() {
  if (!dirty_ || save_path_.empty()) return save_error_;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(save_path_).parent_path(), ec);
  save_error_ = ec ? "cannot keep the edited copy in " + std::filesystem::path(save_path_).parent_path().string() +
                         ": " + ec.message()
                   : write_file_atomic(save_path_, text);
  last_save_s_ = now_s();
  dirty_ = false;
  return save_error_;
}

void KernelEdit::reset() {
  text = original_;
  restored_ = false;
  clear_results();
  dirty_ = true;
  save();
}

std::string KernelEdit::save_as(const std::string& path) const {
  if (path.empty()) return "type a file path first, e.g. my_reduce3.cu";
  return write_file_atomic(path, text);
}

std::string KernelEdit::open_file(const std::string& path) {
  if (path.empty()) return "type the path of a .cu file first";
  std::string got;
  if (std::string err = read_file_bounded(path, kMaxKernelSourceBytes, "kernel file", got); !err.empty()) return err;
  text = std::move(got);
  clear_results();
  changed();
  return "";
}

void KernelEdit::compile(int cc_major, int cc_minor) {
  if (compiling() || !open_) return;
  save();
  CompileOptions o;
  o.cc_major = cc_major;
  o.cc_minor = cc_minor;
  o.file = file();
  KernelHeader h;
  o.entry = parse_kernel_header(text, o.file, h).empty() && !h.entry.empty() ? h.entry : "kernel";
  compiled_text_ = text;
  status_ = "compiling " + o.file + " (NVRTC, sm_" + std::to_string(cc_major) + std::to_string(cc_minor) + ")...";
  status_bad_ = false;
#ifdef WS_NO_THREADS
  std::promise<CompileResult> done;  // no threads in the browser build (and no compiler: it answers at once)
  done.set_value(compile_user_kernel(text, o));
  compile_ = done.get_future();
#else
  compile_ = std::async(std::launch::async, [src = text, o] { return compile_user_kernel(src, o); });
#endif
}

bool KernelEdit::compiling() const { return compile_.valid(); }

bool KernelEdit::poll(int wait_ms) {
  if (dirty_ && now_s() - last_save_s_ >= 1.0) save();
  if (!compile_.valid()) return false;
  if (compile_.wait_for(std::chrono::milliseconds(wait_ms)) != std::future_status::ready) return false;
  const CompileResult c = compile_.get();
  diagnostics_ = c.diagnostics;
  ++diagnostics_generation_;
  int warnings = 0;
  for (const auto& d : diagnostics_) warnings += d.severity == "warning";
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.2f s", c.ms / 1000);
  switch (c.status) {
    case CompileStatus::Ok:
      status_ = "compiles" + std::string(c.cached ? " (cached)" : " in " + std::string(ms)) +
                (warnings ? ", " + std::to_string(warnings) + " warning" + (warnings > 1 ? "s" : "") : std::string());
      status_bad_ = false;
      break;
    case CompileStatus::Failed: {
      int errors = 0;
      for (const auto& d : diagnostics_) errors += d.severity == "error";
      status_ = std::to_string(errors) + " compile error" + (errors == 1 ? "" : "s") + ": " + c.error;
      status_bad_ = true;
      break;
    }
    default:
      status_ = c.error;
      status_bad_ = true;
      if (c.status == CompileStatus::Refused && diagnostics_.empty()) {
        // "FILE:LINE: ..." refusals (an #include) land on their line too.
        KernelDiagnostic d;
        d.severity = "error";
        d.message = c.error;
        d.file = file();
        const std::string head = file() + ":";
        if (c.error.rfind(head, 0) == 0) d.line = std::atoi(c.error.c_str() + head.size());
        diagnostics_.push_back(d);
      }
      ++diagnostics_generation_;
  }
  return true;
}

RunRequest KernelEdit::run_request(RunRequest base) const {
  UserKernel k;
  k.source = text;
  k.file = file();
  k.like = variant_;
  k.pattern = pattern_;
  base.kernel = std::move(k);
  base.backend = BackendKind::Cuda;
  return base;
}

void KernelEdit::run_queued(const std::vector<RunResult>& runs) {
  save();
  ran_texts_[run_label()] = RanText{original_, text};
  run_pending_ = true;
  runs_before_ = std::size_t(
      std::count_if(runs.begin(), runs.end(), [&](const RunResult& r) { return r.variant == run_label(); }));
  status_ = "running " + run_label() + "...";
  status_bad_ = false;
}

const KernelEdit::RanText* KernelEdit::ran_text(const std::string& label) const {
  const auto it = ran_texts_.find(label);
  return it == ran_texts_.end() ? nullptr : &it->second;
}

bool KernelEdit::take_run(const std::vector<RunResult>& runs) {
  if (!run_pending_) return false;
  const RunResult* got = nullptr;
  std::size_t mine = 0;
  for (const RunResult& r : runs)
    if (r.variant == run_label()) got = &r, ++mine;
  if (!got || mine <= runs_before_) return false;
  run_pending_ = false;
  diagnostics_ = parse_diagnostic_lines(got->message, file());
  ++diagnostics_generation_;
  const RunStatus st = got->status;
  std::string head;
  if (st == RunStatus::Ok) {
    char t[64];
    std::snprintf(t, sizeof t, "%.4g ms", got->timing.median_ms);
    head = "ran: ok, checked against the CPU reference, " + std::string(got->timed ? t : "untimed");
  } else if (st == RunStatus::Error && !diagnostics_.empty()) {
    const KernelDiagnostic& d = diagnostics_.front();
    head = "did not compile on the worker's GPU: " + (d.line > 0 ? "line " + std::to_string(d.line) + ": " : "") +
           d.severity + ": " + d.message;
  } else {
    head = std::string(to_string(st)) +
           (got->message.empty() ? "" : ": " + got->message.substr(0, got->message.find('\n')));
  }
  status_ = head;
  status_bad_ = st != RunStatus::Ok;
  return true;
}

void KernelEdit::check() {
  if (!exercise_ || !open_ || checking()) return;
  save();
  grading_.emplace(*exercise_, text, file(), exercise_->id + " (check " + std::to_string(++checks_) + ")");
  check_sent_ = false;
  grade_.reset();
  status_ = check_progress();
  status_bad_ = false;
}

std::optional<RunRequest> KernelEdit::next_check_request() {
  if (!grading_ || check_sent_) return std::nullopt;
  const RunRequest* r = grading_->next();
  if (!r) return std::nullopt;
  check_sent_ = true;
  return *r;
}

bool KernelEdit::take_check_result(const RunResult& r) {
  if (!grading_ || !check_sent_ || !grading_->answers(r)) {
    // A cancelled check's run that still came back: its hidden case stays out of the session too.
    return exercise_ && r.variant.rfind(exercise_->id + " (check ", 0) == 0;
  }
  check_sent_ = false;
  if (grading_->runs_done() == 0) {  // the first case compiles the text: its messages land on their lines
    diagnostics_ = parse_diagnostic_lines(r.message, file());
    ++diagnostics_generation_;
  }
  grading_->take(r);
  if (!grading_->done()) {
    status_ = check_progress();
    return true;
  }
  grade_ = grading_->report();
  grading_.reset();
  const GradeReport& g = *grade_;
  std::string text_of = format_grade(g);
  if (!text_of.empty() && text_of.back() == '\n') text_of.pop_back();
  status_ = text_of.substr(text_of.rfind('\n') + 1);  // the verdict line
  for (const GradeCheck& c : g.checks)
    if (c.ran && !c.passed) {
      status_ += " (" + c.name + ": " + c.detail.substr(0, c.detail.find('\n')) + ")";
      break;
    }
  status_bad_ = !g.passed();
  return true;
}

void KernelEdit::cancel_check() {
  if (!grading_) return;
  grading_.reset();
  check_sent_ = false;
  status_ = "check cancelled: press Check to start it again";
  status_bad_ = true;
}

std::string KernelEdit::check_progress() const {
  if (!grading_) return "";
  return "checking " + grading_->exercise().id + " on the GPU: run " + std::to_string(grading_->runs_done() + 1) +
         " of at most " + std::to_string(grading_->runs_most()) + " (hidden cases, then the speed against " +
         (grading_->exercise().reference.empty() ? std::string("nothing") : grading_->exercise().reference) + ")";
}

const std::vector<Exercise>& gui_exercises() {
  static const std::vector<Exercise> all = load_exercises();
  return all;
}

std::vector<const Exercise*> exercises_of(const std::string& variant_id) {
  std::vector<const Exercise*> out;
  for (const Exercise& e : gui_exercises())
    if ((e.like.empty() ? e.reference : e.like) == variant_id) out.push_back(&e);
  return out;
}

std::vector<int> KernelEdit::line_marks() const {
  std::vector<int> marks(std::size_t(std::count(text.begin(), text.end(), '\n') + 1), 0);
  for (const auto& d : diagnostics_)
    if (d.line >= 1 && std::size_t(d.line) <= marks.size()) {
      int& m = marks[std::size_t(d.line - 1)];
      m = std::max(m, d.severity == "error" ? 2 : d.severity == "warning" ? 1 : 0);
    }
  return marks;
}

}  // namespace ws::controller
