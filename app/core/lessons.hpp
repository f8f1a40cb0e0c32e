// Lessons: one per seed document, stored as data in assets/lessons/<id>.json.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ws {

/// One entry of a lesson: a variant and what to say about it.
struct LessonStep {
  std::string variant;    ///< registry id
  std::string narrative;  ///< what changed from the previous variant and what to look for (our words)
};

/// A lesson, with its variants in the order the seed document teaches them.
/// File format: {"id","title","seed","source","pattern","summary","steps":[{"variant","narrative"}]}.
struct Lesson {
  std::string id, title, seed, source, pattern, summary;
  std::vector<LessonStep> steps;
};

/// A lesson file larger than this is refused unread (the lessons shipped are a few KiB).
constexpr std::uintmax_t kMaxLessonFileBytes = std::uintmax_t(1) << 20;

/// Loads every assets/lessons/*.json from `dir`, sorted by seed file name. A bad file (malformed JSON
/// with its line and column, a missing field, an unknown variant id, a duplicate lesson id, too large)
/// is skipped and described in `problems` ("FILE: reason"), the others load; with `problems` null the
/// first bad file throws std::runtime_error instead. A missing `dir` always throws.
std::vector<Lesson> load_lessons(const std::string& dir, std::vector<std::string>* problems = nullptr);

/// Parses one lesson document (the text of a .json file); throws std::runtime_error on errors.
Lesson parse_lesson(const std::string& json_text, const std::string& origin);

}  // namespace ws
