// A pattern (reduction, scan, convolution, atomics) as core sees it: one PatternSpec with its options,
// CPU reference, check, bytes moved for GB/s, sim models and sweep rules. Each pattern registers its
// spec once, in its own file (pattern_<pattern>.cpp); docs/patterns.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "backend.hpp"
#include "inputs.hpp"
#include "run_types.hpp"
#include "variant.hpp"

namespace ws {

namespace sim {
struct ModelEntry;
}

/// A whole output array, row-major; rows = 0 means 1D (cols = values.size()).
struct ArrayOutput {
  HostVector<double> values;
  std::int64_t rows = 0, cols = 0;
};

/// The PatternParams options a pattern reads (PatternSpec::options); the others are refused for it.
enum PatternOption : unsigned {
  kOptionExclusive = 1u << 0,  ///< --exclusive (scans)
  kOptionImage = 1u << 1,      ///< --mask-width, --tile, --width, --height, --mask (convolutions)
  kOptionKeep = 1u << 2,       ///< --keep (the atomics lesson's filters)
};

/// One pattern. `kind`, `noun` and `reference` are required; every other hook has a default.
struct PatternSpec {
  PatternKind kind = PatternKind::Reduction;  ///< VariantInfo::pattern of its variants; its name is to_string(kind)
  const char* noun = "";                      ///< the plural people say, for messages: "scans"
  unsigned options = 0;                       ///< PatternOption bits: the pattern options it reads
  /// True when a run's answer is one value (RunResult::result; no output array, --output refused).
  bool scalar_result = false;
  /// True when `sweep --variants all` sweeps this pattern's variants (the reductions).
  bool swept_by_default = false;
  /// Checks the request's params for this variant before the input is made: "" or one line.
  std::string (*validate)(const VariantInfo& v, const RunRequest& req) = nullptr;
  /// The CPU reference of the whole output (a scalar pattern: one value).
  ArrayOutput (*reference)(const VariantInfo& v, const PatternParams& p, const Input& in) = nullptr;
  /// "" when `got` equals `want` within the pattern's tolerance, else the first mismatch as
  /// "out[17] = 5, expected 6". nullptr: compare_outputs() with the default float tolerance.
  std::string (*compare)(const VariantInfo& v, const PatternParams& p, const Input& in, const ArrayOutput& got,
                         const ArrayOutput& want) = nullptr;
  /// Bytes a run must read + write at least (for GB/s). nullptr: n elements read + n written.
  double (*bytes)(const VariantInfo& v, const PatternParams& p, const Input& in) = nullptr;
  /// The scalar shown as result/expected (a scan's total, a histogram's count). nullptr: the last
  /// element, 0 if empty.
  double (*summary)(const VariantInfo& v, const ArrayOutput& out) = nullptr;
  /// Patterns whose input is not n numbers from make_input/read_input_file (convolution: 2D images,
  /// PNG/JPEG): builds the whole input from req (input kind, seed, params); n becomes its size.
  /// "" or one line. nullptr: n numbers.
  std::string (*build_input)(const VariantInfo& v, const RunRequest& req, Input& out) = nullptr;
  /// Generated inputs ("random", "ones", "sequence") of this pattern: "" or one line. nullptr: make_input().
  /// (Atomics: filters' random inputs keep the fraction --keep of their values.)
  std::string (*make_input)(const VariantInfo& v, const RunRequest& req, std::int64_t n, DType type,
                            Input& out) = nullptr;
  /// cpu_only variants of the pattern: computes the output on the host (timed by the caller).
  void (*run_cpu)(const VariantInfo& v, const PatternParams& p, const Input& in, ArrayOutput& out) = nullptr;
  /// Why a size sweep (n = 2^a .. 2^b) cannot take this variant, or "" (nullptr: every variant can).
  std::string (*sweep_refusal)(const VariantInfo& v) = nullptr;
  /// Operations the problem needs for n elements, whatever the variant does (the roofline's work,
  /// roofline.hpp): reduction n - 1 adds (or maxes), scan n - 1 adds, convolution one multiply-add
  /// per output and mask tap, atomics one increment or comparison per element. nullptr: none.
  double (*operations)(const VariantInfo& v, const PatternParams& p, std::int64_t n) = nullptr;
  /// The thread-level CPU models of the pattern's variants (sim/sim.hpp), keyed by variant id.
  std::vector<sim::ModelEntry> (*sim_models)() = nullptr;
  /// Sets the params an input decides as the run uses them (a convolution's mask file gives its width,
  /// whatever --mask-width says). nullptr: the params are used as given.
  void (*resolve_params)(const VariantInfo& v, PatternParams& p) = nullptr;
  /// Whether a run's output holds one element per input element, for the memory estimates (limits.hpp):
  /// the atomics' filters do (they keep up to n), their counter and histograms do not (a count, 256 bins).
  /// nullptr: every variant of a pattern without scalar_result does.
  bool (*array_output)(const VariantInfo& v) = nullptr;
  /// What tells this pattern's generated inputs apart besides n, the input kind and the seed, for runs
  /// that share one input (sweep.hpp's input_share_key): "" when they are plain numbers of the requested
  /// type (e.g. "filter 0.5" for a filter's random input, "conv2d|640x480"). nullptr: "".
  std::string (*input_key)(const VariantInfo& v, const RunRequest& req) = nullptr;
  /// The element type of the variant's input when a request asks for `requested` (convolutions read
  /// float32 whatever --type says). nullptr: `requested`.
  DType (*input_type)(const VariantInfo& v, DType requested) = nullptr;
};

/// Every pattern, in teaching order (PatternKind's): reduction, scan, convolution, atomics.
const std::vector<PatternSpec>& all_patterns();

/// Adds a pattern and its variants after the built-in ones, for a test's fixture pattern (a pattern
/// family checked end to end without a kernel). Must run before the first lookup of a pattern or a
/// variant (all_patterns, all_variants, find_*): the tables are built once. Throws std::logic_error
/// when they are built already, when the kind or a variant id is taken, or when a variant is of another kind.
void register_pattern(const PatternSpec& spec, const std::vector<VariantInfo>& variants);

/// The spec of `pattern`, or nullptr when none is registered (Fixture outside its test).
const PatternSpec* find_pattern(PatternKind pattern);

/// The spec of a registered variant's pattern (every variant's pattern is registered; tests check it).
const PatternSpec& pattern_of(const VariantInfo& v);

/// `p` as a run of `v` uses it (PatternSpec::resolve_params): what a run records and what its operation
/// count is computed from.
PatternParams params_as_run(const VariantInfo& v, const PatternParams& p);

/// "" unless `p` sets an option the variant's pattern does not read that a request can tell apart from
/// its default (--exclusive): "--exclusive applies to scans only (epita.reduce3 is a reduction)".
std::string option_refusal(const VariantInfo& v, const PatternParams& p);

/// Checks a finished run against the reference `want` and fills result/expected (the summary values
/// for array patterns), correct, status and message (classify). GB/s from r.bytes and the timing;
/// `device` gives the % of theoretical and of copy bandwidth (nullptr: not computed). The output is
/// lent to the check, not copied (2^28 doubles are 2 GiB). Throws what the pattern's compare throws.
void check_run(const PatternSpec& spec, const VariantInfo& v, const PatternParams& params, const Input& in,
               const ArrayOutput& want, const DeviceInfo* device, RunResult& r);

/// Element-wise check. int32: bit-exact. float32: |got - want| <= rel_tol * scale[i] + abs_tol, where
/// scale[i] is given per element (e.g. the prefix sum of |x| for a scan) or |want[i]| when `scale` is
/// empty. Returns "" or the first mismatch ("out[17] = 5, expected 6"; 2D: "out[3][4] = ..."), or a
/// shape mismatch ("output has 5 elements, expected 6").
std::string compare_outputs(DType type, const ArrayOutput& got, const ArrayOutput& want,
                            ConstSpan<double> scale = ConstSpan<double>(nullptr, 0), double rel_tol = 1e-5,
                            double abs_tol = 1e-6);

/// Writes the output as text: one value per line (1D) or one row per line, values separated by one
/// space (2D); int32 without decimals, float32 with 9 significant digits. Returns "" or one line
/// naming the path and the reason.
std::string write_output_text(const RunResult& r, const std::string& path);

}  // namespace ws
