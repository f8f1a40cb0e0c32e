#include "exercises.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>
#include <utility>

#include "paths.hpp"
#include "registry.hpp"
#include "user_kernel.hpp"

namespace ws {

using nlohmann::json;

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

std::string text_field(const json& j, const char* key, const std::string& where, bool required = true) {
  if (!j.contains(key)) {
    if (required) throw std::runtime_error(where + ": no \"" + key + "\"");
    return "";
  }
  if (!j[key].is_string()) throw std::runtime_error(where + ": \"" + key + "\" must be a string");
  return j[key].get<std::string>();
}

Exercise read_exercise(const std::filesystem::path& folder) {
  const std::string id = folder.filename().string();
  const std::string where = "exercise " + id;
  std::ifstream in(folder / "exercise.json");
  if (!in) throw std::runtime_error(where + ": no exercise.json");
  const json j = json::parse(in, nullptr, true, true);
  if (!j.is_object()) throw std::runtime_error(where + ": exercise.json is not an object");
  Exercise e;
  e.id = id;
  if (text_field(j, "id", where) != id) throw std::runtime_error(where + ": \"id\" must be its folder's name");
  e.lesson = text_field(j, "lesson", where);
  const std::string pattern = text_field(j, "pattern", where);
  if (!parse_pattern(pattern, e.pattern) || !kernel_contract(e.pattern))
    throw std::runtime_error(where + ": pattern '" + pattern + "' has no kernel contract");
  e.title = text_field(j, "title", where);
  e.statement = text_field(j, "statement", where);
  e.like = text_field(j, "like", where, false);
  e.reference = text_field(j, "reference", where, false);
  for (const std::string& v : {e.like, e.reference})
    if (!v.empty() && !find_variant(v)) throw std::runtime_error(where + ": unknown variant '" + v + "'");
  if (j.contains("min_speed")) {
    if (!j["min_speed"].is_number() || j["min_speed"].get<double>() < 0 || j["min_speed"].get<double>() > 10)
      throw std::runtime_error(where + ": \"min_speed\" must be a number in 0..10");
    e.min_speed = j["min_speed"].get<double>();
  }
  if (e.min_speed > 0 && e.reference.empty())
    throw std::runtime_error(where + ": a speed goal needs a \"reference\" variant");
  if (j.contains("speed_n")) {
    if (!j["speed_n"].is_number_integer() || j["speed_n"].get<std::int64_t>() < 1)
      throw std::runtime_error(where + ": \"speed_n\" must be a positive integer");
    e.speed_n = j["speed_n"].get<std::int64_t>();
  }
  if (!j.contains("cases") || !j["cases"].is_array() || j["cases"].empty())
    throw std::runtime_error(where + ": \"cases\" must be a non-empty array");
  for (const json& c : j["cases"]) {
    ExerciseCase k;
    if (!c.is_object() || !c.contains("n") || !c["n"].is_number_integer() || c["n"].get<std::int64_t>() < 1)
      throw std::runtime_error(where + ": every case needs a positive integer \"n\"");
    k.n = c["n"].get<std::int64_t>();
    if (c.contains("input")) k.input = text_field(c, "input", where);
    if (k.input != "random" && k.input != "ones" && k.input != "sequence")
      throw std::runtime_error(where + ": a case's input is random, ones or sequence");
    if (c.contains("seed")) {
      if (!c["seed"].is_number_unsigned()) throw std::runtime_error(where + ": \"seed\" must be an unsigned integer");
      k.seed = c["seed"].get<std::uint64_t>();
    }
    e.cases.push_back(k);
  }
  if (j.contains("hints")) {
    if (!j["hints"].is_array()) throw std::runtime_error(where + ": \"hints\" must be an array of strings");
    for (const json& h : j["hints"]) {
      if (!h.is_string()) throw std::runtime_error(where + ": \"hints\" must be an array of strings");
      e.hints.push_back(h.get<std::string>());
    }
  }
  e.starter_path = (folder / "starter.cu").string();
  e.solution_path = (folder / "solution.cu").string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(e.starter_path, ec)) throw std::runtime_error(where + ": no starter.cu");
  return e;
}

}  // namespace

std::vector<Exercise> load_exercises(const std::string& dir, std::vector<std::string>* problems) {
  const std::filesystem::path root =
      dir.empty() ? std::filesystem::path(assets_dir()) / "exercises" : std::filesystem::path(dir);
  std::vector<Exercise> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root, ec)) {
    if (!entry.is_directory()) continue;
    try {
      out.push_back(read_exercise(entry.path()));
    } catch (const std::exception& e) {
      if (problems) problems->push_back(e.what());
    }
  }
  std::sort(out.begin(), out.end(), [](const Exercise& a, const Exercise& b) { return a.id < b.id; });
  return out;
}

const Exercise* find_exercise(const std::vector<Exercise>& all, const std::string& id) {
  for (const Exercise& e : all)
    if (e.id == id) return &e;
  return nullptr;
}

bool GradeReport::passed() const {
  if (checks.empty()) return false;
  for (const GradeCheck& c : checks)
    if (!c.passed) return false;
  return true;
}

Grading::Grading(const Exercise& ex, std::string source, std::string file, std::string label)
    : ex_(ex), source_(std::move(source)), file_(std::move(file)), label_(std::move(label)) {
  g_.exercise = ex_.id;
  g_.file = file_;
  pending_ = case_request(0);
}

int Grading::runs_most() const { return int(ex_.cases.size()) + (ex_.min_speed > 0 ? 4 : 0); }

RunRequest Grading::case_request(std::size_t i) const {
  RunRequest r;
  r.kernel.source = source_;
  r.kernel.file = file_;
  r.kernel.pattern = ex_.pattern;
  r.kernel.like = ex_.like;
  r.kernel.label = kernel_run_label();
  r.backend = BackendKind::Cuda;
  if (i < ex_.cases.size()) {
    r.n = ex_.cases[i].n;
    r.input = ex_.cases[i].input;
    r.seed = ex_.cases[i].seed;
    r.repeat = 1;
    r.warmup = 0;
  }
  return r;
}

bool Grading::answers(const RunResult& r) const {
  if (done_) return false;
  if (!pending_.kernel.empty()) return r.variant == kernel_run_label();
  return r.variant == pending_.variant && r.n == pending_.n && r.backend == BackendKind::Cuda;
}

void Grading::take(const RunResult& r) {
  if (done_) return;
  ++runs_done_;
  if (g_.device.empty()) g_.device = r.device;
  if (speed_step_ < 0) {
    GradeCheck c{"case " + std::to_string(case_ + 1), false, true, ""};
    bool compile_error = false;
    if (case_ == 0) {
      // A compile error comes back as an error whose message starts with the file's name.
      compile_error = r.status == RunStatus::Error && r.message.rfind(file_ + ":", 0) == 0;
      compiles_.passed = !compile_error;
      compiles_.detail = compiles_.passed ? r.code_path : r.message;
    }
    if (compile_error) {
      stop_ = true;
      c.ran = false;
      c.detail = "not run";
    } else {
      c.passed = r.status == RunStatus::Ok;
      // The verdict without the case's values: a hidden case stays hidden.
      c.detail = c.passed                         ? "correct"
                 : r.status == RunStatus::Wrong   ? "wrong result"
                 : r.status == RunStatus::Faulted ? "the kernel faulted or hung: " + r.message
                                                  : "did not run: " + r.message;
      if (r.status == RunStatus::Faulted) stop_ = true;
    }
    cases_.push_back(std::move(c));
    for (++case_; stop_ && case_ < ex_.cases.size(); ++case_)
      cases_.push_back({"case " + std::to_string(case_ + 1), false, false, "not run"});
    if (case_ < ex_.cases.size()) {
      pending_ = case_request(case_);
      return;
    }
    g_.checks.push_back(compiles_);
    for (GradeCheck& k : cases_) g_.checks.push_back(std::move(k));
    if (ex_.min_speed > 0) return start_speed();
    return finish();
  }
  // The speed check: reference and submission alternated, so both see the same clocks.
  GradeCheck& speed = g_.checks.back();
  const std::int64_t n = pending_.n;
  if (r.status != RunStatus::Ok || !r.timed) {
    speed.detail = speed_step_ % 2 == 0 ? "the reference " + ex_.reference + " did not run: " + r.message
                                        : "the submission did not run at n = " + std::to_string(n) + ": " + r.message;
    return finish();
  }
  double& best = speed_step_ % 2 == 0 ? best_ref_ : best_mine_;
  best = best == 0 ? r.timing.median_ms : std::min(best, r.timing.median_ms);
  if (++speed_step_ < 4) {
    if (speed_step_ % 2 == 0) {
      pending_ = RunRequest{};
      pending_.variant = ex_.reference;
      pending_.n = n;
      pending_.repeat = 20;
      pending_.backend = BackendKind::Cuda;
    } else {
      pending_ = case_request(ex_.cases.size());
      pending_.n = n;
      pending_.repeat = 20;
    }
    return;
  }
  g_.speed_ratio = best_mine_ > 0 ? best_ref_ / best_mine_ : 0;
  speed.passed = g_.speed_ratio >= ex_.min_speed;
  speed.detail = fmt("%.2fx", g_.speed_ratio) + " of " + ex_.reference +
                 "'s speed (goal >= " + fmt("%.2fx", ex_.min_speed) + "): " + fmt("%.4f ms", best_mine_) + " against " +
                 fmt("%.4f ms", best_ref_) + " at n = " + std::to_string(n) + ", same process";
  finish();
}

void Grading::start_speed() {
  GradeCheck speed{"speed", false, !stop_, ""};
  bool all_correct = true;
  for (const GradeCheck& c : g_.checks) all_correct = all_correct && c.passed;
  if (!all_correct) {
    speed.ran = false;
    speed.detail = "not run: the submission must be correct first";
    g_.checks.push_back(speed);
    return finish();
  }
  g_.checks.push_back(speed);
  speed_step_ = 0;
  pending_ = RunRequest{};
  pending_.variant = ex_.reference;
  pending_.n = ex_.speed_n > 0 ? ex_.speed_n : std::int64_t(1) << 24;
  pending_.repeat = 20;
  pending_.backend = BackendKind::Cuda;
}

void Grading::finish() {
  done_ = true;
  pending_ = RunRequest{};
}

GradeReport grade_exercise(const Exercise& ex, const std::string& source, const std::string& file,
                           const std::function<RunResult(const RunRequest&)>& run) {
  Grading g(ex, source, file);
  while (const RunRequest* r = g.next()) g.take(run(*r));
  return g.report();
}

std::string format_grade(const GradeReport& g) {
  std::string s;
  for (const GradeCheck& c : g.checks) {
    s += std::string(!c.ran ? "SKIP " : c.passed ? "PASS " : "FAIL ") + c.name;
    if (!c.detail.empty()) s += ": " + c.detail;
    s += "\n";
  }
  int passed = 0;
  for (const GradeCheck& c : g.checks) passed += c.passed;
  s += std::string(g.passed() ? "PASSED " : "NOT PASSED ") + g.exercise + ": " + std::to_string(passed) + " of " +
       std::to_string(g.checks.size()) + " checks" + (g.device.empty() ? "" : " on " + g.device) + "\n";
  return s;
}

std::string grade_to_json(const GradeReport& g) {
  json checks = json::array();
  for (const GradeCheck& c : g.checks)
    checks.push_back({{"name", c.name}, {"passed", c.passed}, {"ran", c.ran}, {"detail", c.detail}});
  const json j = {{"exercise", g.exercise},       {"file", g.file},  {"device", g.device}, {"passed", g.passed()},
                  {"speed_ratio", g.speed_ratio}, {"checks", checks}};
  return j.dump(2);
}

}  // namespace ws
