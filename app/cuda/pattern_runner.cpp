#include "pattern_runner.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace ws::cuda {

// Every pattern's runners: the tables of patterns/run_<pattern>.cpp, listed by a file CMake generates
// from those file names (build-*/app/cuda/generated/pattern_runs.cpp).
std::vector<PatternRunEntry> all_pattern_runs();

namespace {

/// Runners added by register_pattern_run(), read once when the table is built.
struct Registered {
  std::vector<PatternRunEntry> entries;
  bool sealed = false;  // the table was built: later registrations would not be seen
};
Registered& registered() {
  static Registered r;
  return r;
}

const std::vector<PatternRunEntry>& runners() {
  static const std::vector<PatternRunEntry> table = [] {
    std::vector<PatternRunEntry> t = all_pattern_runs();
    registered().sealed = true;
    for (const PatternRunEntry& e : registered().entries) {
      for (const PatternRunEntry& b : t)
        if (b.pattern == e.pattern)
          throw std::logic_error("the " + std::string(to_string(e.pattern)) + " pattern has a CUDA runner already");
      t.push_back(e);
    }
    return t;
  }();
  return table;
}

}  // namespace

void register_pattern_run(const PatternRunEntry& entry) {
  Registered& r = registered();
  const std::string name = to_string(entry.pattern);
  if (r.sealed) throw std::logic_error("register_pattern_run(" + name + ") after the table of runners was built");
  if (!entry.run) throw std::logic_error("register_pattern_run(" + name + "): the entry has no run");
  for (const PatternRunEntry& e : r.entries)
    if (e.pattern == entry.pattern) throw std::logic_error("the " + name + " pattern has a CUDA runner already");
  r.entries.push_back(entry);
}

const PatternRunEntry* find_pattern_runner(PatternKind pattern) {
  for (const PatternRunEntry& e : runners())
    if (e.pattern == pattern) return &e;
  return nullptr;
}

PatternRun find_pattern_run(PatternKind pattern) {
  const PatternRunEntry* e = find_pattern_runner(pattern);
  return e ? e->run : nullptr;
}

bool has_gpu_trace(const VariantInfo& v) {
  const PatternRunEntry* e = find_pattern_runner(v.pattern);
  if (!e || !e->record || !e->traced) return false;
  const std::vector<std::string> ids = e->traced();
  return std::find(ids.begin(), ids.end(), v.id) != ids.end();
}

namespace {

/// Why a variant has no trace build (the reason follows "has no trace build").
std::string no_trace_reason(const VariantInfo& v) {
  if (v.cpu_only) return "host code";
  if (v.baseline) return "library call";
  if (!v.no_gpu_trace.empty()) return v.no_gpu_trace;
  return "its kernels are not instrumented";
}

}  // namespace

TraceRecordResult gpu_trace_refusal(const VariantInfo& v) {
  if (v.racy)
    return TraceRecordResult::failed(
        v.id +
        " is racy: its interleaving changes from run to run, so it is not recorded on the GPU (the sim trace "
        "states the interleaving it models)");
  if (!has_gpu_trace(v))
    return TraceRecordResult::no_trace_build(v.id + " has no trace build (" + no_trace_reason(v) + ")");
  return {};
}

std::vector<std::string> gpu_traced_variant_ids() {
  std::vector<std::string> ids;
  for (const PatternRunEntry& e : runners())
    if (e.record && e.traced)
      for (std::string& id : e.traced()) ids.push_back(std::move(id));
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace ws::cuda
