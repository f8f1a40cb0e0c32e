// Hostile files and options, second round: floating options, bounded JSON (nesting, counts, unknown
// fields, duplicate keys), PNG inflation bombs, files that cannot be opened, reports whose numbers lie.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "json_read.hpp"
#include "lessons.hpp"
#include "limits.hpp"
#include "paths.hpp"
#include "patterns/convolution/conv_inputs.hpp"
#include "report.hpp"
#include "report_text.hpp"
#include "sweep.hpp"
#include "worker_server.hpp"

extern "C" unsigned char* stbi_zlib_compress(unsigned char* data, int data_len, int* out_len, int quality);

using namespace ws;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string temp(const std::string& name) { return ::testing::TempDir() + "ws_hostile_" + name; }

std::string thrown(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) { return e.what(); }
  return "";
}

/// A run as `report` writes it, with the fields a test changes.
json run_json() {
  return json{
      {"variant", "epita.reduce3"}, {"backend", "cuda"}, {"n", 1024},      {"type", "int32"}, {"result", 1024},
      {"expected", 1024},           {"correct", true},   {"status", "ok"}, {"bytes", 4096},   {"time_ms", 0.01}};
}

json report_with(const json& run) {
  return json{{"format", "warpscope-report"}, {"version", 1}, {"runs", json::array({run})}};
}

void put_be32(std::string& s, std::uint32_t v) {
  for (int k = 3; k >= 0; --k) s += char((v >> (8 * k)) & 0xff);
}

void chunk(std::string& png, const char* type, const std::string& data) {
  put_be32(png, std::uint32_t(data.size()));
  png += type;
  png += data;
  put_be32(png, 0);  // CRC: stb does not check it
}

}  // namespace

TEST(Limits, FloatingOptionsRefuseNanInfinitiesAndEmptyText) {
  for (const char* bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e309", "", " 1", "1x", "0x", "2^63"})
    EXPECT_NE(check_number_option("--watchdog", bad, 0, 86400, "seconds"), "") << bad;
  EXPECT_EQ(check_number_option("--watchdog", "10", 0, 86400, "seconds"), "");
  EXPECT_EQ(check_number_option("--keep", "0.25", 0, 1), "");
  EXPECT_EQ(check_number_option("--keep", "1e-3", 0, 1), "");
  EXPECT_NE(check_number_option("--keep", "1.5", 0, 1), "");
  EXPECT_EQ(check_number_option("--keep", "nan", 0, 1), "--keep must be a number in 0..1 (got 'nan')");
  EXPECT_NE(check_integer_text("--seed", ""), "");
  EXPECT_NE(check_integer_text("--seed", "-"), "");
  EXPECT_EQ(check_integer_text("--seed", "7"), "");
}

TEST(Limits, ShadersLessonsAndReportsAreReadWithinTheirLimits) {
  std::string text;
  // /dev/zero as a shader, a lesson or a report: refused by kind, never read.
  EXPECT_NE(read_file_bounded("/dev/zero", kMiB, "shader", text).find("not a regular file"), std::string::npos);
  const std::string big = temp("big.frag");
  { std::ofstream f(big); }
  fs::resize_file(big, 2 * kMiB);
  EXPECT_NE(read_file_bounded(big, kMiB, "shader", text).find("more than the 1.0 MiB a shader may have"),
            std::string::npos);
  EXPECT_TRUE(text.empty());
  const std::string ok = temp("ok.frag");
  std::ofstream(ok) << "void main() {}\n";
  EXPECT_EQ(read_file_bounded(ok, kMiB, "shader", text), "");
  EXPECT_EQ(text, "void main() {}\n");
  EXPECT_EQ(read_file_bounded(temp("absent"), kMiB, "shader", text),
            "cannot open shader '" + temp("absent") + "': No such file or directory");
}

TEST(Limits, AnUnreadableFileSaysPermissionDeniedAndItsPath) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads a file of mode 000";
  const std::string p = temp("mode000.json");
  std::ofstream(p) << "{}";
  fs::permissions(p, fs::perms::none);
  std::string text;
  EXPECT_EQ(read_file_bounded(p, kMiB, "report", text), "cannot open report '" + p + "': Permission denied");
  EXPECT_NE(thrown([&] { load_report(p); }).find("Permission denied"), std::string::npos);
  const std::string dir = temp("lessons000");
  fs::create_directories(dir);
  std::ofstream(dir + "/l.json") << "{}";
  fs::permissions(dir + "/l.json", fs::perms::none);
  std::vector<std::string> problems;
  load_lessons(dir, &problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("Permission denied"), std::string::npos) << problems[0];
  EXPECT_EQ(problems[0].find("not valid JSON"), std::string::npos) << problems[0];
}

TEST(JsonBounds, DuplicateKeysAreRefusedNamingTheKeyAndWhere) {
  EXPECT_EQ(thrown([] { parse_json_text(R"({"type":"run","type":"shutdown"})", "request"); }),
            "request: duplicate key 'type' in the top level (JSON leaves it undefined which one counts)");
  const std::string trailing = report_with(run_json()).dump();
  const std::string emptied = trailing.substr(0, trailing.size() - 1) + R"(,"runs":[]})";
  EXPECT_NE(thrown([&] { report_from_json(parse_report_text(emptied, "report")); }).find("duplicate key 'runs'"),
            std::string::npos);
  EXPECT_NE(thrown([] { parse_json_text(R"({"a":[1,{"b":{"c":1,"c":2}}]})", "x"); }).find("in a[1].b"),
            std::string::npos);
}

TEST(JsonBounds, NestingAndValueCountsAreBounded) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_NE(thrown([&] { parse_json_text(deep, "report"); }).find("nested deeper than 64"), std::string::npos);
  JsonBounds few;
  few.max_values = 1000;
  std::string many = "[";
  for (int i = 0; i < 2000; ++i) many += i ? ",{}" : "{}";
  many += "]";
  EXPECT_NE(thrown([&] { parse_json_bounded(many, "report", few); }).find("more than 1000 values"), std::string::npos);
}

TEST(JsonBounds, UnknownFieldsOfAReportAreSkippedWhileParsing) {
  // 3 M empty objects under a field no reader knows: skipped, not built (they would take ~200 MB), and
  // not counted against the bound on kept values.
  json run = run_json();
  std::string text = report_with(run).dump();
  std::string junk = R"("junk":[)";
  junk.reserve(9'000'100);
  for (int i = 0; i < 3'000'000; ++i) junk += i ? ",{}" : "{}";
  junk += "],";
  text.insert(1, junk);
  const std::size_t at_run = text.find(R"("variant")");
  text.insert(at_run, junk);
  JsonBounds b = report_json_bounds();
  b.max_values = 1000;
  const json j = parse_json_bounded(text, "report", b);
  EXPECT_FALSE(j.contains("junk"));
  EXPECT_FALSE(j["runs"][0].contains("junk"));
  const Report r = report_from_json(j);
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_EQ(r.runs[0].variant, "epita.reduce3");
}

TEST(JsonBounds, EveryStoredReportLoadsTheSameThroughTheBoundedParser) {
  for (const auto& e : fs::recursive_directory_iterator(fs::path(assets_dir()) / "reports")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream f(e.path(), std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    const Report plain = report_from_json(json::parse(text));
    const Report bounded = report_from_json(parse_report_text(text, e.path().string()));
    EXPECT_EQ(report_to_json(plain), report_to_json(bounded)) << e.path();
  }
}

TEST(ReportValidation, TimesBelowWhatAClockResolvesAreRefusedNamingTheField) {
  json run = run_json();
  run["time_ms"] = 1e-300;
  EXPECT_NE(thrown([&] { report_from_json(report_with(run)); }).find("field 'time_ms'"), std::string::npos);
  run["time_ms"] = 0.01;
  run["times_ms"] = {0.01, 1e-300};
  EXPECT_NE(thrown([&] { report_from_json(report_with(run)); }).find("'times_ms'"), std::string::npos);
  run["times_ms"] = {0.01};
  run["time_min_ms"] = 1e-12;
  EXPECT_NE(thrown([&] { report_from_json(report_with(run)); }).find("field 'time_min_ms'"), std::string::npos);
  run.erase("time_min_ms");
  EXPECT_EQ(thrown([&] { report_from_json(report_with(run)); }), "");
}

TEST(ReportValidation, CorrectnessIsRecomputedFromResultAndExpected) {
  json run = run_json();
  run["result"] = 1000;
  const Report r = report_from_json(report_with(run));
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_FALSE(r.runs[0].correct);
  EXPECT_EQ(r.runs[0].status, RunStatus::Wrong);
  EXPECT_NE(r.runs[0].message.find("marks this run correct"), std::string::npos) << r.runs[0].message;
  // Float results within the check's tolerance stay correct.
  run["type"] = "float32";
  run["result"] = 0.49741604924201965;
  run["expected"] = 0.49741605838948333;
  EXPECT_TRUE(report_from_json(report_with(run)).runs[0].correct);
}

TEST(Limits, APngWhoseDataInflatesPastItsHeaderIsRefused) {
  // 100 x 100 grey pixels need 100 x 101 bytes inflated; this IDAT holds 16 MiB of zeros in ~16 KiB.
  std::vector<unsigned char> zeros(16u << 20, 0);
  int zlen = 0;
  unsigned char* z = stbi_zlib_compress(zeros.data(), int(zeros.size()), &zlen, 9);
  ASSERT_NE(z, nullptr);
  std::string png("\x89PNG\r\n\x1a\n", 8), ihdr;
  put_be32(ihdr, 100);
  put_be32(ihdr, 100);
  ihdr += std::string("\x08\x00\x00\x00\x00", 5);  // 8-bit grey, no interlace
  chunk(png, "IHDR", ihdr);
  chunk(png, "IDAT", std::string(reinterpret_cast<char*>(z), std::size_t(zlen)));
  chunk(png, "IEND", "");
  std::free(z);
  const std::string path = temp("idat_bomb.png");
  std::ofstream(path, std::ios::binary) << png;
  ConvInput c;
  const std::string err = load_conv_input(path, 2, 0, 0, 1, c);
  EXPECT_NE(err.find("inflates to more than the 100 x 100 pixels its header says"), std::string::npos) << err;
  // The same header over exactly its pixels loads.
  std::vector<unsigned char> exact(100 * 101, 0);
  z = stbi_zlib_compress(exact.data(), int(exact.size()), &zlen, 9);
  std::string good("\x89PNG\r\n\x1a\n", 8);
  chunk(good, "IHDR", ihdr);
  chunk(good, "IDAT", std::string(reinterpret_cast<char*>(z), std::size_t(zlen)));
  chunk(good, "IEND", "");
  std::free(z);
  const std::string good_path = temp("idat_ok.png");
  std::ofstream(good_path, std::ios::binary) << good;
  EXPECT_EQ(load_conv_input(good_path, 2, 0, 0, 1, c), "");
  EXPECT_EQ(c.rows * c.cols, 100 * 100);
}

TEST(Limits, APgmOfNegativeSizeSaysSo) {
  const std::string path = temp("neg.pgm");
  std::ofstream(path, std::ios::binary) << "P5\n-5 -5\n255\n" << std::string(64, '\0');
  ConvInput c;
  const std::string err = load_conv_input(path, 2, 0, 0, 1, c);
  EXPECT_EQ(err.find("more than 2^30 pixels"), std::string::npos) << err;
  EXPECT_NE(err, "");
}

TEST(Lessons, ABadSceneDropsThatSceneNotTheLesson) {
  const std::string dir = temp("lessons_bad_scene");
  fs::create_directories(dir);
  std::ofstream(dir + "/l.json") << R"({"id":"mine","title":"t","seed":"s","source":"x","pattern":"reduction",
    "summary":"s","steps":[{"variant":"epita.reduce3","narrative":"n"}],
    "scenes":[{"variant":"epita.reduce3","note":"one"},{"variant":"no.such","note":"two"},
              {"variant":"epita.reduce3","note":"three"}]})";
  std::vector<std::string> problems;
  const std::vector<Lesson> ls = load_lessons(dir, &problems);
  ASSERT_EQ(ls.size(), 1u);
  ASSERT_EQ(ls[0].scenes.size(), 2u);
  EXPECT_EQ(ls[0].scenes[1].note, "three");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("l.json: scene 2: unknown variant 'no.such'"), std::string::npos) << problems[0];
  EXPECT_NE(problems[0].find("scene dropped"), std::string::npos) << problems[0];
}

TEST(Limits, ANumberFileStartingWithAByteOrderMarkIsRead) {
  const std::string path = temp("bom.txt");
  std::ofstream(path, std::ios::binary) << "\xEF\xBB\xBF"
                                        << "1 2 3\n";
  Input in;
  ASSERT_EQ(read_input_file(path, 0, DType::Int32, in), "");
  EXPECT_EQ(in.n(), 3);
}

TEST(Limits, AnAddressSpaceLimitCountsAsHostMemory) {
  // Under ulimit -v, MemAvailable promised memory the process could not map: runs were admitted, then
  // ended in std::bad_alloc. In a child with 256 MiB of address space to spare, that is what is free.
  EXPECT_EXIT(
      {
        std::ifstream statm("/proc/self/statm");
        long pages = 0;
        statm >> pages;
        const rlim_t most = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(256) << 20);
        rlimit lim;
        lim.rlim_cur = lim.rlim_max = most;
        setrlimit(RLIMIT_AS, &lim);
        const std::int64_t free_bytes = host_memory_available();
        std::exit(free_bytes >= 0 && free_bytes <= (std::int64_t(300) << 20) ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(Limits, AnOutOfMemoryLineNamesTheAddressSpaceLimit) {
  // std::bad_alloc under ulimit -v said "an allocation failed": now what was needed and the limit that bit.
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's shadow memory cannot live under an address-space limit";
#endif
  EXPECT_EXIT(
      {
        rlimit lim;
        lim.rlim_cur = lim.rlim_max = rlim_t(64) << 30;
        setrlimit(RLIMIT_AS, &lim);
        const std::string line = describe_exception(std::bad_alloc(), std::int64_t(80) << 30);
        std::fprintf(stderr, "%s\n", line.c_str());
        std::exit(line.find("needs about 80.0 GiB") != std::string::npos &&
                          line.find("address space limited to 64.0 GiB (ulimit -v)") != std::string::npos
                      ? 0
                      : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

/// The worker run in a child process under an address-space limit of `address_space` bytes, with `extra`
/// answering first: `requests` (JSON lines) go to its stdin, which then ends; returns what it wrote.
std::string worker_answers(const WorkerServerOptions& options, const std::string& requests, rlim_t address_space) {
  int to_worker[2], from_worker[2];
  if (pipe(to_worker) != 0 || pipe(from_worker) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(to_worker[1]);
    close(from_worker[0]);
    rlimit lim;
    lim.rlim_cur = lim.rlim_max = address_space;
    setrlimit(RLIMIT_AS, &lim);
    std::_Exit(run_worker_server(to_worker[0], from_worker[1], options));
  }
  close(to_worker[0]);
  close(from_worker[1]);
  if (write(to_worker[1], requests.data(), requests.size()) != ssize_t(requests.size())) return "write failed";
  close(to_worker[1]);
  std::string out;
  char buf[4096];
  for (ssize_t got; (got = read(from_worker[0], buf, sizeof buf)) > 0;) out.append(buf, std::size_t(got));
  close(from_worker[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return out;
}

TEST(Limits, AWorkersOutOfMemoryLineSaysWhatTheRequestNeeds) {
  // The worker answered "trace: out of host memory: an allocation failed, ..." where the CLI's own path
  // said what was needed: a request that runs out of memory in the worker names its size too.
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's shadow memory cannot live under an address-space limit";
#endif
  WorkerServerOptions o;
  o.extra = [](const json& req, Backend*, json&) -> bool {
    if (req.value("type", "") != "shutdown") throw std::bad_alloc();  // what a request's allocation throws
    return false;
  };
  const std::string answers = worker_answers(
      o,
      R"({"id": 1, "type": "trace", "request": {"variant": "epita.reduce3", "n": 268435456, "backend": "sim"}})"
      "\n"
      R"({"id": 2, "type": "run", "request": {"variant": "stevens.conv1d_tiled", "n": 1048576, "backend": "sim"}})"
      "\n"
      R"({"id": 3, "type": "live_batch", "seconds": 0, "requests": [{"variant": "epita.reduce3", "n": 1048576},)"
      R"( {"variant": "epita.reduce3", "n": 1048576}]})"
      "\n"
      R"({"id": 4, "type": "sweep", "sweep": {"variants": ["epita.reduce3"], "from_log2": 10, "to_log2": 20,)"
      R"( "backend": "sim", "runs": []}})"
      "\n",
      rlim_t(64) << 30);
  std::map<std::int64_t, std::string> message;
  for (std::size_t at = 0, end; (end = answers.find('\n', at)) != std::string::npos; at = end + 1) {
    const json a = json::parse(answers.substr(at, end - at));
    if (a.value("type", "") == "error") message[a["id"].get<std::int64_t>()] = a["message"];
  }
  ASSERT_EQ(message.size(), 4u) << answers;
  // n = 2^28 int32: 1 GiB of input; a 1-D convolution of 2^20 keeps 4 + 28 bytes per element (32 MiB).
  const std::string limit = ", address space limited to 64.0 GiB (ulimit -v) (try a smaller n or image)";
  EXPECT_EQ(message[1].rfind("trace: out of host memory: needs about 1.0 GiB, this machine has ", 0), 0u) << message[1];
  EXPECT_NE(message[1].find(limit), std::string::npos) << message[1];
  EXPECT_EQ(message[2].rfind("run: out of host memory: needs about 32.0 MiB, this machine has ", 0), 0u) << message[2];
  EXPECT_EQ(message[3].rfind("live_batch: out of host memory: needs about 8.0 MiB, ", 0), 0u) << message[3];
  EXPECT_EQ(message[4].rfind("sweep: out of host memory: needs about 4.0 MiB, ", 0), 0u) << message[4];
  for (const auto& [id, line] : message) EXPECT_NE(line.find(limit), std::string::npos) << line;
}

TEST(Limits, ASweepThatRunsOutOfMemoryKeepsItsFinishedPoints) {
  // With 256 MiB of address space to spare, n = 2^24 fits and 2^28 cannot: the sweep must end with the
  // small points done and the large ones as errors in words (before: std::bad_alloc left run_sweep,
  // and every finished point with it).
  EXPECT_EXIT(
      {
        std::ifstream statm("/proc/self/statm");
        long pages = 0;
        statm >> pages;
        const rlim_t most = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(256) << 20);
        rlimit lim;
        lim.rlim_cur = lim.rlim_max = most;
        setrlimit(RLIMIT_AS, &lim);
        SweepSpec spec;
        spec.variants = {"epita.reduce3"};
        spec.from_log2 = 20;
        spec.to_log2 = 28;
        spec.backend = BackendKind::Sim;
        std::string error;
        const Sweep s = run_sweep(spec, nullptr, "", nullptr, {}, &error);
        const bool first_ok = !s.runs.empty() && s.runs.front().status == RunStatus::Ok;
        const bool last_says = !s.runs.empty() && s.runs.back().status == RunStatus::Error &&
                               (s.runs.back().message.find("free") != std::string::npos);
        std::exit(first_ok && last_says ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}
