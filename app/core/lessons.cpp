#include "lessons.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "json_read.hpp"
#include "registry.hpp"

namespace ws {

namespace {
std::string field(const nlohmann::json& j, const char* key, const std::string& origin) {
  if (!j.contains(key) || !j[key].is_string()) throw std::runtime_error(origin + ": missing string field '" + key + "'");
  return j[key].get<std::string>();
}
}  // namespace

Lesson parse_lesson(const std::string& json_text, const std::string& origin) {
  const nlohmann::json j = parse_json_text(json_text, origin);
  if (!j.is_object()) throw std::runtime_error(origin + ": not a lesson (a JSON object with id, title, steps, ...)");
  Lesson l;
  l.id = field(j, "id", origin);
  l.title = field(j, "title", origin);
  l.seed = field(j, "seed", origin);
  l.source = field(j, "source", origin);
  l.pattern = field(j, "pattern", origin);
  l.summary = field(j, "summary", origin);
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty())
    throw std::runtime_error(origin + ": 'steps' must be a non-empty array");
  for (const auto& s : j["steps"]) {
    if (!s.is_object()) throw std::runtime_error(origin + ": step " + std::to_string(l.steps.size()) + " is not an object");
    LessonStep st{field(s, "variant", origin), field(s, "narrative", origin)};
    if (!find_variant(st.variant)) throw std::runtime_error(origin + ": unknown variant '" + st.variant + "'");
    l.steps.push_back(std::move(st));
  }
  return l;
}

std::vector<Lesson> load_lessons(const std::string& dir, std::vector<std::string>* problems) {
  std::vector<Lesson> out;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw std::runtime_error("lessons directory '" + dir + "' not found");
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());  // the same file wins a duplicate id on every machine
  std::map<std::string, std::string> id_file;
  for (const auto& path : files) {
    const std::string origin = path.string();
    try {
      if (!std::filesystem::is_regular_file(path, ec)) throw std::runtime_error(origin + ": not a regular file");
      const auto size = std::filesystem::file_size(path, ec);
      if (ec || size > kMaxLessonFileBytes)
        throw std::runtime_error(origin + ": larger than " + std::to_string(kMaxLessonFileBytes >> 20) + " MiB, not a lesson");
      std::ifstream f(path);
      std::stringstream ss;
      ss << f.rdbuf();
      Lesson l = parse_lesson(ss.str(), origin);
      if (const auto [it, fresh] = id_file.emplace(l.id, origin); !fresh)
        throw std::runtime_error(origin + ": lesson id '" + l.id + "' is already taken by " + it->second);
      out.push_back(std::move(l));
    } catch (const std::exception& e) {
      if (!problems) throw;
      problems->push_back(e.what());
    }
  }
  std::sort(out.begin(), out.end(), [](const Lesson& a, const Lesson& b) { return a.seed < b.seed; });
  return out;
}

}  // namespace ws
