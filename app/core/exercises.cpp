#include "exercises.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

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

GradeReport grade_exercise(const Exercise& ex, const std::string& source, const std::string& file,
                           const std::function<RunResult(const RunRequest&)>& run) {
  GradeReport g;
  g.exercise = ex.id;
  g.file = file;
  auto request = [&](std::int64_t n, const std::string& input, std::uint64_t seed) {
    RunRequest r;
    r.kernel.source = source;
    r.kernel.file = file;
    r.kernel.pattern = ex.pattern;
    r.kernel.like = ex.like;
    r.n = n;
    r.input = input;
    r.seed = seed;
    r.backend = BackendKind::Cuda;
    return r;
  };
  GradeCheck compiles{"compiles", false, true, ""};
  bool stop = false;
  std::vector<GradeCheck> cases;
  for (std::size_t i = 0; i < ex.cases.size(); ++i) {
    GradeCheck c{"case " + std::to_string(i + 1), false, !stop, ""};
    if (stop) {
      c.detail = "not run";
      cases.push_back(c);
      continue;
    }
    RunRequest req = request(ex.cases[i].n, ex.cases[i].input, ex.cases[i].seed);
    req.repeat = 1;
    req.warmup = 0;
    const RunResult r = run(req);
    if (g.device.empty()) g.device = r.device;
    if (i == 0) {
      // A compile error comes back as an error whose message starts with the file's name.
      const bool compile_error = r.status == RunStatus::Error && r.message.rfind(file + ":", 0) == 0;
      compiles.passed = !compile_error;
      compiles.detail = compiles.passed ? r.code_path : r.message;
      if (!compiles.passed) {
        stop = true;
        c.ran = false;
        c.detail = "not run";
        cases.push_back(c);
        continue;
      }
    }
    c.passed = r.status == RunStatus::Ok;
    // The verdict without the case's values: a hidden case stays hidden.
    c.detail = c.passed                         ? "correct"
               : r.status == RunStatus::Wrong   ? "wrong result"
               : r.status == RunStatus::Faulted ? "the kernel faulted or hung: " + r.message
                                                : "did not run: " + r.message;
    if (r.status == RunStatus::Faulted) stop = true;
    cases.push_back(c);
  }
  g.checks.push_back(compiles);
  for (GradeCheck& c : cases) g.checks.push_back(std::move(c));
  if (ex.min_speed > 0) {
    GradeCheck speed{"speed", false, !stop, ""};
    bool all_correct = true;
    for (const GradeCheck& c : g.checks) all_correct = all_correct && c.passed;
    if (!all_correct) {
      speed.ran = false;
      speed.detail = "not run: the submission must be correct first";
    } else {
      const std::int64_t n = ex.speed_n > 0 ? ex.speed_n : std::int64_t(1) << 24;
      RunRequest mine = request(n, "random", 1);
      mine.repeat = 20;
      RunRequest ref;
      ref.variant = ex.reference;
      ref.n = n;
      ref.repeat = 20;
      ref.backend = BackendKind::Cuda;
      double best_mine = 0, best_ref = 0;
      std::string why;
      for (int round = 0; round < 2 && why.empty(); ++round) {  // alternated, so both see the same clocks
        const RunResult a = run(ref);
        const RunResult b = run(mine);
        if (a.status != RunStatus::Ok || !a.timed) why = "the reference " + ex.reference + " did not run: " + a.message;
        if (b.status != RunStatus::Ok || !b.timed)
          why = "the submission did not run at n = " + std::to_string(n) + ": " + b.message;
        if (!why.empty()) break;
        best_ref = best_ref == 0 ? a.timing.median_ms : std::min(best_ref, a.timing.median_ms);
        best_mine = best_mine == 0 ? b.timing.median_ms : std::min(best_mine, b.timing.median_ms);
      }
      if (!why.empty()) {
        speed.detail = why;
      } else {
        g.speed_ratio = best_mine > 0 ? best_ref / best_mine : 0;
        speed.passed = g.speed_ratio >= ex.min_speed;
        speed.detail = fmt("%.2fx", g.speed_ratio) + " of " + ex.reference +
                       "'s speed (goal >= " + fmt("%.2fx", ex.min_speed) + "): " + fmt("%.4f ms", best_mine) +
                       " against " + fmt("%.4f ms", best_ref) + " at n = " + std::to_string(n) + ", same process";
      }
    }
    g.checks.push_back(speed);
  }
  return g;
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
