// Lessons: one per seed document, stored as data in assets/lessons/<id>.json.
#pragma once
#include <string>
#include <vector>

namespace ws {

/// One entry of a lesson: a variant and what to say about it.
struct LessonStep {
  std::string variant;    ///< registry id
  std::string narrative;  ///< what changed from the previous variant and what to look for (our words)
};

/// A lesson, with its variants in the order the seed document teaches them.
/// File format: {"id","title","seed","lecture","authors","source","pattern","summary","steps":[{"variant","narrative"}]}.
/// `seed` is the document's file name (for the docs); `lecture` its own title, `authors` the names it
/// gives ("" when it names none) and `source` the course or publication, for the reader.
struct Lesson {
  std::string id, title, seed, lecture, authors, source, pattern, summary;
  std::vector<LessonStep> steps;
};

/// How the app cites a lesson's document: "“LECTURE”, AUTHORS · SOURCE", leaving out empty parts.
std::string lecture_citation(const Lesson& l);

/// Loads every assets/lessons/*.json from `dir`, sorted by seed file name. Throws std::runtime_error
/// with the file name on malformed JSON or an unknown variant id.
std::vector<Lesson> load_lessons(const std::string& dir);

/// Parses one lesson document (the text of a .json file); throws std::runtime_error on errors.
Lesson parse_lesson(const std::string& json_text, const std::string& origin);

}  // namespace ws
