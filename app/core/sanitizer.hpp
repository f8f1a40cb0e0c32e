// compute-sanitizer verdicts of a run: what memcheck, racecheck and synccheck found when
// scripts/device-sanitizer.sh ran the variant under each of them (scripts/sanitizer_parse.py reads the
// tools' logs). Stored in a report's run as "sanitizer", loaded and saved unchanged, shown by Results.
// What each tool can see is in sanitizer_tools(): racecheck sees shared memory only, so a race on a
// global word (epita.race's read-modify-write) passes it clean while the answer is wrong.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ws {

/// One tool's verdict on one run. Counts are what the tool's summary and reports say.
struct SanitizerToolVerdict {
  bool present = false;                    ///< the tool was run (the JSON has its object)
  bool ran = false;                        ///< it finished with its summary and the CLI ran the kernels
  int exit_code = 0;                       ///< the program's exit status under the tool (124: timed out)
  std::int64_t errors = 0;                 ///< memcheck/synccheck: ERROR SUMMARY; racecheck: reports of severity error
  std::int64_t warnings = 0;               ///< racecheck: reports of severity warning
  std::int64_t raw = 0, war = 0, waw = 0;  ///< racecheck: hazard reports by type (read after write, ...)
  std::int64_t hazards_total = 0;          ///< racecheck: hazards counted (>= raw + war + waw)
  std::string first;                       ///< the first reported line ("Invalid __shared__ write of size 4 bytes")
  std::string note;                        ///< why it did not run, when it did not
  /// Everything it reports; 0 = clean.
  std::int64_t findings() const { return errors + warnings + hazards_total; }
};

/// The three tools' verdicts on a variant, at the size they ran (which may differ from the run's n).
struct SanitizerVerdict {
  bool present = false;      ///< the run carries a verdict
  std::int64_t n = 0;        ///< elements (2-D: width x height) the tools ran on
  std::string args;          ///< the CLI's size arguments ("--n 1000", "--width 100 --height 77")
  std::string check;         ///< the CLI's own check under memcheck ("race: expected 1000, got 744")
  std::string tool_version;  ///< compute-sanitizer's version
  std::string device;        ///< the GPU it ran on
  SanitizerToolVerdict memcheck, racecheck, synccheck;
};

/// What one tool checks and what it cannot see, one line each, for tooltips and docs.
struct SanitizerToolInfo {
  const char* name;
  const char* sees;
  const char* blind_to;
};
/// memcheck, racecheck and synccheck, in that order.
const std::vector<SanitizerToolInfo>& sanitizer_tools();

/// The run's "sanitizer" object: {"n","args","check","tool_version","device","memcheck","racecheck",
/// "synccheck"}, each tool {"ran","exit","errors","first","note"} and racecheck also "warnings",
/// "hazards":{"RAW","WAR","WAW"}, "hazards_total" (scripts/sanitizer_parse.py writes the same).
nlohmann::json sanitizer_to_json(const SanitizerVerdict& v);
/// Inverse of sanitizer_to_json. Throws std::runtime_error naming the field for a wrong type, a count
/// out of 0..1e12, a text over 1000 characters, an unknown hazard type, hazards_total below the typed
/// hazards, findings from a tool that did not run, or no tool at all.
SanitizerVerdict sanitizer_from_json(const nlohmann::json& j);

/// The verdict in a few words for a table cell: "sanitizer: clean" (a racy run: "sanitizer: nothing
/// found (racecheck sees shared memory only)"), or the tools with findings first, e.g. "racecheck: 18
/// shared-memory hazards (RAW 2, WAW 1) · memcheck, synccheck clean"; "" without a verdict.
std::string format_sanitizer(const SanitizerVerdict& v, bool racy = false);
/// Several lines for hover: each tool's verdict with its first reported line, what each tool can and
/// cannot see, and where and at which size it ran.
std::string sanitizer_tooltip(const SanitizerVerdict& v);

}  // namespace ws
