// Runs the warpscope-cli binary and checks exit codes and one-line errors.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "registry.hpp"

namespace {
struct Out {
  int code;
  std::string out;  // stdout + stderr
};
Out cli(const std::string& args) {
  std::string cmd = std::string(WS_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (p && fgets(buf.data(), buf.size(), p)) out += buf.data();
  int status = p ? pclose(p) : -1;
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}
int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}
void expect_one_line_error(const std::string& args, int code, const std::string& needle) {
  Out o = cli(args);
  EXPECT_EQ(o.code, code) << args << "\n" << o.out;
  EXPECT_EQ(lines(o.out), 1) << args << "\n" << o.out;
  EXPECT_NE(o.out.find(needle), std::string::npos) << args << "\n" << o.out;
  EXPECT_EQ(o.out.find("terminate"), std::string::npos);
}
}  // namespace

TEST(Cli, ListJsonHasEveryVariantWithItsFlags) {
  Out o = cli("list --json");
  ASSERT_EQ(o.code, 0);
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["format"], "warpscope-variants");
  EXPECT_EQ(doc["version"], 1);
  const auto& j = doc["variants"];
  ASSERT_TRUE(j.is_array());
  EXPECT_GE(j.size(), 37u);
  bool saw_cub = false;
  for (const auto& v : j) {
    for (const char* k : {"id", "pattern", "title", "seed", "racy", "baseline"}) EXPECT_TRUE(v.contains(k)) << k;
    if (v["id"] == "cub.reduce") saw_cub = v["baseline"].get<bool>();
  }
  EXPECT_TRUE(saw_cub);
  EXPECT_EQ(cli("list").code, 0);
}

// `list` writes each variant's pattern by its name, as before PatternKind: the four names and nothing else.
TEST(Cli, ListNamesEachVariantsPattern) {
  Out o = cli("list --json");
  ASSERT_EQ(o.code, 0);
  std::set<std::string> names;
  const auto doc = nlohmann::json::parse(o.out);
  for (const auto& v : doc["variants"]) {
    const ws::VariantInfo* info = ws::find_variant(v["id"].get<std::string>());
    ASSERT_NE(info, nullptr) << v["id"];
    EXPECT_EQ(v["pattern"], ws::to_string(info->pattern)) << v["id"];
    names.insert(v["pattern"].get<std::string>());
  }
  EXPECT_EQ(names, (std::set<std::string>{"reduction", "scan", "convolution", "atomics"}));
  Out table = cli("list");
  ASSERT_EQ(table.code, 0);
  std::map<std::string, std::string> column;  // id -> the table's pattern column
  std::istringstream rows(table.out);
  for (std::string row; std::getline(rows, row);) {
    std::istringstream words(row);
    std::string id, pattern;
    words >> id >> pattern;
    column[id] = pattern;
  }
  EXPECT_EQ(column["id"], "pattern");
  EXPECT_EQ(column["epita.reduce3"], "reduction");
  EXPECT_EQ(column["stevens.kogge_stone"], "scan");
  EXPECT_EQ(column["stevens.conv2d_tiled"], "convolution");
  EXPECT_EQ(column["cs121.filter_warp_agg"], "atomics");
}

TEST(Cli, VariantsTakeAPatternNameAndAnUnknownNameListsThem) {
  const std::string names = "(patterns: reduction, scan, convolution, atomics;";
  expect_one_line_error("report --variants nope --backend sim --out " + ::testing::TempDir() + "ws_x.json", 2,
                        "unknown variant, lesson or pattern 'nope' " + names);
  expect_one_line_error("sweep --variants Scan --backend sim", 2, "unknown variant, lesson or pattern 'Scan' " + names);
  expect_one_line_error(
      "report --variants epita.reduce3,scan --backend sim --out " + ::testing::TempDir() + "ws_x.json", 2,
      "unknown variant 'scan' in 'epita.reduce3,scan'");
  Out o = cli("sweep --variants scan --from 10 --to 10 --backend sim --csv");
  ASSERT_EQ(o.code, 0) << o.out;
  int rows = 0;
  std::istringstream lines_in(o.out);
  for (std::string row; std::getline(lines_in, row);) {
    const std::string id = row.substr(0, row.find(','));
    const ws::VariantInfo* v = ws::find_variant(id);
    if (!v) continue;  // the header
    EXPECT_EQ(v->pattern, ws::PatternKind::Scan) << row;
    ++rows;
  }
  EXPECT_GT(rows, 3) << o.out;
}

TEST(Cli, BadRequestsGiveOneLineAndExit2) {
  expect_one_line_error("run --variant nope", 2, "unknown variant 'nope'");
  expect_one_line_error("run --variant epita.reduce3 --n 0", 2, "--n '0'");
  expect_one_line_error("run --variant epita.reduce3 --n -5", 2, "");
  expect_one_line_error("run --variant epita.reduce3 --n 2^31", 2, "too large");
  expect_one_line_error("run --variant epita.reduce3 --n 99999999999999999999", 2, "too large");
  expect_one_line_error("run --variant epita.reduce3 --block 100", 2, "power-of-two");
  expect_one_line_error("run --variant epita.reduce8 --block 64", 2, "32 threads per block only");
  expect_one_line_error("run --variant cs121.atomic_max --type float32", 2, "int32 only");
  expect_one_line_error("run --variant epita.reduce3 --type int64", 2, "int64");
  expect_one_line_error("run --variant epita.reduce3 --input /nonexistent/file.txt", 2, "cannot open");
  expect_one_line_error("run --variant epita.reduce3 --backend tpu", 2, "unknown backend");
  expect_one_line_error("run --variant epita.reduce3 --repeat 0", 2, "--repeat");
  expect_one_line_error("run --variant epita.reduce3 --json --csv", 2, "one of");
  expect_one_line_error("run", 2, "variant");
  expect_one_line_error("frobnicate", 2, "");
  std::string bad = ::testing::TempDir() + "bad_input.txt";
  std::ofstream(bad) << "1 2 three\n";
  expect_one_line_error("run --variant epita.reduce3 --input " + bad, 2, "'three'");
}

TEST(Cli, SimBackendRunsEveryGpuVariant) {
  Out o = cli("run --variant epita.reduce3 --backend sim --n 5000 --json");
  ASSERT_EQ(o.code, 0) << o.out;
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["backend"], "sim");
  EXPECT_EQ(j["correct"], true);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_TRUE(j["time_ms"].is_null());                               // the model is not timed
  EXPECT_EQ(cli("run --variant epita.race --backend sim").code, 0);  // lost updates are the lesson
  Out list = cli("list --json");
  const auto variants = nlohmann::json::parse(list.out)["variants"];
  for (const auto& v : variants) {
    const std::string id = v["id"];
    if (id.rfind("epita.", 0) != 0 && id.rfind("cs121.", 0) != 0 && id != "cub.reduce") continue;
    if (v["pattern"] != "reduction") continue;  // atomics: AtomicsCli tests
    Out r = cli("run --variant " + id + " --backend sim --n 4097 --json");
    ASSERT_EQ(r.code, 0) << id << "\n" << r.out;
    auto jr = nlohmann::json::parse(r.out);
    EXPECT_EQ(jr["backend"], "sim") << id;
    const std::string status = jr["status"];
    EXPECT_TRUE(status == "ok" || status == "race" || status == "slide-bug") << id << ": " << status;
  }
}

TEST(Cli, TraceJsonHasStepsWithMasksConflictsAndValues) {
  Out o = cli("trace --variant epita.reduce3 --n 1024 --block 1024 --input ones --json");
  ASSERT_EQ(o.code, 0) << o.out;
  auto j = nlohmann::json::parse(o.out);
  for (const char* k : {"variant", "source", "n", "type", "block", "grid", "block_index", "racy_model", "interleaving",
                        "steps", "result", "expected"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["source"], "sim");
  EXPECT_EQ(j["result"], 1024);
  const auto& steps = j["steps"];
  ASSERT_EQ(steps.size(), 12u);
  for (const auto& s : steps) {
    for (const char* k : {"index", "phase", "label", "warp_masks", "bank_conflict_ways", "values", "active_warps",
                          "divergent_warps", "active_lanes"})
      EXPECT_TRUE(s.contains(k)) << k;
    EXPECT_EQ(s["warp_masks"].size(), 32u);
    EXPECT_EQ(s["bank_conflict_ways"].size(), 32u);
    EXPECT_EQ(s["values"].size(), 1024u);
  }
  EXPECT_EQ(steps[1]["label"], "stride 512");
  EXPECT_EQ(steps[1]["warp_masks"][15], 4294967295u);
  EXPECT_EQ(steps[1]["warp_masks"][16], 0);
  EXPECT_EQ(steps[1]["bank_conflict_ways"][0], 1);
  EXPECT_EQ(steps[1]["bank_conflict_ways"][16], 0);
  EXPECT_EQ(steps[1]["values"][0], 2);
  EXPECT_EQ(steps[10]["label"], "stride 1");
  EXPECT_EQ(steps[10]["warp_masks"][0], 1);
  EXPECT_EQ(steps[10]["divergent_warps"], 1);
  EXPECT_FALSE(steps[1].contains("ops"));
  Out ops = cli("trace --variant epita.reduce3 --n 64 --block 64 --json --ops");
  ASSERT_EQ(ops.code, 0) << ops.out;
  EXPECT_EQ(nlohmann::json::parse(ops.out)["steps"][1]["ops"].size(), 32u * 4);
  Out racy = cli("trace --variant epita.race --n 100 --block 64 --block-index 1 --json");
  ASSERT_EQ(racy.code, 0) << racy.out;
  EXPECT_EQ(nlohmann::json::parse(racy.out)["racy_model"], true);
  Out human = cli("trace --variant epita.reduce2 --n 256 --block 256");
  EXPECT_EQ(human.code, 0);
  EXPECT_NE(human.out.find("stride 128"), std::string::npos);
}

TEST(Cli, TraceValuesPrintsTheTreeAsTextPerStep) {
  // reduce3 on the sequence 0..7 with 8 threads: strides 4, 2, 1; the written slots in brackets.
  Out o = cli("trace --variant epita.reduce3 --block 8 --n 8 --input sequence --values");
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("values: the shared array after each step"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("step 0  load"), std::string::npos) << o.out;
  // After stride 4: s[i] = i + (i + 4) for i < 4 (written), the upper half unchanged.
  EXPECT_NE(o.out.find("[4]  [6]  [8] [10]   4    5    6    7"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("[28]"), std::string::npos) << o.out;  // the root at stride 1
  // A variant without a shared array says so.
  Out r = cli("trace --variant epita.reduce7 --block 32 --n 64 --values");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("keeps no shared array"), std::string::npos) << r.out;
}

TEST(Cli, TraceListsSharedMemoryHazards) {
  // The missing-__syncthreads lesson: thread 0 reads local_sum for the commit while warp 1 adds into it.
  Out o = cli("trace --variant epita.reduce1_nosync --block 64 --n 64 --input ones");
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(o.out.find("shared-memory hazards: 1 word touched by two warps"), std::string::npos) << o.out;
  EXPECT_NE(
      o.out.find(
          "hazard: thread 0 reads shared[0] while thread 32 atomically updates it, no barrier between (steps 2 and 3"),
      std::string::npos)
      << o.out;
  Out j = cli("trace --variant epita.reduce1_nosync --block 64 --n 64 --input ones --json");
  ASSERT_EQ(j.code, 0) << j.out;
  const nlohmann::json js = nlohmann::json::parse(j.out);
  ASSERT_EQ(js["hazards"].size(), 1u);
  EXPECT_EQ(js["hazards"][0]["word"], 0);
  EXPECT_EQ(js["hazards"][0]["second"]["kind"], "atomic");
  EXPECT_EQ(js["steps"][0]["barrier_after"], false);
  // The unrolled last warp of reduce6 is one warp in lock-step: clean.
  Out c = cli("trace --variant epita.reduce6 --block 128 --n 256");
  ASSERT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("shared-memory hazards: none"), std::string::npos) << c.out;
}

TEST(Cli, TraceErrorsAreOneLine) {
  expect_one_line_error("trace --variant epita.reduce3 --n 1024 --block 1024 --block-index 1", 2,
                        "outside the grid of 1 blocks");
  expect_one_line_error("trace --variant epita.reduce3 --block-index -1", 2, "--block-index -1");
  expect_one_line_error("trace --variant nope", 2, "unknown variant");
  expect_one_line_error("trace --variant epita.reduce3 --block 100", 2, "power-of-two");
  expect_one_line_error("trace --variant amp.sequential", 2, "host");
  expect_one_line_error("trace --variant epita.reduce3 --backend tpu", 2, "unknown backend");
  if (cli("device").code != 0)  // on a GPU machine trace --backend cuda records instead (GPU tests cover it)
    expect_one_line_error("trace --variant epita.reduce3 --backend cuda --json", 3, "--backend sim");
}

TEST(Cli, WarmupZeroAndOneRepeatRunsOnceAndBadWarmupsAreRefused) {
  Out o = cli("run --variant amp.sequential --n 1000 --input sequence --warmup 0 --repeat 1 --json");
  ASSERT_EQ(o.code, 0) << o.out;
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["times_ms"].size(), 1u);
  EXPECT_EQ(j["result"], 499500.0);
  expect_one_line_error("run --variant epita.reduce3 --warmup -1", 2, "--warmup");
  expect_one_line_error("run --variant epita.reduce3 --warmup 1001", 2, "--warmup");
  expect_one_line_error("sweep --variants epita.reduce3 --warmup 0 --backend sim", 2, "--warmup");  // run only
}

TEST(Cli, CpuVariantRunsAnywhere) {
  Out o = cli("run --variant amp.sequential --n 1000 --input sequence --json");
  ASSERT_EQ(o.code, 0) << o.out;
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["result"], 499500.0);  // 0 + 1 + ... + 999 (the sequence does not repeat below 4096)
  EXPECT_EQ(j["correct"], true);
  for (const char* k : {"variant", "n", "backend", "result", "expected", "correct", "time_ms", "gbps"})
    EXPECT_TRUE(j.contains(k)) << k;
  Out csv = cli("run --variant amp.sequential --n 100 --csv");
  EXPECT_EQ(csv.code, 0);
  EXPECT_EQ(lines(csv.out), 2);
}

TEST(Cli, NoDeviceIsAOneLineErrorWithAWayOut) {
  // Meaningful only where no GPU is visible (CI, laptops); skipped on the GPU machine.
  Out dev = cli("device");
  if (dev.code == 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(dev.code, 3);
  expect_one_line_error("run --variant epita.reduce3 --n 1000", 3, "no CUDA device");
  EXPECT_NE(cli("run --variant epita.reduce3").out.find("report"), std::string::npos);
}

TEST(Cli, NoDeviceSaysWhatIsReallyTheCase) {
  Out dev = cli("device");
  if (dev.code == 0) GTEST_SKIP() << "a CUDA device is present";
  Out run = cli("run --variant epita.reduce3");
  for (const Out* o : {&dev, &run}) {
    EXPECT_EQ(o->code, 3) << o->out;
    EXPECT_EQ(lines(o->out), 1) << o->out;
    // The CUDA runtime's "driver version is insufficient" would send the user to upgrade a driver that
    // is not there; a build without CUDA is not missing nvcc when the preset turned CUDA off.
    EXPECT_EQ(o->out.find("insufficient"), std::string::npos) << o->out;
#if WS_HAVE_CUDA_BUILD
    const bool no_driver = o->out.find("no NVIDIA driver or GPU was found on this machine") != std::string::npos;
    const bool no_gpu = o->out.find("the NVIDIA driver found no GPU") != std::string::npos;
    EXPECT_TRUE(no_driver || no_gpu) << o->out;
#elif WS_CUDA_TURNED_OFF
    EXPECT_NE(o->out.find("CUDA was turned off when it was configured (WS_WITH_CUDA=OFF"), std::string::npos) << o->out;
    EXPECT_NE(o->out.find("cmake --preset default"), std::string::npos) << o->out;
    EXPECT_EQ(o->out.find("nvcc was not found"), std::string::npos) << o->out;
#else
    EXPECT_NE(o->out.find("nvcc was not found"), std::string::npos) << o->out;
#endif
  }
  // run takes --backend sim; device has no such option, so it points to run and to the recorded reports.
  EXPECT_NE(run.out.find("simulate it instead (--backend sim)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("reports/nvidia-h200.json"), std::string::npos) << run.out;
  EXPECT_EQ(dev.out.find("simulate it instead"), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find("a report recorded on a GPU names that device instead"), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find("`warpscope-cli run --variant ID --backend sim`"), std::string::npos) << dev.out;
  EXPECT_EQ(cli("device --backend sim").code, 2);  // what the hint must not suggest
}

TEST(Cli, IntOnlyVariantsGiveTheirOwnReason) {
  // Only the max variants use atomicMax; the others say what really ties them to int.
  const std::pair<const char*, const char*> cases[] = {
      {"cs121.atomic_max", "CUDA's atomicMax takes int, unsigned and 64-bit integers; it has no float32 form"},
      {"cs121.local_max", "CUDA's atomicMax takes int, unsigned and 64-bit integers"},
      {"cs121.race", "it reads no input; every thread adds 1 to one int counter"},
      {"cs121.atomic_counter", "it reads no input; every thread does atomicAdd(d_a, 1) on one int counter"},
      {"cs121.filter_global", "the slide's filter_k copies positive int values"},
      {"cs121.filter_shared", "the slide's filter_shared_k copies positive int values"},
      {"cs121.filter_warp_agg", "the slide's filter_warp_agg_k copies positive int values"},
      {"cs121.filter_scan", "filter_scan_k copies positive int values"},
      {"cs121.filter_scan_vec", "its int4 loads and stores move four int values at a time"},
      {"cub.select", "it is the baseline of the int filters, so cub::DeviceSelect::If is instantiated here for int"},
  };
  for (const auto& [id, reason] : cases) {
    const std::string args = std::string("run --variant ") + id + " --type float32 --backend sim";
    expect_one_line_error(args, 2, std::string(id) + " takes int32 only: " + reason);
    if (std::string(id).find("max") == std::string::npos)
      EXPECT_EQ(cli(args).out.find("atomicMax"), std::string::npos) << id;
  }
}

TEST(Cli, CountsBeyondTheLimitAreTooLargeNotNegative) {
  const std::string limit = "is too large (the limit is 2^30 = 1073741824 elements";
  expect_one_line_error("run --variant epita.reduce3 --n 99999999999999999999", 2,
                        "--n '99999999999999999999' " + limit);
  expect_one_line_error("run --variant epita.reduce3 --n 2^63", 2, "--n '2^63' " + limit);
  expect_one_line_error("run --variant epita.reduce3 --n '1<<40'", 2, "--n '1<<40' " + limit);
  expect_one_line_error("run --variant epita.reduce3 --n 2^31", 2, limit);
  expect_one_line_error("sweep --variants cub.select --keep-fraction 0.5 --n 99999999999999999999", 2, limit);
  // 0, negatives and text stay "not a positive count".
  expect_one_line_error("run --variant epita.reduce3 --n 0", 2, "--n '0' is not a positive count");
  expect_one_line_error("run --variant epita.reduce3 --n -5", 2, "--n '-5' is not a positive count");
  expect_one_line_error("run --variant epita.reduce3 --n many", 2, "--n 'many' is not a positive count");
  // The other whole-number options: CLI11 would saturate (grid 2^63 - 1) or wrap (seed -1 = 2^64 - 1).
  expect_one_line_error("run --variant epita.reduce3 --block 99999999999", 2,
                        "--block: 99999999999 is too large (a block has at most 1024 threads)");
  expect_one_line_error("run --variant epita.reduce3 --grid 99999999999999999999", 2,
                        "--grid: 99999999999999999999 is too large (a grid has at most 2^31 - 1 blocks)");
  expect_one_line_error("run --variant epita.reduce3 --repeat 99999999999", 2,
                        "--repeat: 99999999999 is too large (at most 100000");
  expect_one_line_error("run --variant epita.reduce3 --seed 99999999999999999999999", 2,
                        "--seed: 99999999999999999999999 is too large (a seed is a whole number from 0 to 2^64 - 1)");
  expect_one_line_error("run --variant epita.reduce3 --seed -1", 2, "--seed: -1 is negative");
  expect_one_line_error("run --variant stevens.conv2d_basic --width 99999999999999999999 --height 8", 2,
                        "--width: 99999999999999999999 is too large (at most 2^30 elements");
  expect_one_line_error("run --variant stevens.conv2d_basic --width 8 --height 99999999999999999999", 2,
                        "--height: 99999999999999999999 is too large");
  expect_one_line_error("run --variant stevens.conv1d_basic --mask-width 99999999999", 2,
                        "--mask-width: 99999999999 is too large");
  expect_one_line_error("trace --variant epita.reduce3 --block-index 99999999999999999999", 2,
                        "--block-index: 99999999999999999999 is too large");
  expect_one_line_error("report --out x.json --traces 99999999999999999999", 2,
                        "--traces: 99999999999999999999 is too large");
  expect_one_line_error("sweep --from 99999999999", 2, "--from: 99999999999 is too large");
  // Values that fit the option's type keep their own range checks.
  expect_one_line_error("run --variant epita.reduce3 --block 5000", 2, "block size 5000 is outside 1..1024");
  expect_one_line_error("run --variant epita.reduce3 --block -1", 2, "--block must be positive (got -1)");
}

TEST(Cli, UntimedRunsPrintADashNotZero) {
  const std::string path = ::testing::TempDir() + "sim_report.json";
  Out o =
      cli("report --force --backend sim --variants epita.reduce3,cs121.filter_global,stevens.conv2d_register_tiled --n "
          "4096 "
          "--out " +
          path);
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_EQ(o.out.find("0.0000"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find(" 0.0 "), std::string::npos) << o.out;
  // Every run row: the id, n, then "-" for time, GB/s and % peak; the 29-character id keeps its column.
  int rows = 0;
  for (const char* id : {"epita.reduce3 ", "cs121.filter_global ", "stevens.conv2d_register_tiled "}) {
    const auto at = o.out.find(id);
    ASSERT_NE(at, std::string::npos) << id << "\n" << o.out;
    const std::string row = o.out.substr(at, o.out.find('\n', at) - at);
    const std::string dashes = std::string(11, ' ') + "-" + std::string(10, ' ') + "-" + std::string(8, ' ') + "- ";
    EXPECT_NE(row.find(dashes), std::string::npos) << row;
    ++rows;
  }
  EXPECT_EQ(rows, 3);
  // A sweep's table too (sim: untimed).
  Out s = cli("sweep --variants epita.reduce3 --from 10 --to 11 --backend sim");
  ASSERT_EQ(s.code, 0) << s.out;
  EXPECT_EQ(s.out.find("0.0000"), std::string::npos) << s.out;
}

TEST(Cli, RaceAndSlideBugMessagesAreNotDoubled) {
  Out race = cli("run --variant cs121.race --backend sim");
  ASSERT_EQ(race.code, 0) << race.out;
  EXPECT_NE(race.out.find("   race: expected 1000000, got "), std::string::npos) << race.out;
  EXPECT_EQ(race.out.find("race: race:"), std::string::npos) << race.out;
  Out bug = cli("run --variant epita.reduce8 --backend sim --n 4096");
  ASSERT_EQ(bug.code, 0) << bug.out;
  EXPECT_EQ(bug.out.find("slide-bug: slide bug"), std::string::npos) << bug.out;
  EXPECT_NE(bug.out.find("slide bug reproduced"), std::string::npos) << bug.out;
}

TEST(Cli, HelpNamesEveryPatternAndListHasNoTrailingSpaces) {
  Out help = cli("--help");
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out.find("reduction lessons' kernels"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("every lesson (reduction, scan, convolution, atomics)"), std::string::npos) << help.out;
  Out list = cli("list");
  ASSERT_EQ(list.code, 0);
  std::vector<std::string> rows;
  for (std::size_t at = 0, end; (end = list.out.find('\n', at)) != std::string::npos; at = end + 1)
    rows.push_back(list.out.substr(at, end - at));
  ASSERT_GE(rows.size(), 38u);
  // The pattern column starts where the header's does, after the longest id and one space.
  const std::size_t pattern_at = rows[0].find("pattern");
  ASSERT_NE(pattern_at, std::string::npos);
  bool saw_longest = false, saw_convolution = false;
  for (const auto& row : rows) {
    EXPECT_NE(row.back(), ' ') << "'" << row << "'";
    EXPECT_EQ(row[pattern_at - 1], ' ') << row;
    EXPECT_NE(row[pattern_at], ' ') << row;
    saw_longest |= row.rfind("stevens.conv2d_register_tiled ", 0) == 0;
    saw_convolution |= row.compare(pattern_at, 12, "convolution ") == 0;
  }
  EXPECT_TRUE(saw_longest);
  EXPECT_TRUE(saw_convolution);
}

TEST(Cli, MetricsListsTheCatalogWithoutAGpu) {
  Out o = cli("metrics --json");
  ASSERT_EQ(o.code, 0) << o.out;
  const auto doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["format"], "warpscope-metrics");
  const auto& j = doc["metrics"];
  ASSERT_TRUE(j.is_array());
  EXPECT_GE(j.size(), 25u);
  bool saw_conflicts = false;
  for (const auto& m : j) {
    for (const char* k : {"name", "short", "unit", "explain", "default", "source"}) EXPECT_TRUE(m.contains(k)) << k;
    if (m["name"] == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
      saw_conflicts = m["default"].get<bool>();
  }
  EXPECT_TRUE(saw_conflicts);
  Out human = cli("metrics");
  EXPECT_EQ(human.code, 0);
  EXPECT_NE(human.out.find("shared load bank conflicts"), std::string::npos);
  EXPECT_NE(human.out.find("[%]"), std::string::npos);
}

TEST(Cli, BadMetricNameIsOneLineExit2) {
  expect_one_line_error("run --variant harris.impl2 --metrics nope", 2, "unknown metric 'nope'");
  expect_one_line_error("run --variant harris.impl2 --metrics duration,,x --backend sim", 2, "empty name");
}

TEST(Cli, SimRunWithMetricsSaysTheyComeFromTheGpuOrReports) {
  Out o = cli("run --variant harris.impl3 --n 4096 --backend sim --metrics default --json");
  ASSERT_EQ(o.code, 0) << o.out;
  auto j = nlohmann::json::parse(o.out);
  ASSERT_TRUE(j.contains("metrics"));
  EXPECT_EQ(j["metrics"]["collected"], false);
  EXPECT_NE(j["metrics"]["error"].get<std::string>().find("replayed reports"), std::string::npos);
}
