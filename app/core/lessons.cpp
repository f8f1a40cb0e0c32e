#include "lessons.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "registry.hpp"

namespace ws {

namespace {
std::string field(const nlohmann::json& j, const char* key, const std::string& origin) {
  if (!j.contains(key) || !j[key].is_string()) throw std::runtime_error(origin + ": missing string field '" + key + "'");
  return j[key].get<std::string>();
}
}  // namespace

Lesson parse_lesson(const std::string& json_text, const std::string& origin) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_text);
  } catch (const std::exception& e) {
    throw std::runtime_error(origin + ": not valid JSON (" + e.what() + ")");
  }
  Lesson l;
  l.id = field(j, "id", origin);
  l.title = field(j, "title", origin);
  l.seed = field(j, "seed", origin);
  l.lecture = field(j, "lecture", origin);
  l.authors = field(j, "authors", origin);
  l.source = field(j, "source", origin);
  l.pattern = field(j, "pattern", origin);
  l.summary = field(j, "summary", origin);
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty())
    throw std::runtime_error(origin + ": 'steps' must be a non-empty array");
  for (const auto& s : j["steps"]) {
    LessonStep st{field(s, "variant", origin), field(s, "narrative", origin)};
    if (!find_variant(st.variant)) throw std::runtime_error(origin + ": unknown variant '" + st.variant + "'");
    l.steps.push_back(std::move(st));
  }
  return l;
}

std::string lecture_citation(const Lesson& l) {
  std::string s = l.lecture.empty() ? "" : "\u201c" + l.lecture + "\u201d";
  if (!l.authors.empty()) s += (s.empty() ? "" : ", ") + l.authors;
  if (!l.source.empty()) s += (s.empty() ? "" : "  \u00b7  ") + l.source;
  return s;
}

std::vector<Lesson> load_lessons(const std::string& dir) {
  std::vector<Lesson> out;
  if (!std::filesystem::is_directory(dir)) throw std::runtime_error("lessons directory '" + dir + "' not found");
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream f(e.path());
    std::stringstream ss;
    ss << f.rdbuf();
    out.push_back(parse_lesson(ss.str(), e.path().string()));
  }
  std::sort(out.begin(), out.end(), [](const Lesson& a, const Lesson& b) { return a.seed < b.seed; });
  return out;
}

}  // namespace ws
