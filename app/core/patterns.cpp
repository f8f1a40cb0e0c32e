#include "patterns.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

#include "file_write.hpp"
#include "parallel.hpp"

namespace ws {

// Every built-in spec (app/core/patterns/<pattern>/pattern_<pattern>.cpp: <pattern>_pattern()), listed by
// a file CMake generates from those file names (build-*/app/core/generated/pattern_specs.cpp).
std::vector<PatternSpec> built_in_patterns();

namespace {
// Patterns registered by register_pattern(), read once when the tables are built.
struct Registered {
  std::vector<PatternSpec> specs;
  std::vector<VariantInfo> variants;
  bool sealed = false;  // a table was built: later registrations would not be seen
};
Registered& registered() {
  static Registered r;
  return r;
}
}  // namespace

// registry.cpp appends these to all_variants() when it builds the table.
std::vector<VariantInfo> registered_variants() {
  registered().sealed = true;
  return registered().variants;
}

const std::vector<PatternSpec>& all_patterns() {
  static const std::vector<PatternSpec> specs = [] {
    std::vector<PatternSpec> s = built_in_patterns();
    registered().sealed = true;
    s.insert(s.end(), registered().specs.begin(), registered().specs.end());
    // Teaching order is PatternKind's order; two specs of one kind would make find_pattern ambiguous.
    std::stable_sort(s.begin(), s.end(), [](const PatternSpec& a, const PatternSpec& b) { return a.kind < b.kind; });
    for (std::size_t i = 1; i < s.size(); ++i)
      if (s[i].kind == s[i - 1].kind)
        throw std::logic_error("two pattern specs are of kind '" + std::string(to_string(s[i].kind)) + "'");
    return s;
  }();
  return specs;
}

void register_pattern(const PatternSpec& spec, const std::vector<VariantInfo>& variants) {
  Registered& r = registered();
  const std::string name = to_string(spec.kind);
  if (r.sealed) throw std::logic_error("register_pattern(" + name + ") after the tables were built");
  for (const PatternSpec& s : r.specs)
    if (s.kind == spec.kind) throw std::logic_error("pattern '" + name + "' is taken");
  for (const VariantInfo& v : variants)
    if (v.pattern != spec.kind) throw std::logic_error(v.id + ": its pattern is not " + name);
  r.specs.push_back(spec);
  r.variants.insert(r.variants.end(), variants.begin(), variants.end());
}

const PatternSpec* find_pattern(PatternKind pattern) {
  for (const auto& s : all_patterns())
    if (pattern == s.kind) return &s;
  return nullptr;
}

const PatternSpec& pattern_of(const VariantInfo& v) {
  if (const PatternSpec* s = find_pattern(v.pattern)) return *s;
  throw std::logic_error(v.id + ": its pattern '" + to_string(v.pattern) + "' is not registered");
}

PatternParams params_as_run(const VariantInfo& v, const PatternParams& p) {
  PatternParams out = p;
  if (const PatternSpec& spec = pattern_of(v); spec.resolve_params) spec.resolve_params(v, out);
  return out;
}

std::string option_refusal(const VariantInfo& v, const PatternParams& p) {
  if (!p.exclusive || (pattern_of(v).options & kOptionExclusive)) return "";
  std::string owners;
  for (const auto& s : all_patterns())
    if (s.options & kOptionExclusive) owners += (owners.empty() ? "" : ", ") + std::string(s.noun);
  return "--exclusive applies to " + owners + " only (" + v.id + " is a " + to_string(v.pattern) + ")";
}

namespace {
std::string index_text(const ArrayOutput& a, std::size_t i) {
  if (a.rows > 0 && a.cols > 0)
    return "[" + std::to_string(std::int64_t(i) / a.cols) + "][" + std::to_string(std::int64_t(i) % a.cols) + "]";
  return "[" + std::to_string(i) + "]";
}
std::string text(DType type, double v) {
  if (type == DType::Int32) return format_value(type, v);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}
}  // namespace

std::string compare_outputs(DType type, const ArrayOutput& got, const ArrayOutput& want, ConstSpan<double> scale,
                            double rel_tol, double abs_tol) {
  if (got.values.size() != want.values.size())
    return "output has " + std::to_string(got.values.size()) + " elements, expected " +
           std::to_string(want.values.size());
  if (got.rows != want.rows || (want.rows > 0 && got.cols != want.cols))
    return "output is " + std::to_string(got.rows) + " x " + std::to_string(got.cols) + ", expected " +
           std::to_string(want.rows) + " x " + std::to_string(want.cols);
  const double* gv = got.values.data();
  const double* wv = want.values.data();
  const bool exact = type == DType::Int32;
  // The first mismatch, found on the host threads (parallel.hpp): the same answer for any thread count.
  const std::int64_t bad = parallel_find_first(std::int64_t(want.values.size()), [&](std::int64_t k) {
    const std::size_t i = std::size_t(k);
    const double g = gv[i], w = wv[i];
    if (exact) return !(g == w);
    const double s = i < scale.size() ? scale[i] : std::fabs(w);
    return !(std::isfinite(g) && std::fabs(g - w) <= rel_tol * s + abs_tol);
  });
  if (bad < 0) return "";
  const std::size_t i = std::size_t(bad);
  return "out" + index_text(want, i) + " = " + text(type, gv[i]) + ", expected " + text(type, wv[i]);
}

std::string write_output_text(const RunResult& r, const std::string& path) {
  const std::int64_t cols = r.output_rows > 0 ? std::max<std::int64_t>(1, r.output_cols) : 1;
  const std::string err = write_file_atomic(path, [&](std::FILE* f) {
    for (std::size_t i = 0; i < r.output.size(); ++i) {
      const std::string v = text(r.type, r.output[i]);
      std::fputs(v.c_str(), f);
      std::fputc((std::int64_t(i) + 1) % cols == 0 ? '\n' : ' ', f);
    }
    return !std::ferror(f);
  });
  return err.empty() ? "" : "--output: " + err;
}

void check_run(const PatternSpec& spec, const VariantInfo& v, const PatternParams& params, const Input& in,
               const ArrayOutput& want, const DeviceInfo* device, RunResult& r) {
  ArrayOutput got;
  if (spec.scalar_result) {
    got.values = {r.result};
  } else {
    got.values = std::move(r.output);
    got.rows = r.output_rows;
    got.cols = r.output_cols;
  }
  auto compare = [&](const ArrayOutput& a, const ArrayOutput& b) {
    return spec.compare ? spec.compare(v, params, in, a, b) : compare_outputs(r.type, a, b);
  };
  std::string mismatch;
  try {
    mismatch = compare(got, want);
  } catch (...) {
    if (!spec.scalar_result) r.output = std::move(got.values);
    throw;
  }
  auto summary = [&](const ArrayOutput& a) {
    if (spec.summary) return spec.summary(v, a);
    return a.values.empty() ? 0.0 : a.values.back();
  };
  r.result = summary(got);
  r.expected = summary(want);
  // Cautionary variants: a wrong answer that equals what the slide's code computes is the slide's bug.
  bool slide_bug = false;
  double slide_value = 0;
  if (!mismatch.empty() && v.slide_model) {
    ArrayOutput model;
    model.values = {v.slide_model(in, r.launch)};
    slide_value = model.values[0];
    slide_bug = compare(got, model).empty();
  }
  if (!spec.scalar_result) r.output = std::move(got.values);
  if (r.timed && r.timing.median_ms > 0) {
    r.gbps = r.bytes / (r.timing.median_ms * 1e6);
    if (device && !v.cpu_only) {
      r.pct_theoretical = device->theoretical_gbps > 0 ? 100.0 * r.gbps / device->theoretical_gbps : 0;
      r.pct_copy = device->copy_gbps > 0 ? 100.0 * r.gbps / device->copy_gbps : 0;
    }
  }
  classify(r, mismatch, spec.scalar_result, slide_bug, slide_value);
}

}  // namespace ws
