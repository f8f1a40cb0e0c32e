#include "pattern_runner.hpp"

#include <unordered_map>

namespace ws::cuda {

// Per-pattern tables (patterns/run_<pattern>.cpp). A new runner is declared and listed here, nowhere else.
std::vector<PatternRunEntry> reduction_pattern_runs();
std::vector<PatternRunEntry> scan_pattern_runs();
std::vector<PatternRunEntry> convolution_pattern_runs();
std::vector<PatternRunEntry> atomics_pattern_runs();

PatternRun find_pattern_run(const std::string& pattern) {
  static const std::unordered_map<std::string, PatternRun> table = [] {
    std::unordered_map<std::string, PatternRun> t;
    for (const auto& part : {reduction_pattern_runs(), scan_pattern_runs(), convolution_pattern_runs(), atomics_pattern_runs()})
      for (const auto& e : part) t[e.pattern] = e.run;
    return t;
  }();
  auto it = table.find(pattern);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace ws::cuda
