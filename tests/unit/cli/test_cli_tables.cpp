// warpscope-cli as a TA scripts it: outputs never clobbered (--force, symbolic links, the old sweep
// --report), CSV that is the JSON flattened, report show/compare/merge/filter, and a Unix tool's manners
// (--version, examples, the program's name, tables on stdout, progress on stderr).
#include <gtest/gtest.h>
#include <unistd.h>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "unit/cli/cli_runner.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using ws::test::CliOut;
using ws::test::run_cli;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// An empty folder of this process (several checkouts' tests share /tmp: a fixed name was emptied under
/// a running test by another's).
std::string fresh_dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "ws_tables_" + name + "_" + std::to_string(::getpid());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string asset(const std::string& name) { return std::string(WS_TEST_DIR) + "/../assets/reports/" + name; }

/// A CSV table: header and rows of cells (RFC 4180 quotes; no line breaks inside cells here).
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// The cell of `column` in row `r`; fails the test when the column is missing.
  std::string at(std::size_t r, const std::string& column) const {
    for (std::size_t c = 0; c < header.size(); ++c)
      if (header[c] == column) return c < rows.at(r).size() ? rows[r][c] : std::string("<short row>");
    ADD_FAILURE() << "no column " << column;
    return "<missing>";
  }
};

std::vector<std::string> csv_line(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

Csv parse_csv(const std::string& text) {
  Csv t;
  std::istringstream in(text);
  std::string line;
  if (std::getline(in, line)) t.header = csv_line(line);
  while (std::getline(in, line))
    if (!line.empty()) t.rows.push_back(csv_line(line));
  return t;
}

/// Runs `args` with stdout into a file; returns {exit code, stderr} and the stdout text in `out`.
CliOut run_split(const std::string& args, std::string& out) {
  const std::string file = ::testing::TempDir() + "ws_tables_stdout_" + std::to_string(::getpid()) + ".txt";
  const std::string cmd = std::string(WS_CLI_PATH) + " " + args + " 2>&1 > " + file;
  FILE* p = popen(cmd.c_str(), "r");
  std::string err;
  char buf[4096];
  while (p && fgets(buf, sizeof buf, p)) err += buf;
  const int status = p ? pclose(p) : -1;
  out = slurp(file);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, err};
}

}  // namespace

TEST(CliOutputs, AnExistingOutputIsKeptUnlessForce) {
  const std::string dir = fresh_dir("keep");
  const std::string out = dir + "/r.json";
  for (const std::string& cmd : {"report --variants epita.reduce3 --backend sim --n 4096 --out " + out,
                                 "sweep --variants epita.reduce3 --from 10 --to 11 --backend sim --out " + out,
                                 "run --variant stevens.kogge_stone --backend sim --output " + out}) {
    std::ofstream(out) << "precious\n";
    const CliOut o = run_cli(cmd);
    EXPECT_EQ(o.code, 2) << cmd << "\n" << o.out;
    EXPECT_EQ(ws::test::count_lines(o.out), 1) << o.out;
    EXPECT_NE(o.out.find("exists: it is kept (give --force to replace it"), std::string::npos) << o.out;
    EXPECT_EQ(slurp(out), "precious\n") << cmd;
    const CliOut forced = run_cli(cmd + " --force");
    EXPECT_EQ(forced.code, 0) << cmd << "\n" << forced.out;
    EXPECT_NE(slurp(out), "precious\n") << cmd;
  }
}

// Issue's item 1: `sweep --report PATH` replaced a bundled 3.5 MB report by a 2.4 KB one with exit 0. --report is
// now the deprecated name of --out and never replaces a file, even with --force.
TEST(CliOutputs, SweepReportNeverReplacesAFile) {
  const std::string dir = fresh_dir("sweep_report");
  const std::string c = dir + "/c.json";
  fs::copy_file(asset("nvidia-h200-sweep.json"), c);
  const std::string before = slurp(c);
  for (const char* force : {"", " --force"}) {
    const CliOut o = run_cli("sweep --variants epita.reduce2 --from 10 --to 10 --backend sim --report " + c + force);
    EXPECT_EQ(o.code, 2) << o.out;
    EXPECT_NE(o.out.find("--report '" + c + "' exists: it is kept"), std::string::npos) << o.out;
    EXPECT_EQ(slurp(c), before);
  }
  const CliOut fresh =
      run_cli("sweep --variants epita.reduce2 --from 10 --to 10 --backend sim --report " + dir + "/new.json");
  EXPECT_EQ(fresh.code, 0) << fresh.out;
  EXPECT_NE(fresh.out.find("sweep --report is deprecated: it is --out now"), std::string::npos) << fresh.out;
  const json j = json::parse(slurp(dir + "/new.json"));
  EXPECT_EQ(j["format"], "warpscope-report");
  ASSERT_EQ(j["sweeps"].size(), 1u);
  EXPECT_EQ(j["sweeps"][0]["runs"].size(), 1u);
}

TEST(CliOutputs, ASymlinkedOutputIsRefusedAndItsTargetKept) {
  const std::string dir = fresh_dir("symlink");
  const std::string victim = dir + "/victim.txt";
  std::ofstream(victim) << "ours\n";
  fs::create_symlink(victim, dir + "/out.json");
  const std::string cmd = "report --variants epita.reduce3 --backend sim --n 4096 --out " + dir + "/out.json";
  const CliOut o = run_cli(cmd);
  EXPECT_EQ(o.code, 2) << o.out;
  EXPECT_NE(o.out.find("is a symbolic link: it is not followed"), std::string::npos) << o.out;
  EXPECT_EQ(slurp(victim), "ours\n");
  const CliOut forced = run_cli(cmd + " --force");  // replaces the link itself
  EXPECT_EQ(forced.code, 0) << forced.out;
  EXPECT_FALSE(fs::is_symlink(dir + "/out.json"));
  EXPECT_EQ(json::parse(slurp(dir + "/out.json"))["runs"][0]["variant"], "epita.reduce3");
  EXPECT_EQ(slurp(victim), "ours\n");
}

// Issue's item 6: a float32 result lost digits in CSV, CSV typed result as int and JSON as float.
TEST(CliTables, RunCsvIsTheJsonFlattenedWithExactFloats) {
  const std::string args = "run --variant epita.reduce3 --backend sim --type float32 --n 100000 --seed 3";
  const CliOut jo = run_cli(args + " --json 2>/dev/null");
  ASSERT_EQ(jo.code, 0) << jo.out;
  const json j = json::parse(jo.out);
  EXPECT_EQ(j["format"], "warpscope-run");
  EXPECT_EQ(j["version"], 1);
  std::string text;
  ASSERT_EQ(run_split(args + " --csv", text).code, 0);
  const Csv t = parse_csv(text);
  ASSERT_EQ(t.rows.size(), 1u) << text;
  ASSERT_TRUE(j["result"].is_number_float());
  EXPECT_EQ(std::stod(t.at(0, "result")), j["result"].get<double>());  // every digit: reads back the same double
  EXPECT_NE(t.at(0, "result").find('.'), std::string::npos);           // typed float as in the JSON
  EXPECT_EQ(t.at(0, "time_ms"), "");                                   // untimed (sim): null, not 0
  EXPECT_EQ(t.at(0, "block"), std::to_string(j["block"].get<int>()));
  EXPECT_GT(std::stod(t.at(0, "host_ms.total")), 0.0);  // a host time: each run measures its own
  // int32: the JSON's number is a float (a double holds every int32 sum), so the CSV writes it as one too
  const std::string ia = "run --variant epita.reduce3 --backend sim --n 1000";
  const json ji = json::parse(run_cli(ia + " --json 2>/dev/null").out);
  ASSERT_EQ(run_split(ia + " --csv", text).code, 0);
  EXPECT_EQ(parse_csv(text).at(0, "result"), ji["result"].dump());
  EXPECT_NE(parse_csv(text).at(0, "result").find(".0"), std::string::npos);
}

TEST(CliTables, ValuesThatDoNotExistAreEmptyNotZero) {
  std::string text;
  const CliOut o =
      run_split("report --variants epita.reduce3,epita.reduce6 --block 16 --backend sim --n 4096 --csv --quiet --out " +
                    fresh_dir("skipped") + "/r.json",
                text);
  ASSERT_EQ(o.code, 0) << o.out;
  const Csv t = parse_csv(text);
  ASSERT_EQ(t.rows.size(), 2u) << text;
  EXPECT_EQ(t.at(1, "variant"), "epita.reduce6");
  EXPECT_EQ(t.at(1, "status"), "skipped");
  for (const char* col : {"result", "expected", "block", "grid", "time_ms", "gbps"})
    EXPECT_EQ(t.at(1, col), "") << col << " of a skipped run";
  EXPECT_EQ(t.at(0, "status"), "ok");
  EXPECT_EQ(t.at(0, "block"), "16");
  EXPECT_EQ(t.at(1, "backend"), "sim") << "a skipped run of a sim report";
}

// Issue's item 5: a sim sweep had nothing to plot; its host time per n is there, marked as host time.
TEST(CliTables, SimSweepCsvPlotsHostTimeNotGpuTime) {
  std::string text;
  ASSERT_EQ(run_split("sweep --variants epita.reduce3 --from 10 --to 14 --backend sim --csv --quiet", text).code, 0);
  const Csv t = parse_csv(text);
  ASSERT_EQ(t.rows.size(), 5u) << text;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    EXPECT_EQ(t.at(r, "n"), std::to_string(1 << (10 + r)));
    EXPECT_EQ(t.at(r, "time_ms"), "");
    EXPECT_GT(std::stod(t.at(r, "host_ms.total")), 0.0);
    EXPECT_NE(t.at(r, "host_ms.model"), "");
  }
  std::string table;
  ASSERT_EQ(run_split("sweep --variants epita.reduce3 --from 10 --to 10 --backend sim", table).code, 0);
  EXPECT_NE(table.find("host ms"), std::string::npos) << table;
}

TEST(CliReports, ShowPrintsTheBundledReportAsASlideTable) {
  const json rep = json::parse(slurp(asset("nvidia-h100-lessons.json")));
  std::vector<json> scans;
  for (const auto& r : rep["runs"])
    if (r["lesson"] == "stevens" && r["variant"].get<std::string>().find("scan") != std::string::npos)
      scans.push_back(r);
  std::string text;
  const CliOut o = run_split("report show " + asset("nvidia-h100-lessons.json") + " --variants scan --csv", text);
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_EQ(o.out, "") << "nothing on stderr";
  const Csv t = parse_csv(text);
  ASSERT_GE(t.rows.size(), scans.size());
  std::map<std::string, std::size_t> row_of;
  for (std::size_t r = 0; r < t.rows.size(); ++r) row_of[t.at(r, "variant")] = r;
  for (const auto& s : scans) {
    const std::string id = s["variant"];
    ASSERT_TRUE(row_of.count(id)) << id;
    if (s["time_ms"].is_number()) EXPECT_EQ(std::stod(t.at(row_of[id], "time_ms")), s["time_ms"].get<double>()) << id;
  }
  std::string human;
  ASSERT_EQ(run_split("report show " + asset("nvidia-h100.json"), human).code, 0);
  EXPECT_NE(human.find("epita.reduce3"), std::string::npos) << human;
  const CliOut bad = run_cli("report show /nonexistent.json");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(ws::test::count_lines(bad.out), 1) << bad.out;
}

TEST(CliReports, CompareGivesRatiosAndBaselinesOfTheSamePattern) {
  const std::string a = asset("nvidia-h100-lessons.json"), b = asset("nvidia-h100.json");
  const CliOut o = run_cli("report compare " + a + " " + b + " --json 2>/dev/null");
  ASSERT_EQ(o.code, 0) << o.out;
  const json c = json::parse(o.out);
  EXPECT_EQ(c["format"], "warpscope-compare");
  const json ra = json::parse(slurp(a)), rb = json::parse(slurp(b));
  auto run_of = [](const json& rep, const std::string& id) {
    for (const auto& r : rep["runs"])
      if (r["variant"] == id) return r;
    return json();
  };
  int checked = 0;
  for (const auto& row : c["variants"]) {
    const std::string id = row["variant"];
    const json x = run_of(ra, id), y = run_of(rb, id);
    if (x["time_ms"].is_number() && y["time_ms"].is_number()) {
      EXPECT_DOUBLE_EQ(row["time_ratio"].get<double>(), y["time_ms"].get<double>() / x["time_ms"].get<double>()) << id;
      ++checked;
    }
    if (id.rfind("stevens.conv", 0) == 0) EXPECT_TRUE(row["x_baseline_a"].is_null()) << "no library convolution";
    if (id.rfind("cs121.hist", 0) == 0 && !row["baseline_a"].is_null()) EXPECT_EQ(row["baseline_a"], "cub.histogram");
    if (id.rfind("cs121.filter", 0) == 0 && !row["baseline_a"].is_null()) EXPECT_EQ(row["baseline_a"], "cub.select");
    if (id == "epita.reduce3") {
      const json base = run_of(ra, "cub.reduce");
      EXPECT_EQ(row["baseline_a"], "cub.reduce");
      EXPECT_DOUBLE_EQ(row["x_baseline_a"].get<double>(), x["gbps"].get<double>() / base["gbps"].get<double>());
    }
  }
  EXPECT_GE(checked, 5);
  std::string table;
  ASSERT_EQ(run_split("report compare " + a + " " + b + " --variants reduction", table).code, 0);
  EXPECT_NE(table.find("epita.reduce3"), std::string::npos);
  EXPECT_NE(table.find("stevens.reduce_divergent"), std::string::npos) << table;  // a reduction of another lesson
  EXPECT_EQ(table.find("stevens.conv"), std::string::npos) << table;
}

TEST(CliReports, CompareSetsSweepPointsSideBySide) {
  // Two sim sweeps overlapping in one variant at two sizes: those points side by side with the model's host
  // time and its ratio B / A; the others counted as in one report only (compare used to ignore sweeps).
  const std::string dir = fresh_dir("compare_sweeps");
  ASSERT_EQ(run_cli("sweep --quiet --variants epita.reduce2,epita.reduce3 --from 10 --to 12 --backend sim --out " +
                    dir + "/a.json")
                .code,
            0);
  ASSERT_EQ(run_cli("sweep --quiet --variants epita.reduce3,harris.impl2 --from 11 --to 13 --backend sim --out " + dir +
                    "/b.json")
                .code,
            0);
  const CliOut o = run_cli("report compare " + dir + "/a.json " + dir + "/b.json --json 2>/dev/null");
  ASSERT_EQ(o.code, 0) << o.out;
  const json c = json::parse(o.out);
  const json a = json::parse(slurp(dir + "/a.json")), b = json::parse(slurp(dir + "/b.json"));
  auto host_of = [](const json& rep, std::int64_t n) {
    for (const auto& r : rep["sweeps"][0]["runs"])
      if (r["variant"] == "epita.reduce3" && r["n"] == n) return r["host_ms"]["total"].get<double>();
    return -1.0;
  };
  ASSERT_EQ(c["sweep_points"].size(), 2u) << c.dump(1);
  for (const auto& p : c["sweep_points"]) {
    EXPECT_EQ(p["variant"], "epita.reduce3");
    const std::int64_t n = p["n"];
    EXPECT_TRUE(n == 2048 || n == 4096) << n;
    EXPECT_TRUE(p["time_ratio"].is_null()) << "sim sweeps are untimed";
    EXPECT_DOUBLE_EQ(p["host_ratio"].get<double>(), host_of(b, n) / host_of(a, n));
  }
  EXPECT_EQ(c["sweep_points_only_a"], 4);  // reduce2 x 3 sizes, reduce3 at 2^10
  EXPECT_EQ(c["sweep_points_only_b"], 4);  // harris.impl2 x 3 sizes, reduce3 at 2^13
  std::string csv;
  ASSERT_EQ(run_split("report compare " + dir + "/a.json " + dir + "/b.json --csv", csv).code, 0);
  EXPECT_EQ(csv.rfind("variant,sweep,n,type,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\nepita.reduce3,true,4096,int32,"), std::string::npos) << csv;
  std::string table;
  ASSERT_EQ(run_split("report compare " + dir + "/a.json " + dir + "/b.json", table).code, 0);
  EXPECT_NE(table.find("sweep points in both (2)"), std::string::npos) << table;
  EXPECT_NE(table.find("only in A: 4, only in B: 4"), std::string::npos) << table;
}

TEST(CliReports, MergeAndFilterKeepWhatTheyShould) {
  const std::string dir = fresh_dir("merge");
  ASSERT_EQ(
      run_cli("report --quiet --variants epita.reduce3,harris.impl2 --backend sim --n 4096 --out " + dir + "/a.json")
          .code,
      0);
  ASSERT_EQ(
      run_cli("report --quiet --variants stevens.conv1d_basic --backend sim --n 4096 --out " + dir + "/b.json").code,
      0);
  const std::string merge = "report merge " + dir + "/a.json " + dir + "/b.json --out " + dir + "/m.json";
  ASSERT_EQ(run_cli(merge).code, 0);
  const json m = json::parse(slurp(dir + "/m.json"));
  ASSERT_EQ(m["runs"].size(), 3u);
  EXPECT_EQ(m["runs"][2]["variant"], "stevens.conv1d_basic");
  const CliOut again = run_cli(merge);
  EXPECT_EQ(again.code, 2) << again.out;
  EXPECT_NE(again.out.find("exists: it is kept"), std::string::npos) << again.out;
  // Another device is refused.
  json other = json::parse(slurp(dir + "/b.json"));
  other["device"]["name"] = "another GPU";
  std::ofstream(dir + "/c.json") << other.dump();
  const CliOut dev = run_cli("report merge " + dir + "/a.json " + dir + "/c.json --out " + dir + "/x.json");
  EXPECT_EQ(dev.code, 2);
  EXPECT_NE(dev.out.find("merge reports of one device"), std::string::npos) << dev.out;
  EXPECT_FALSE(fs::exists(dir + "/x.json"));
  ASSERT_EQ(run_cli("report filter " + dir + "/m.json --variants harris.impl2 --out " + dir + "/f.json").code, 0);
  const json f = json::parse(slurp(dir + "/f.json"));
  ASSERT_EQ(f["runs"].size(), 1u);
  EXPECT_EQ(f["runs"][0]["variant"], "harris.impl2");
}

TEST(CliManners, VersionExamplesProgramNameAndUnknownSubcommand) {
  const CliOut v = run_cli("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out.rfind("warpscope-cli ", 0), 0u) << v.out;
  for (const char* sub : {"list", "device", "run", "trace", "metrics", "report", "sweep", "worker", "report show",
                          "report compare", "report merge", "report filter"}) {
    const CliOut h = run_cli(std::string(sub) + " --help");
    EXPECT_EQ(h.code, 0) << sub;
    EXPECT_NE(h.out.find("Examples:\n  "), std::string::npos) << sub << "\n" << h.out;
    EXPECT_NE(h.out.find("Usage: warpscope-cli"), std::string::npos) << sub << "\n" << h.out;
    EXPECT_EQ(h.out.find(WS_CLI_PATH), std::string::npos) << "the build path in usage: " << h.out;
  }
  const CliOut u = run_cli("frobnicate");
  EXPECT_EQ(u.code, 2);
  EXPECT_EQ(ws::test::count_lines(u.out), 1) << u.out;
  EXPECT_NE(u.out.find("unknown subcommand 'frobnicate'"), std::string::npos) << u.out;
  const CliOut both = run_cli("list --json --csv");
  EXPECT_EQ(both.code, 2);
}

// `report compare` compares the reports' sweeps point by point too: its --help (and so its man page) says so.
TEST(CliManners, ReportCompareHelpSaysItComparesSweeps) {
  const CliOut h = run_cli("report compare --help");
  ASSERT_EQ(h.code, 0) << h.out;
  EXPECT_NE(h.out.find("and their sweeps point by point"), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("the CPU model's host time for sim sweeps"), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("one per sweep point"), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("sweep_points"), std::string::npos) << h.out;
}

// Issue's item 8: `report` printed its table on stderr; progress was "\rN/M" never cleared, even in a pipe.
TEST(CliManners, TablesOnStdoutProgressOnStderrOneLinePerItemInAPipe) {
  const std::string dir = fresh_dir("streams");
  std::string out;
  CliOut o =
      run_split("report --variants epita.reduce3,harris.impl2 --backend sim --n 4096 --out " + dir + "/t.json", out);
  ASSERT_EQ(o.code, 0) << o.out;
  EXPECT_NE(out.find("epita.reduce3"), std::string::npos) << out;
  EXPECT_NE(out.find("harris.impl2"), std::string::npos) << out;
  EXPECT_EQ(o.out.find("harris.impl2"), std::string::npos) << "the table went to stderr: " << o.out;
  o = run_split("sweep --variants epita.reduce3 --from 10 --to 12 --backend sim --json", out);
  ASSERT_EQ(o.code, 0);
  EXPECT_EQ(json::parse(out)["format"], "warpscope-sweep");
  EXPECT_NE(o.out.find("1/3 epita.reduce3 2^10 ok\n2/3 epita.reduce3 2^11 ok\n3/3"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find('\r'), std::string::npos) << "not a terminal: whole lines";
  o = run_split("sweep --variants epita.reduce3 --from 10 --to 12 --backend sim --json --quiet", out);
  EXPECT_EQ(o.out, "");
}

TEST(CliManners, BashCompletionCompletesSubcommandsAndTools) {
  const std::string script = std::string(WS_TEST_DIR) + "/../app/cli/completion/warpscope-cli.bash";
  auto complete = [&](const std::string& words) {
    const std::string cmd = "bash -c 'source " + script + "; COMP_WORDS=(" + words +
                            "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _warpscope_cli; echo \"${COMPREPLY[*]}\"' 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    while (p && fgets(buf, sizeof buf, p)) out += buf;
    if (p) pclose(p);
    return out;
  };
  EXPECT_EQ(complete("warpscope-cli re"), "report\n");
  EXPECT_EQ(complete("warpscope-cli report co"), "compare\n");
  EXPECT_NE(complete("warpscope-cli sweep --f").find("--force"), std::string::npos);
  EXPECT_EQ(complete("warpscope-cli run --backend s"), "sim\n");
}
