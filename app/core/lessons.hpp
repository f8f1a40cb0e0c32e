// Lessons: one per seed document, stored as data in assets/lessons/<id>.json.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "collective/allreduce_run.hpp"
#include "collective/schedule.hpp"
#include "pattern_kind.hpp"

namespace ws {

/// The collective step kind of the lesson "Reduction across GPUs" (issue 30, docs/collective.md): how the
/// GPUs combine what the step's one-device variant computed. JSON: "collective": {"method": "ring",
/// "gpus": 4, "bytes": "256 MiB", "step": 3} (only "method" required).
struct CollectiveStep {
  collective::Method method = collective::Method::Ring;  ///< JSON: collective::to_string's names
  int gpus = 4;                                          ///< 2..collective::kMaxGpus
  std::int64_t bytes = 0;  ///< per GPU, a power of two from 4 KiB to 1 GiB ("4 KiB" .. "1 GiB"); 0 = 256 MiB
  int step = 0;            ///< the All-reduce view's position: 0 = before any step, k = after step k
  /// The schedule the All-reduce view draws: the method's (NCCL's: its algorithm's); HostAdd and
  /// PeerToGpu0 reduce to one value per GPU, whose partials meet as in the tree.
  collective::Algorithm algorithm() const {
    return method == collective::Method::Ring || method == collective::Method::NcclRing ? collective::Algorithm::Ring
                                                                                        : collective::Algorithm::Tree;
  }
};

/// One entry of a lesson: a variant and what to say about it.
struct LessonStep {
  std::string variant;    ///< registry id (in a collective step: the one-device reduction each GPU runs)
  std::string narrative;  ///< what changed from the previous variant and what to look for (our words)
  std::optional<CollectiveStep> collective;  ///< set in the lesson "Reduction across GPUs"
};

/// One scene of a lecture: what the screen shows when the lecturer clicks to it (PageDown/PageUp).
/// Fields other than variant and note are optional; 0 / "" keep the app's default.
struct Scene {
  std::string variant;  ///< registry id
  std::string view;     ///< centre tab ("tree", "warps", "banks", "source", "compare", ...); "" = keep
  int step = 0;         ///< trace step the step-through views open at
  int block = 0;        ///< threads per block, 0 = the variant's default
  int blocks = 0;       ///< blocks the step trace covers (1 to 8; 0 = one): a cascade's grid-stride passes
  std::int64_t n = 0;   ///< elements, 0 = the app's default (JSON: a number, "2^10" or "1<<10")
  std::string input;    ///< "random", "ones", "sequence", a short list of numbers ("3 1 7 0"), "" = random
  std::string note;     ///< what to say; cites the seed file and slide it follows
  /// The Pair view's picture: "tree", "warps" or "banks"; "" = Tree.
  std::string pair_picture;
  /// The variant the Pair view draws on the right (registry id); "" = the lesson's next variant.
  std::string pair_with;
  /// A report of assets/reports (a file name, no folder) the scene's ranking view shows when this
  /// session has no run of its variant, e.g. a recorded sweep for Plots' curves; "" = the app's bundled
  /// default report.
  std::string report;
  /// The variants Compare, Plots and Live compare while the scene is open (registry ids, lesson order kept
  /// by the registry); empty = the lesson's. A sweep of a whole lesson is a tangle of lines from the back
  /// row: a scene names the few its slide compares.
  std::vector<std::string> compare;
  /// The All-reduce view's settings while the scene is open (view "allreduce"); none = keep them.
  std::optional<CollectiveStep> collective;
};

/// A lesson file larger than this is refused unread (the lessons shipped are a few KiB).
constexpr std::uintmax_t kMaxLessonFileBytes = std::uintmax_t(1) << 20;

/// A lesson, with its variants in the order the seed document teaches them.
/// File format:
/// {"id","title","seed","lecture","authors","source","pattern","summary","steps":[{"variant","narrative",
/// "collective"}], "scenes":[{"variant","view","step","block","blocks","n","input","note","pair_picture",
/// "pair_with","report","compare":["id",...],"collective"}]} ("collective": CollectiveStep's object)
/// ("scenes" optional; in a scene only variant and note are required).
/// `seed` is the document's file name (for the docs); `lecture` its own title, `authors` the names it
/// gives ("" when it names none) and `source` the course or publication, for the reader. "pattern" names
/// the patterns it teaches, separated by commas ("convolution, reduction, scan"); an unknown name is refused.
struct Lesson {
  std::string id, title, seed, lecture, authors, source, summary;
  std::vector<PatternKind> patterns;  ///< JSON "pattern", in the file's order
  std::vector<LessonStep> steps;
  std::vector<Scene> scenes;  ///< the lecture's script, in order (may be empty)
};

/// How the app cites a lesson's document: "“LECTURE”, AUTHORS · SOURCE", leaving out empty parts.
std::string lecture_citation(const Lesson& l);
/// Parses a scene's "input": "" (random), a generator name, or numbers separated by spaces or commas.
/// Returns "" or a one-line error; `values` gets the numbers of a list (empty for a generator).
std::string parse_scene_input(const std::string& input, std::vector<double>& values);

/// Parses a "collective" object (CollectiveStep); throws std::runtime_error naming `where` and the field:
/// an unknown method, gpus outside 2..8, bytes not "4 KiB".."1 GiB" (a power of two), step outside 0..14.
CollectiveStep parse_collective_step(const nlohmann::json& j, const std::string& where);

/// Loads every assets/lessons/*.json from `dir`, sorted by seed file name (then id). A bad file (malformed JSON
/// with its line and column, a missing field, an unknown variant id, a duplicate lesson id, too large)
/// is skipped and described in `problems` ("FILE: reason"), the others load; with `problems` null the
/// first bad file throws std::runtime_error instead. A missing `dir` always throws.
std::vector<Lesson> load_lessons(const std::string& dir, std::vector<std::string>* problems = nullptr);

/// Parses one lesson document (the text of a .json file); throws std::runtime_error on errors.
Lesson parse_lesson(const std::string& json_text, const std::string& origin);

}  // namespace ws
