#include "patterns.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <unordered_map>

#include "file_write.hpp"
#include "parallel.hpp"
#include "reference.hpp"

namespace ws {

const PatternHooks* find_pattern_hooks(const std::string& pattern) {
  static const std::unordered_map<std::string, PatternHooks> table = [] {
    std::unordered_map<std::string, PatternHooks> t;
    for (const auto& part : {scan_pattern_hooks(), convolution_pattern_hooks(), atomics_pattern_hooks()})
      for (const auto& h : part) t[h.pattern] = h;
    return t;
  }();
  auto it = table.find(pattern);
  return it == table.end() ? nullptr : &it->second;
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
    return "output has " + std::to_string(got.values.size()) + " elements, expected " + std::to_string(want.values.size());
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

void classify_array(RunResult& r, const std::string& mismatch) {
  r.correct = mismatch.empty();
  if (r.correct) {
    r.status = "ok";
    r.message = r.racy ? "race did not show this time: the racy code happened to give the right output" : "";
  } else if (r.racy) {
    r.status = "race";
    r.message = "race: " + mismatch;
  } else {
    r.status = "wrong";
    r.message = "wrong output: " + mismatch;
  }
}

}  // namespace ws
