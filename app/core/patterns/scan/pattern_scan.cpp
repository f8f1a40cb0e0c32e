// The scan pattern's spec: CPU reference, tolerance, bytes, and the sequential CPU variant.
// The pattern's place in teaching order (PatternKind, all_patterns()), which app/core/CMakeLists.txt
// reads to generate PatternKind: smaller first.
// WS_PATTERN_ORDER 20
#include <cmath>

#include "parallel.hpp"
#include "patterns.hpp"
#include "patterns/scan/reference.hpp"
#include "sim/sim.hpp"

namespace ws {

namespace {

ArrayOutput reference(const VariantInfo&, const PatternParams& p, const Input& in) {
  return reference_scan(in, p.exclusive);
}

/// float32: any association order of n float adds stays within about n * 2^-24 of the exact prefix
/// relative to the prefix sum of |x|; tree scans do far better (log n), so 2^-24 * (2 sqrt(i+1) + 8)
/// per element catches a wrong add (an error of a whole element) without flagging rounding.
std::string compare(const VariantInfo&, const PatternParams& p, const Input& in, const ArrayOutput& got,
                    const ArrayOutput& want) {
  if (in.type == DType::Int32) return compare_outputs(in.type, got, want);
  HostVector<double> scale = scan_abs_prefix(in, p.exclusive);
  parallel_chunks(std::int64_t(scale.size()), 4 * kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
    for (std::int64_t i = b; i < e; ++i) scale[std::size_t(i)] *= (2.0 * std::sqrt(double(i + 1)) + 8.0);
  });
  return compare_outputs(in.type, got, want, scale, std::ldexp(1.0, -24), 1e-6);
}

/// A scan must read n elements and write n.
double bytes(const VariantInfo&, const PatternParams&, const Input& in) {
  return 2.0 * double(in.n()) * double(dtype_size(in.type));
}

void run_cpu(const VariantInfo&, const PatternParams& p, const Input& in, ArrayOutput& out) {
  sequential_scan(in, p.exclusive, out);
}

/// n - 1 adds: the sequential scan's work (seed 001, "Work Efficiency Analysis"); parallel scans do
/// more, which the roofline shows as a lower achieved rate, not as more operations.
double operations(const VariantInfo&, const PatternParams&, std::int64_t n) { return n > 0 ? double(n - 1) : 0.0; }

}  // namespace

PatternSpec scan_pattern() {
  PatternSpec p;
  p.kind = PatternKind::Scan;
  p.noun = "scans";
  p.options = kOptionExclusive;
  p.reference = reference;
  p.compare = compare;
  p.bytes = bytes;
  p.run_cpu = run_cpu;
  p.operations = operations;
  p.sim_models = sim::scan_models;
  return p;
}

}  // namespace ws
