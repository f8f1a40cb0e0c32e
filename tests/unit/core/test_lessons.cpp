#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "lessons.hpp"
#include "paths.hpp"
#include "registry.hpp"

using namespace ws;

TEST(Lessons, OnePerReductionSeedInTeachingOrder) {
  auto lessons = load_lessons(assets_dir() + "/lessons");
  std::set<std::string> ids;
  for (const auto& l : lessons) ids.insert(l.id);
  for (const char* want : {"epita", "harris", "cs121", "amp"}) EXPECT_TRUE(ids.count(want)) << want;
  std::set<std::string> covered;
  for (const auto& l : lessons) {
    SCOPED_TRACE(l.id);
    EXPECT_FALSE(l.summary.empty());
    EXPECT_TRUE(find_variant(l.steps.back().variant)->baseline)
        << l.steps.back().variant;  // a baseline closes every lesson
    if (l.patterns == std::vector<PatternKind>{PatternKind::Reduction}) EXPECT_EQ(l.steps.back().variant, "cub.reduce");
    // The lesson's own variants appear in the registry's (teaching) order, each once.
    std::vector<std::string> own, registry_order;
    for (const auto& s : l.steps) {
      EXPECT_FALSE(s.narrative.empty()) << s.variant;
      if (find_variant(s.variant)->lesson == l.id) own.push_back(s.variant);
      covered.insert(s.variant);
    }
    for (const auto& v : all_variants())
      if (v.lesson == l.id) registry_order.push_back(v.id);
    EXPECT_EQ(own, registry_order);
  }
  for (const auto& v : all_variants()) EXPECT_TRUE(covered.count(v.id)) << v.id << " is in no lesson";
}

TEST(Lessons, CiteTheLectureByItsTitleAndAuthorsNotItsFileName) {
  auto lessons = load_lessons(assets_dir() + "/lessons");
  std::map<std::string, std::string> cited;
  for (const auto& l : lessons) {
    SCOPED_TRACE(l.id);
    EXPECT_FALSE(l.lecture.empty());
    EXPECT_FALSE(l.source.empty());
    const std::string c = lecture_citation(l);
    EXPECT_EQ(c.find(".txt"), std::string::npos) << c;  // the seed's file name is for the docs
    EXPECT_EQ(c.find(l.seed), std::string::npos) << c;
    cited[l.id] = c;
  }
  // The documents' own first lines (docs/lectures.md): title, then the authors where they name any.
  EXPECT_EQ(cited["epita"].rfind(
                "\u201cReduction Pattern\u201d, Edwin Carlinet, Joseph Chazalon  \u00b7  EPITA GPU Computing", 0),
            0u)
      << cited["epita"];
  EXPECT_EQ(cited["harris"], "\u201cCode Optimizations\u201d, Ji\u0159\u00ed Filipovi\u010d  \u00b7  Fall 2020");
  EXPECT_EQ(cited["cs121"], "\u201cGPUs and CUDA 3: Intrinsics\u201d  \u00b7  CS121 Parallel Computing, Fall 2022");
  EXPECT_NE(cited["stevens"].find("Philippos Mordohai"), std::string::npos) << cited["stevens"];
  EXPECT_NE(cited["amp"].find("\u201cParallel Reduction using C++ AMP\u201d"), std::string::npos) << cited["amp"];
}

TEST(Lessons, BadFilesAreReportedWithTheirName) {
  EXPECT_THROW(parse_lesson("{", "x.json"), std::runtime_error);
  try {
    parse_lesson(
        R"({"id":"a","title":"t","seed":"s","lecture":"l","authors":"","source":"s","pattern":"scan","summary":"s",)"
        R"("steps":[{"variant":"no.such","narrative":"n"}]})",
        "y.json");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("y.json"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("no.such"), std::string::npos);
  }
}

TEST(LessonScenes, ParsesEveryFieldAndDefaultsTheOptionalOnes) {
  const Lesson l = parse_lesson(R"({"id":"a","title":"t","seed":"s","source":"s","pattern":"reduction","summary":"s",
    "steps":[{"variant":"epita.reduce3","narrative":"n"}],
    "scenes":[{"variant":"epita.reduce3","view":"tree","step":2,"block":8,"n":"2^3",
               "input":"3 1 7 0 4 1 6 3","note":"000, slide X"},
              {"variant":"epita.reduce2","note":"only the required fields"},
              {"variant":"epita.race","n":1048576,"input":"ones","note":"race"},
              {"variant":"epita.reduce2","view":"pair","pair_picture":"banks","pair_with":"epita.reduce3",
               "compare":["epita.reduce3","cub.reduce"],"note":"pair"}]})",
                                "scenes.json");
  ASSERT_EQ(l.scenes.size(), 4u);
  const Scene& a = l.scenes[0];
  EXPECT_EQ(a.variant, "epita.reduce3");
  EXPECT_EQ(a.view, "tree");
  EXPECT_EQ(a.step, 2);
  EXPECT_EQ(a.block, 8);
  EXPECT_EQ(a.n, 8);
  EXPECT_EQ(a.input, "3 1 7 0 4 1 6 3");
  EXPECT_EQ(a.note, "000, slide X");
  const Scene& b = l.scenes[1];
  EXPECT_EQ(b.view, "");
  EXPECT_EQ(b.step, 0);
  EXPECT_EQ(b.block, 0);
  EXPECT_EQ(b.n, 0);
  EXPECT_EQ(b.input, "");
  EXPECT_EQ(b.pair_picture, "");
  EXPECT_EQ(b.pair_with, "");
  EXPECT_EQ(l.scenes[3].pair_picture, "banks");
  EXPECT_EQ(l.scenes[3].pair_with, "epita.reduce3");
  EXPECT_TRUE(b.compare.empty());
  EXPECT_EQ(l.scenes[3].compare, (std::vector<std::string>{"epita.reduce3", "cub.reduce"}));
  EXPECT_EQ(l.scenes[2].n, 1 << 20);
  std::vector<double> v;
  EXPECT_EQ(parse_scene_input("3, 1 7", v), "");
  EXPECT_EQ(v, (std::vector<double>{3, 1, 7}));
  EXPECT_EQ(parse_scene_input("sequence", v), "");
  EXPECT_TRUE(v.empty());
}

TEST(LessonScenes, BadScenesNameTheFileTheSceneAndTheField) {
  const std::string head = R"({"id":"a","title":"t","seed":"s","source":"s","pattern":"reduction","summary":"s",
    "steps":[{"variant":"epita.reduce3","narrative":"n"}],"scenes":)";
  auto error_of = [&](const std::string& scenes) {
    try {
      parse_lesson(head + scenes + "}", "bad.json");
    } catch (const std::runtime_error& e) { return std::string(e.what()); }
    return std::string("no error");
  };
  EXPECT_NE(error_of(R"({})").find("'scenes' must be an array"), std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"epita.reduce3"}])").find("scene 1: missing string field 'note'"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"nope","note":"x"}])").find("unknown variant 'nope'"), std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"epita.reduce3","note":"x","step":-1}])").find("'step' must be"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"epita.reduce3","note":"x","n":"lots"}])").find("'n' must be"), std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"epita.reduce3","note":"x","pair_picture":"plots"}])")
                .find("scene 1: 'pair_picture' must be \"tree\", \"warps\" or \"banks\", not 'plots'"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"epita.reduce3","note":"x","pair_with":"epita.nope"}])")
                .find("unknown variant 'epita.nope' in 'pair_with'"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"epita.reduce3","note":"x","compare":["epita.reduce3","epita.nope"]}])")
                .find("unknown variant 'epita.nope' in 'compare'"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"epita.reduce3","note":"x","compare":[]}])").find("'compare' must be a list"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"variant":"epita.reduce3","note":"x","compare":"epita.reduce3"}])")
                .find("'compare' must be a list"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"([{"variant":"epita.reduce3","note":"x"},{"variant":"epita.reduce3","note":"x","input":"3 x 1"}])")
          .find("bad.json: scene 2: input '3 x 1': 'x' is not a number"),
      std::string::npos);
}

TEST(LessonScenes, EveryLectureHasAtLeastEightScenesCitingTheirSeed) {
  const auto lessons = load_lessons(assets_dir() + "/lessons");
  EXPECT_EQ(lessons.size(), 6u);
  for (const auto& l : lessons) {
    SCOPED_TRACE(l.id);
    EXPECT_GE(l.scenes.size(), 8u);
    const std::string seed_prefix = l.seed.substr(0, 3);  // "000", "001"
    for (const Scene& sc : l.scenes) {
      // "Reduction across GPUs" builds on three seeds (000, 002, 003): each note opens with the one it cites.
      const bool cites = l.id == "multigpu" ? (sc.note.rfind("000_", 0) == 0 || sc.note.rfind("002_", 0) == 0 ||
                                               sc.note.rfind("003_", 0) == 0)
                                            : sc.note.find(seed_prefix) != std::string::npos;
      EXPECT_TRUE(cites) << "scene note must cite the seed file: " << sc.note;
      // Slides, or the sections of the one document that is a blog post (004, C++ AMP).
      EXPECT_TRUE(sc.note.find("slide") != std::string::npos || sc.note.find("section") != std::string::npos)
          << "scene note must cite the slide: " << sc.note;
    }
  }
}

namespace {

/// A lessons folder holding the shipped lessons plus the files in `extra` (name -> text).
std::string lessons_with(const std::string& name, const std::vector<std::pair<std::string, std::string>>& extra) {
  namespace fs = std::filesystem;
  const std::string dir = ::testing::TempDir() + "ws_lessons_" + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(assets_dir() + "/lessons"))
    if (e.path().extension() == ".json") fs::copy_file(e.path(), dir + "/" + e.path().filename().string());
  for (const auto& [file, text] : extra) std::ofstream(dir + "/" + file) << text;
  return dir;
}

}  // namespace

TEST(Lessons, OneMalformedFileCostsOnlyThatLessonAndIsNamedWithItsPlace) {
  const std::size_t good = load_lessons(assets_dir() + "/lessons").size();
  const std::string dir = lessons_with("bad", {{"zz_broken.json", "{\n  \"id\": \"x\",\n  oops\n}"},
                                               {"zz_notes.json", "[1, 2]"},
                                               {"zz_overflow.json", "1e30822222222244444444444"},
                                               {"zz_unknown.json", R"({"id":"u","title":"t","seed":"s",)"
                                                                   R"("source":"s",
                                                 "pattern":"reduction","summary":"s",
                                                 "steps":[{"variant":"no.such","narrative":"n"}]})"}});
  std::vector<std::string> problems;
  const auto lessons = load_lessons(dir, &problems);
  EXPECT_EQ(lessons.size(), good);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_NE(problems[0].find("zz_broken.json is not valid JSON: line 3, column 3"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("zz_notes.json: not a lesson"), std::string::npos) << problems[1];
  // Found by fuzz_lesson: a number too large for a double escaped as an uncaught nlohmann exception.
  EXPECT_NE(problems[2].find("zz_overflow.json is not valid JSON: number overflow"), std::string::npos) << problems[2];
  EXPECT_NE(problems[3].find("zz_unknown.json: unknown variant 'no.such'"), std::string::npos) << problems[3];
  // Without a place to put problems, the first bad file throws (what the shipped-lessons tests rely on).
  EXPECT_THROW(load_lessons(dir), std::runtime_error);
}

TEST(Lessons, ADuplicateIdAndAnOversizedFileAreSkipped) {
  std::ifstream f(assets_dir() + "/lessons/epita.json");
  const std::string epita{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  ASSERT_FALSE(epita.empty());
  const std::string dir =
      lessons_with("dup", {{"zz_epita_copy.json", epita}, {"zz_huge.json", std::string(kMaxLessonFileBytes + 1, ' ')}});
  std::vector<std::string> problems;
  load_lessons(dir, &problems);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("lesson id 'epita' is already taken by"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("zz_huge.json' is 1.0 MiB, more than the 1.0 MiB a lesson may have"), std::string::npos)
      << problems[1];
}

// The collective step kind (docs/collective.md): "Reduction across GPUs" names, for each step and scene, the
// one-device reduction each GPU runs and how the GPUs combine; the scenes open the All-reduce view.
TEST(LessonCollective, ReductionAcrossGpusContinuesTheReductionLessons) {
  const auto lessons = load_lessons(assets_dir() + "/lessons");
  const auto it = std::find_if(lessons.begin(), lessons.end(), [](const Lesson& l) { return l.id == "multigpu"; });
  ASSERT_NE(it, lessons.end());
  EXPECT_EQ(it->title, "Reduction across GPUs");
  EXPECT_EQ(it - lessons.begin(), 4) << "after cs121 (same seed, id order), before amp";
  ASSERT_EQ(it->steps.size(), 3u);
  EXPECT_EQ(it->steps[0].variant, "cs121.device_reduce");
  ASSERT_TRUE(it->steps[0].collective);
  EXPECT_EQ(it->steps[0].collective->method, collective::Method::HostAdd);
  EXPECT_EQ(it->steps[0].collective->gpus, 2);
  EXPECT_EQ(it->steps[2].collective->method, collective::Method::Ring);
  EXPECT_EQ(it->steps[2].collective->algorithm(), collective::Algorithm::Ring);
  int ring = 0, tree = 0;
  for (const Scene& sc : it->scenes) {
    SCOPED_TRACE(sc.note);
    EXPECT_EQ(sc.view, "allreduce");
    ASSERT_TRUE(sc.collective);
    (sc.collective->algorithm() == collective::Algorithm::Ring ? ring : tree)++;
  }
  EXPECT_GE(ring, 3);
  EXPECT_GE(tree, 3);
  EXPECT_EQ(it->scenes[8].collective->bytes, 4096);
  EXPECT_EQ(it->scenes[9].collective->bytes, std::int64_t(256) << 20);
  EXPECT_EQ(it->scenes[9].collective->step, 14);  // the ring's last step on 8 GPUs
  // The other lessons have no collective step.
  for (const auto& l : lessons)
    if (l.id != "multigpu")
      for (const auto& s : l.steps) EXPECT_FALSE(s.collective) << l.id;
}

TEST(LessonCollective, ABadCollectiveIsRefusedWithItsField) {
  auto error_of = [](const std::string& collective) {
    try {
      parse_lesson(R"({"id":"a","title":"t","seed":"s","source":"s","pattern":"reduction","summary":"s",
                       "steps":[{"variant":"cub.reduce","narrative":"n","collective":)" +
                       collective + "}]}",
                   "bad.json");
    } catch (const std::exception& e) { return std::string(e.what()); }
    return std::string();
  };
  EXPECT_EQ(error_of(R"({"method":"ring","gpus":8,"bytes":"1 GiB","step":14})"), "");
  EXPECT_EQ(error_of(R"({"method":"nccl_tree","bytes":"64KiB"})"), "");
  EXPECT_EQ(
      error_of(R"({"method":"butterfly"})"),
      "bad.json: step 1: 'collective': unknown method 'butterfly' (host_add, peer_to_gpu0, ring, tree, nccl_ring, "
      "nccl_tree)");
  EXPECT_EQ(error_of(R"({"method":"ring","gpus":1})"), "bad.json: step 1: 'collective': 'gpus' must be 2 to 8");
  EXPECT_EQ(error_of(R"({"method":"ring","gpus":9})"), "bad.json: step 1: 'collective': 'gpus' must be 2 to 8");
  EXPECT_EQ(error_of(R"({"method":"ring","bytes":"3 KiB"})"),
            "bad.json: step 1: 'collective': 'bytes' must be a power of two from \"4 KiB\" to \"1 GiB\"");
  EXPECT_EQ(error_of(R"({"method":"tree","gpus":4,"step":5})"),
            "bad.json: step 1: 'collective': 'step' must be 0 to 4 (the schedule's steps)");
  EXPECT_EQ(error_of(R"("ring")"),
            "bad.json: step 1: 'collective' must be an object ({\"method\": \"ring\", \"gpus\": 4, ...})");
}
