// The outcome of one run (RunResult::status): an enum inside warpscope, its name in report JSON and the
// worker protocol.
#pragma once
#include <iosfwd>
#include <string>

namespace ws {

/// What became of a run. Unchecked: nothing filled it yet (a default RunResult; its name is "").
enum class RunStatus {
  Unchecked,  ///< ""
  Ran,        ///< "done": a backend ran it; core checks it against the reference next (check_run)
  Ok,         ///< "ok": the answer equals the reference
  Wrong,      ///< "wrong": a defect
  Race,       ///< "race": a racy variant lost updates (the lesson)
  SlideBug,   ///< "slide-bug": a cautionary variant reproduced its slide's bug
  Error,      ///< "error": nothing ran (see the message)
  Faulted,    ///< "faulted": the run broke its CUDA context (it cost its worker process)
  Skipped,    ///< "skipped": the variant cannot take this size, launch or type (not a failure); the last value
};

/// The name reports and the worker protocol use: "ok", "slide-bug", ... ("" for Unchecked).
const char* to_string(RunStatus s);
/// Parses a name written by to_string (every value, "" included); false on anything else.
bool parse_run_status(const std::string& s, RunStatus& out);
/// True for the statuses whose run computed the answer the lesson expects to see: ok, race, slide-bug.
inline bool ran_as_taught(RunStatus s) {
  return s == RunStatus::Ok || s == RunStatus::Race || s == RunStatus::SlideBug;
}
/// True for the statuses that count as failures: wrong, error, faulted.
inline bool is_failure(RunStatus s) {
  return s == RunStatus::Wrong || s == RunStatus::Error || s == RunStatus::Faulted;
}
/// Writes to_string(s) (test messages).
std::ostream& operator<<(std::ostream& o, RunStatus s);

}  // namespace ws
