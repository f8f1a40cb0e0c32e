#include "pattern_runner.hpp"

namespace ws::cuda {

// Every pattern's runners: the tables of patterns/run_<pattern>.cpp, listed by a file CMake generates
// from those file names (build-*/app/cuda/generated/pattern_runs.cpp).
std::vector<PatternRunEntry> all_pattern_runs();

PatternRun find_pattern_run(PatternKind pattern) {
  static const std::vector<PatternRunEntry> table = all_pattern_runs();
  for (const PatternRunEntry& e : table)
    if (e.pattern == pattern) return e.run;
  return nullptr;
}

}  // namespace ws::cuda
