#include "lessons.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "collective/allreduce_picture.hpp"
#include "inputs.hpp"
#include "json_read.hpp"
#include "launch_rules.hpp"
#include "limits.hpp"
#include "registry.hpp"

namespace ws {

namespace {
std::string field(const nlohmann::json& j, const char* key, const std::string& origin) {
  if (!j.contains(key) || !j[key].is_string())
    throw std::runtime_error(origin + ": missing string field '" + key + "'");
  return j[key].get<std::string>();
}
/// The patterns of a lesson's "pattern" field: names separated by commas, spaces around them ignored.
std::vector<PatternKind> lesson_patterns(const std::string& text, const std::string& origin) {
  std::vector<PatternKind> out;
  std::stringstream ss(text);
  std::string name;
  while (std::getline(ss, name, ',')) {
    const auto first = name.find_first_not_of(' ');
    name = first == std::string::npos ? "" : name.substr(first, name.find_last_not_of(' ') - first + 1);
    PatternKind p{};
    if (!parse_pattern(name, p)) throw std::runtime_error(origin + ": 'pattern': " + unknown_pattern_message(name));
    out.push_back(p);
  }
  if (out.empty()) throw std::runtime_error(origin + ": 'pattern' names no pattern (use " + pattern_names() + ")");
  return out;
}
int non_negative_int(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key)) return 0;
  if (!j[key].is_number_integer() || j[key].get<long long>() < 0 || j[key].get<long long>() > 1 << 20)
    throw std::runtime_error(where + ": '" + key + "' must be a non-negative integer");
  return j[key].get<int>();
}

Scene parse_scene(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw std::runtime_error(where + ": a scene must be an object");
  Scene sc;
  sc.variant = field(j, "variant", where);
  if (!find_variant(sc.variant)) throw std::runtime_error(where + ": unknown variant '" + sc.variant + "'");
  sc.note = field(j, "note", where);
  if (j.contains("view")) sc.view = field(j, "view", where);
  sc.step = non_negative_int(j, "step", where);
  sc.block = non_negative_int(j, "block", where);
  sc.blocks = non_negative_int(j, "blocks", where);
  if (sc.blocks > 8) throw std::runtime_error(where + ": 'blocks' must be 0 to 8 (the blocks a trace covers)");
  if (j.contains("n")) {
    const auto& n = j["n"];
    std::int64_t v = 0;
    if (n.is_number_integer() && n.get<long long>() > 0)
      v = n.get<std::int64_t>();
    else if (!n.is_string() || !parse_count(n.get<std::string>(), v))
      throw std::runtime_error(where + ": 'n' must be a positive count (1000, \"2^10\" or \"1<<10\")");
    if (v > kMaxN) throw std::runtime_error(where + ": 'n' is larger than 2^30");
    sc.n = v;
  }
  if (j.contains("input")) sc.input = field(j, "input", where);
  if (j.contains("pair_picture")) {
    sc.pair_picture = field(j, "pair_picture", where);
    if (sc.pair_picture != "tree" && sc.pair_picture != "warps" && sc.pair_picture != "banks")
      throw std::runtime_error(where + ": 'pair_picture' must be \"tree\", \"warps\" or \"banks\", not '" +
                               sc.pair_picture + "'");
  }
  if (j.contains("pair_with")) {
    sc.pair_with = field(j, "pair_with", where);
    if (!find_variant(sc.pair_with))
      throw std::runtime_error(where + ": unknown variant '" + sc.pair_with + "' in 'pair_with'");
  }
  if (j.contains("report")) {
    sc.report = field(j, "report", where);
    if (sc.report.empty() || sc.report.find_first_of("/\\") != std::string::npos || sc.report[0] == '.')
      throw std::runtime_error(where + ": 'report' must be a file name of assets/reports, not '" + sc.report + "'");
  }
  if (j.contains("compare")) {
    const auto& c = j["compare"];
    if (!c.is_array() || c.empty() || c.size() > 64)
      throw std::runtime_error(where + ": 'compare' must be a list of 1 to 64 variant ids");
    for (const auto& id : c) {
      if (!id.is_string() || !find_variant(id.get<std::string>()))
        throw std::runtime_error(where + ": unknown variant " +
                                 (id.is_string() ? "'" + id.get<std::string>() + "'" : std::string("(not a string)")) +
                                 " in 'compare'");
      sc.compare.push_back(id.get<std::string>());
    }
  }
  if (j.contains("collective")) sc.collective = parse_collective_step(j["collective"], where);
  std::vector<double> values;
  if (std::string err = parse_scene_input(sc.input, values); !err.empty()) throw std::runtime_error(where + ": " + err);
  return sc;
}

}  // namespace

CollectiveStep parse_collective_step(const nlohmann::json& j, const std::string& where) {
  const std::string w = where + ": 'collective'";
  if (!j.is_object()) throw std::runtime_error(w + " must be an object ({\"method\": \"ring\", \"gpus\": 4, ...})");
  CollectiveStep c;
  const std::string method = field(j, "method", w);
  if (!collective::parse_method(method, c.method))
    throw std::runtime_error(w + ": unknown method '" + method +
                             "' (host_add, peer_to_gpu0, ring, tree, nccl_ring, nccl_tree)");
  if (j.contains("gpus")) {
    c.gpus = non_negative_int(j, "gpus", w);
    if (c.gpus < 2 || c.gpus > collective::kMaxGpus) throw std::runtime_error(w + ": 'gpus' must be 2 to 8");
  }
  if (j.contains("bytes")) {
    const std::string b = field(j, "bytes", w);
    for (int e = collective::kPictureMinBytesLog2; e <= collective::kPictureMaxBytesLog2; ++e) {
      std::string t = collective::bytes_text(std::int64_t(1) << e), packed = t;
      packed.erase(std::remove(packed.begin(), packed.end(), ' '), packed.end());
      if (b == t || b == packed) c.bytes = std::int64_t(1) << e;
    }
    if (c.bytes == 0) throw std::runtime_error(w + ": 'bytes' must be a power of two from \"4 KiB\" to \"1 GiB\"");
  }
  c.step = non_negative_int(j, "step", w);
  const int steps = int(collective::make_schedule(c.algorithm(), c.gpus).steps.size());
  if (c.step > steps)
    throw std::runtime_error(w + ": 'step' must be 0 to " + std::to_string(steps) + " (the schedule's steps)");
  return c;
}

std::string parse_scene_input(const std::string& input, std::vector<double>& values) {
  values.clear();
  if (input.empty() || is_generated_kind(input)) return "";
  std::string text = input;
  for (char& c : text)
    if (c == ',' || c == '\t' || c == '\n' || c == ';') c = ' ';
  std::istringstream in(text);
  std::string token;
  while (in >> token) {
    char* end = nullptr;
    const double v = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0')
      return "input '" + input + "': '" + token +
             "' is not a number (use random, ones, sequence or numbers like \"3 1 7 0\")";
    values.push_back(v);
  }
  if (values.empty()) return "input '" + input + "' holds no numbers";
  return "";
}

namespace {

/// parse_lesson; with `scene_problems`, a bad scene is dropped and described there ("FILE: scene 3
/// dropped: ...") and the lesson keeps its other scenes, instead of the whole lesson failing.
Lesson parse_lesson_keeping(const std::string& json_text, const std::string& origin,
                            std::vector<std::string>* scene_problems) {
  const nlohmann::json j = parse_json_text(json_text, origin);
  if (!j.is_object()) throw std::runtime_error(origin + ": not a lesson (a JSON object with id, title, steps, ...)");
  Lesson l;
  l.id = field(j, "id", origin);
  l.title = field(j, "title", origin);
  l.seed = field(j, "seed", origin);
  // Optional: the lecture's own title and authors, for the citation (empty parts are left out of it).
  if (j.contains("lecture")) l.lecture = field(j, "lecture", origin);
  if (j.contains("authors")) l.authors = field(j, "authors", origin);
  l.source = field(j, "source", origin);
  l.patterns = lesson_patterns(field(j, "pattern", origin), origin);
  l.summary = field(j, "summary", origin);
  if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty())
    throw std::runtime_error(origin + ": 'steps' must be a non-empty array");
  for (const auto& s : j["steps"]) {
    if (!s.is_object())
      throw std::runtime_error(origin + ": step " + std::to_string(l.steps.size()) + " is not an object");
    LessonStep st{field(s, "variant", origin), field(s, "narrative", origin), std::nullopt};
    if (!find_variant(st.variant)) throw std::runtime_error(origin + ": unknown variant '" + st.variant + "'");
    if (s.contains("collective"))
      st.collective = parse_collective_step(s["collective"], origin + ": step " + std::to_string(l.steps.size() + 1));
    l.steps.push_back(std::move(st));
  }
  if (j.contains("scenes")) {
    if (!j["scenes"].is_array()) throw std::runtime_error(origin + ": 'scenes' must be an array");
    for (std::size_t i = 0; i < j["scenes"].size(); ++i) {
      const std::string where = origin + ": scene " + std::to_string(i + 1);
      try {
        l.scenes.push_back(parse_scene(j["scenes"][i], where));
      } catch (const std::exception& e) {
        if (!scene_problems) throw;
        // The message names the file and the scene already ("FILE: scene 3: unknown variant 'x'").
        scene_problems->push_back(std::string(e.what()) + " (scene dropped; the lesson's other scenes are kept)");
      }
    }
  }
  return l;
}

}  // namespace

Lesson parse_lesson(const std::string& json_text, const std::string& origin) {
  return parse_lesson_keeping(json_text, origin, nullptr);
}

std::string lecture_citation(const Lesson& l) {
  std::string s = l.lecture.empty() ? "" : "\u201c" + l.lecture + "\u201d";
  if (!l.authors.empty()) s += (s.empty() ? "" : ", ") + l.authors;
  if (!l.source.empty()) s += (s.empty() ? "" : "  \u00b7  ") + l.source;
  return s;
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
      // An unreadable file says why (Permission denied), not "not valid JSON: line 1, column 1".
      std::string text;
      if (std::string err = read_file_bounded(origin, kMaxLessonFileBytes, "lesson", text); !err.empty())
        throw std::runtime_error(err);
      Lesson l = parse_lesson_keeping(text, origin, problems);
      if (const auto [it, fresh] = id_file.emplace(l.id, origin); !fresh)
        throw std::runtime_error(origin + ": lesson id '" + l.id + "' is already taken by " + it->second);
      out.push_back(std::move(l));
    } catch (const std::exception& e) {
      if (!problems) throw;
      problems->push_back(std::string(e.what()) + " (lesson skipped)");
    }
  }
  // Lessons on one seed (cs121 and the multi-GPU lesson after it) in id order.
  std::sort(out.begin(), out.end(),
            [](const Lesson& a, const Lesson& b) { return a.seed != b.seed ? a.seed < b.seed : a.id < b.id; });
  return out;
}

}  // namespace ws
