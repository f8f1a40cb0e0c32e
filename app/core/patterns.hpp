// The array patterns (scan, convolution, atomics) as core sees them: per-pattern hooks for validation,
// the CPU reference, the element-wise check, the bytes a run must move, and CPU-only variants.
// Each pattern registers one table in its own file (pattern_<pattern>.cpp); docs/patterns.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "run_types.hpp"
#include "variant.hpp"

namespace ws {

/// A whole output array, row-major; rows = 0 means 1D (cols = values.size()).
struct ArrayOutput {
  HostVector<double> values;
  std::int64_t rows = 0, cols = 0;
};

/// What core needs from one array pattern. Only `pattern` and `reference` are required.
struct PatternHooks {
  const char* pattern = "";  ///< VariantInfo::pattern, e.g. "scan"
  /// Checks the request's params for this variant before the input is made: "" or one line.
  std::string (*validate)(const VariantInfo& v, const RunRequest& req) = nullptr;
  /// The CPU reference of the whole output (reference_<pattern>.cpp).
  ArrayOutput (*reference)(const VariantInfo& v, const PatternParams& p, const Input& in) = nullptr;
  /// "" when `got` equals `want` within the pattern's tolerance, else the first mismatch as
  /// "out[17] = 5, expected 6". nullptr: compare_outputs() with the default float tolerance.
  std::string (*compare)(const VariantInfo& v, const PatternParams& p, const Input& in, const ArrayOutput& got,
                         const ArrayOutput& want) = nullptr;
  /// Bytes a run must read + write at least (for GB/s). nullptr: n elements read + n written.
  double (*bytes)(const VariantInfo& v, const PatternParams& p, const Input& in) = nullptr;
  /// The scalar shown as result/expected. nullptr: the last element (a scan's total), 0 if empty.
  double (*summary)(const ArrayOutput& out) = nullptr;
  /// Patterns whose input is not n numbers from make_input/read_input_file (convolution: 2D images,
  /// PNG/JPEG): builds the whole input from req (input kind, seed, params); n becomes its size.
  /// "" or one line. nullptr: the reductions' inputs.
  std::string (*build_input)(const VariantInfo& v, const RunRequest& req, Input& out) = nullptr;
  /// Like `summary`, for patterns whose summary depends on the variant (atomics: a counter's value, a
  /// histogram's total, a filter's count). Used instead of `summary` when set.
  double (*variant_summary)(const VariantInfo& v, const ArrayOutput& out) = nullptr;
  /// Generated inputs ("random", "ones", "sequence") of this pattern: "" or one line. nullptr: make_input().
  /// (Atomics: filters' random inputs keep the fraction --keep of their values.)
  std::string (*make_input)(const VariantInfo& v, const RunRequest& req, std::int64_t n, DType type, Input& out) = nullptr;
  /// cpu_only variants of the pattern: computes the output on the host (timed by the caller).
  void (*run_cpu)(const VariantInfo& v, const PatternParams& p, const Input& in, ArrayOutput& out) = nullptr;
};

/// The hooks of `pattern`, or nullptr (also for "reduction", which core handles itself).
const PatternHooks* find_pattern_hooks(const std::string& pattern);

/// Per-pattern tables (app/core/pattern_<pattern>.cpp), each usually one entry.
std::vector<PatternHooks> scan_pattern_hooks();
std::vector<PatternHooks> convolution_pattern_hooks();
std::vector<PatternHooks> atomics_pattern_hooks();

/// Element-wise check. int32: bit-exact. float32: |got - want| <= rel_tol * scale[i] + abs_tol, where
/// scale[i] is given per element (e.g. the prefix sum of |x| for a scan) or |want[i]| when `scale` is
/// empty. Returns "" or the first mismatch ("out[17] = 5, expected 6"; 2D: "out[3][4] = ..."), or a
/// shape mismatch ("output has 5 elements, expected 6").
std::string compare_outputs(DType type, const ArrayOutput& got, const ArrayOutput& want,
                            ConstSpan<double> scale = ConstSpan<double>(nullptr, 0), double rel_tol = 1e-5, double abs_tol = 1e-6);

/// Writes the output as text: one value per line (1D) or one row per line, values separated by one
/// space (2D); int32 without decimals, float32 with 9 significant digits. Returns "" or one line
/// naming the path and the reason.
std::string write_output_text(const RunResult& r, const std::string& path);

/// Sets correct/status/message of an array run from the element-wise check: "ok"; "race" for racy
/// variants (message "race: " + mismatch); otherwise "wrong" with the mismatch as message.
void classify_array(RunResult& r, const std::string& mismatch);

}  // namespace ws
