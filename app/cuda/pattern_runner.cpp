#include "pattern_runner.hpp"

#include <unordered_map>

namespace ws::cuda {

// Every pattern's runners: the tables of patterns/run_<pattern>.cpp, listed by a file CMake generates
// from those file names (build-*/app/cuda/generated/pattern_runs.cpp).
std::vector<PatternRunEntry> all_pattern_runs();

PatternRun find_pattern_run(const std::string& pattern) {
  static const std::unordered_map<std::string, PatternRun> table = [] {
    std::unordered_map<std::string, PatternRun> t;
    for (const PatternRunEntry& e : all_pattern_runs()) t[e.pattern] = e.run;
    return t;
  }();
  auto it = table.find(pattern);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace ws::cuda
