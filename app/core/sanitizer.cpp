#include "sanitizer.hpp"

#include <stdexcept>

#include "json_read.hpp"

namespace ws {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxCount = 1000000000000;  // no run reports a trillion findings
constexpr std::size_t kMaxText = 1000;             // sanitizer_parse.py keeps lines to 300 characters

const char* const kTools[] = {"memcheck", "racecheck", "synccheck"};

std::string text_field(const json& j, const char* key, const std::string& what) {
  if (!j.contains(key) || j.at(key).is_null()) return "";
  std::string s = json_string(j.at(key), what + ": field '" + key + "'");
  if (s.size() > kMaxText)
    throw std::runtime_error(what + ": field '" + key + "' holds " + std::to_string(s.size()) +
                             " characters, more than " + std::to_string(kMaxText));
  return s;
}

std::int64_t count_field(const json& j, const char* key, const std::string& what) {
  if (!j.contains(key) || j.at(key).is_null()) return 0;
  return json_int(j.at(key), 0, kMaxCount, what + ": field '" + key + "'");
}

void only_keys(const json& j, std::initializer_list<const char*> keys, const std::string& what) {
  for (const auto& [k, v] : j.items()) {
    bool known = false;
    for (const char* name : keys) known = known || k == name;
    if (!known) throw std::runtime_error(what + ": unknown field '" + k + "'");
  }
}

json tool_to_json(const SanitizerToolVerdict& t, bool racecheck) {
  json j = {{"ran", t.ran}, {"exit", t.exit_code}, {"errors", t.errors}, {"first", t.first}, {"note", t.note}};
  if (racecheck) {
    j["warnings"] = t.warnings;
    j["hazards"] = {{"RAW", t.raw}, {"WAR", t.war}, {"WAW", t.waw}};
    j["hazards_total"] = t.hazards_total;
  }
  return j;
}

SanitizerToolVerdict tool_from_json(const json& j, bool racecheck, const std::string& what) {
  if (!j.is_object()) throw std::runtime_error(what + ": must be an object (got " + std::string(j.type_name()) + ")");
  if (racecheck)
    only_keys(j, {"ran", "exit", "errors", "first", "note", "warnings", "hazards", "hazards_total"}, what);
  else
    only_keys(j, {"ran", "exit", "errors", "first", "note"}, what);
  SanitizerToolVerdict t;
  t.present = true;
  if (!j.contains("ran")) throw std::runtime_error(what + ": missing field 'ran'");
  t.ran = json_bool(j.at("ran"), what + ": field 'ran'");
  t.exit_code =
      j.contains("exit") && !j.at("exit").is_null() ? int(json_int(j.at("exit"), 0, 255, what + ": field 'exit'")) : 0;
  t.errors = count_field(j, "errors", what);
  t.first = text_field(j, "first", what);
  t.note = text_field(j, "note", what);
  if (racecheck) {
    t.warnings = count_field(j, "warnings", what);
    if (j.contains("hazards") && !j.at("hazards").is_null()) {
      const json& h = j.at("hazards");
      const std::string hw = what + ": field 'hazards'";
      if (!h.is_object()) throw std::runtime_error(hw + " must be an object {\"RAW\",\"WAR\",\"WAW\"}");
      only_keys(h, {"RAW", "WAR", "WAW"}, hw + " (hazard types are RAW, WAR and WAW)");
      t.raw = count_field(h, "RAW", hw);
      t.war = count_field(h, "WAR", hw);
      t.waw = count_field(h, "WAW", hw);
    }
    t.hazards_total = count_field(j, "hazards_total", what);
    if (t.hazards_total < t.raw + t.war + t.waw)
      throw std::runtime_error(what + ": hazards_total " + std::to_string(t.hazards_total) + " is below the " +
                               std::to_string(t.raw + t.war + t.waw) + " typed hazards");
  }
  if (!t.ran && t.findings() > 0) throw std::runtime_error(what + ": a tool that did not run cannot report findings");
  return t;
}

std::string plural(std::int64_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

/// One tool in a few words: "memcheck clean", "memcheck: 3 errors", "racecheck: 18 shared-memory
/// hazards (RAW 2, WAW 1)", "synccheck did not run".
std::string tool_text(const char* name, const SanitizerToolVerdict& t) {
  const std::string n = name;
  if (!t.ran) return n + " did not run";
  if (t.findings() == 0) return n + " clean";
  if (n != "racecheck") return n + ": " + plural(t.errors, "error");
  std::string types;
  for (auto [count, label] : {std::pair{t.raw, "RAW"}, {t.war, "WAR"}, {t.waw, "WAW"}})
    if (count > 0) types += (types.empty() ? "" : ", ") + std::string(label) + " " + std::to_string(count);
  if (t.hazards_total > 0)
    return "racecheck: " + plural(t.hazards_total, "shared-memory hazard") + (types.empty() ? "" : " (" + types + ")");
  return "racecheck: " + plural(t.errors, "error") + ", " + plural(t.warnings, "warning");
}

}  // namespace

const std::vector<SanitizerToolInfo>& sanitizer_tools() {
  static const std::vector<SanitizerToolInfo> tools = {
      {"memcheck", "out-of-bounds and misaligned accesses to global, local and shared memory, and CUDA API errors",
       "races and missing barriers: an access inside the buffer is fine to it whoever else touches the word"},
      {"racecheck", "shared-memory hazards: two threads touching one shared word, one writing, with no barrier between",
       "global memory: a read-modify-write race on a global word (epita.race, cs121.race) passes it clean"},
      {"synccheck", "barrier misuse: __syncthreads reached by part of a block, bad __syncwarp masks",
       "a barrier that is missing altogether (that is racecheck's hazard) and races on global memory"},
  };
  return tools;
}

json sanitizer_to_json(const SanitizerVerdict& v) {
  json j = {{"n", v.n}, {"args", v.args}, {"check", v.check}, {"tool_version", v.tool_version}, {"device", v.device}};
  const SanitizerToolVerdict* tools[] = {&v.memcheck, &v.racecheck, &v.synccheck};
  for (int i = 0; i < 3; ++i)
    if (tools[i]->present) j[kTools[i]] = tool_to_json(*tools[i], i == 1);
  return j;
}

SanitizerVerdict sanitizer_from_json(const json& j) {
  const std::string what = "run sanitizer";
  if (!j.is_object()) throw std::runtime_error(what + ": must be an object (got " + std::string(j.type_name()) + ")");
  only_keys(j, {"n", "args", "check", "tool_version", "device", "memcheck", "racecheck", "synccheck"}, what);
  SanitizerVerdict v;
  v.present = true;
  if (!j.contains("n")) throw std::runtime_error(what + ": missing field 'n'");
  v.n = json_int(j.at("n"), 0, kMaxCount, what + ": field 'n'");
  v.args = text_field(j, "args", what);
  v.check = text_field(j, "check", what);
  v.tool_version = text_field(j, "tool_version", what);
  v.device = text_field(j, "device", what);
  SanitizerToolVerdict* tools[] = {&v.memcheck, &v.racecheck, &v.synccheck};
  for (int i = 0; i < 3; ++i)
    if (j.contains(kTools[i]) && !j.at(kTools[i]).is_null())
      *tools[i] = tool_from_json(j.at(kTools[i]), i == 1, what + " " + kTools[i]);
  if (!v.memcheck.present && !v.racecheck.present && !v.synccheck.present)
    throw std::runtime_error(what + ": holds none of memcheck, racecheck, synccheck");
  return v;
}

std::string format_sanitizer(const SanitizerVerdict& v, bool racy) {
  if (!v.present) return "";
  const SanitizerToolVerdict* tools[] = {&v.memcheck, &v.racecheck, &v.synccheck};
  bool all_clean = true;
  for (const SanitizerToolVerdict* t : tools) all_clean = all_clean && (!t->present || (t->ran && t->findings() == 0));
  // A racy variant the tools pass: its race is one they cannot see (a global word), not an absent race.
  if (all_clean) return racy ? "sanitizer: nothing found (racecheck sees shared memory only)" : "sanitizer: clean";
  // Findings first (the racecheck hazards beside a race), then the tools that did not run, then the
  // clean ones, each group named together.
  std::string out, not_run, clean;
  int present = 0, missing = 0;
  for (int i = 0; i < 3; ++i) {
    const SanitizerToolVerdict& t = *tools[i];
    if (!t.present) continue;
    ++present;
    if (t.ran && t.findings() > 0)
      out += (out.empty() ? "" : " \u00b7 ") + tool_text(kTools[i], t);
    else if (!t.ran)
      not_run += (not_run.empty() ? "" : ", ") + std::string(kTools[i]), ++missing;
    else
      clean += (clean.empty() ? "" : ", ") + std::string(kTools[i]);
  }
  if (missing == present) return "sanitizer: did not run";
  if (!not_run.empty()) out += (out.empty() ? "" : " \u00b7 ") + not_run + " did not run";
  if (!clean.empty()) out += " \u00b7 " + clean + " clean";
  return out;
}

std::string sanitizer_tooltip(const SanitizerVerdict& v) {
  if (!v.present) return "";
  std::string out = "compute-sanitizer";
  if (!v.tool_version.empty()) out += " " + v.tool_version;
  out += " at " + (v.args.empty() ? "n = " + std::to_string(v.n) : v.args);
  if (!v.device.empty()) out += " on " + v.device;
  out += " (one launch per kernel)";
  if (!v.check.empty()) out += "\nthe run's own check under memcheck: " + v.check;
  const SanitizerToolVerdict* tools[] = {&v.memcheck, &v.racecheck, &v.synccheck};
  for (int i = 0; i < 3; ++i) {
    const SanitizerToolInfo& info = sanitizer_tools()[std::size_t(i)];
    const SanitizerToolVerdict& t = *tools[i];
    out += "\n\n" + (t.present ? tool_text(info.name, t) : std::string(info.name) + ": not run");
    if (i == 1 && t.ran && t.findings() > 0) {
      out += "\n  reports: " + plural(t.errors, "error") + ", " + plural(t.warnings, "warning");
      const std::int64_t typed = t.raw + t.war + t.waw;
      if (typed > 0 && typed < t.hazards_total)
        out += "; the types are those of the " + plural(typed, "hazard report") +
               " printed, the count is the analysis total";
    }
    if (!t.first.empty()) out += "\n  first: " + t.first;
    if (!t.note.empty()) out += "\n  " + t.note;
    out += "\n  sees: " + std::string(info.sees) + "\n  cannot see: " + info.blind_to;
  }
  return out;
}

}  // namespace ws
