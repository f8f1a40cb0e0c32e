// The reduction pattern's spec (docs/patterns.md): one value per run, checked against the CPU reference
// with the float tolerance of reference.hpp; bytes for GB/s are the n elements read. Seeds 000-004.
// The pattern's place in teaching order (PatternKind, all_patterns()), which app/core/CMakeLists.txt
// reads to generate PatternKind: smaller first.
// WS_PATTERN_ORDER 10
#include <chrono>
#include <cstdint>
#include <numeric>

#include "patterns.hpp"
#include "patterns/reduction/reference.hpp"
#include "sim/sim.hpp"

namespace ws {

namespace {

std::string validate(const VariantInfo& v, const RunRequest& req) {
  if (!req.params.output_path.empty())
    return "--output writes an output array; " + v.id + " is a reduction (its result is one value: use --json)";
  return "";
}

ArrayOutput reference(const VariantInfo& v, const PatternParams&, const Input& in) {
  ArrayOutput out;
  out.values = {cpu_reference(v.op, in)};
  return out;
}

/// results_match's tolerance (int32 exact; float32 relative to sum |x|), as "expected 5, got 4".
std::string compare(const VariantInfo&, const PatternParams&, const Input& in, const ArrayOutput& got,
                    const ArrayOutput& want) {
  const double g = got.values.empty() ? 0.0 : got.values[0], w = want.values.empty() ? 0.0 : want.values[0];
  if (got.values.size() == 1 && results_match(in.type, g, w, in)) return "";
  return "expected " + format_value(in.type, w) + ", got " + format_value(in.type, g);
}

/// A reduction reads its n elements once; the one value it writes is left out.
double bytes(const VariantInfo&, const PatternParams&, const Input& in) {
  return double(in.n()) * double(dtype_size(in.type));
}

double summary(const VariantInfo&, const ArrayOutput& out) { return out.values.empty() ? 0.0 : out.values[0]; }

/// amp.sequential: std::accumulate ("Parallel Reduction using C++ AMP", MSDN, "sequential_reduction"). int32 wraps
/// modulo 2^32 like the GPU's 32-bit adds; float32 is accumulated in double, so the lesson's CPU
/// baseline is the reference itself.
void run_cpu(const VariantInfo&, const PatternParams&, const Input& in, ArrayOutput& out) {
  double s = 0;
  if (in.type == DType::Int32) {
    const std::uint32_t u = std::accumulate(in.i32.begin(), in.i32.end(), std::uint32_t(0),
                                            [](std::uint32_t a, std::int32_t x) { return a + std::uint32_t(x); });
    s = double(std::int32_t(u));
  } else {
    s = std::accumulate(in.f32.begin(), in.f32.end(), 0.0);
  }
  out.values.assign(1, s);
}

/// n - 1 adds (or maxes): a sum of n numbers, however the tree is shaped.
double operations(const VariantInfo&, const PatternParams&, std::int64_t n) { return n > 0 ? double(n - 1) : 0.0; }

}  // namespace

PatternSpec reduction_pattern() {
  PatternSpec p;
  p.kind = PatternKind::Reduction;
  p.noun = "reductions";
  p.scalar_result = true;
  p.swept_by_default = true;
  p.validate = validate;
  p.reference = reference;
  p.compare = compare;
  p.bytes = bytes;
  p.summary = summary;
  p.run_cpu = run_cpu;
  p.operations = operations;
  p.sim_models = sim::reduction_models;
  return p;
}

}  // namespace ws
