// The atomics pattern's spec (docs/patterns.md): validation, CPU references, the comparison (filters
// whose slots come from atomics are compared as multisets), bytes for GB/s, the summary value, and the
// filters' --keep inputs. "GPUs and CUDA 3: Intrinsics", CS121, Fall 2022; references in reference_atomics.hpp.
// The pattern's place in teaching order (PatternKind, all_patterns()), which app/core/CMakeLists.txt
// reads to generate PatternKind: smaller first.
// WS_PATTERN_ORDER 40
#include <atomic>
#include <cstdio>
#include <string>

#include "parallel.hpp"
#include "patterns.hpp"
#include "patterns/atomics/reference.hpp"
#include "sim/sim.hpp"

namespace ws {

namespace {

std::string validate(const VariantInfo& v, const RunRequest& req) {
  if (v.atomics == AtomicsKind::Counter) {
    if (!is_generated_kind(req.input))
      return v.id +
             " ignores the input values (every thread adds 1): give the number of threads with --n instead of a file";
    const std::int64_t n = req.n ? req.n : v.rules.default_n;
    const int block = req.launch.block ? req.launch.block : v.rules.default_block;
    if (block > 0 && n % block != 0)
      return v.id + " launches n / block blocks of block threads, each adding 1: n = " + std::to_string(n) +
             " is not a multiple of the block (" + std::to_string(block) + ")";
  }
  return "";
}

ArrayOutput reference(const VariantInfo& v, const PatternParams&, const Input& in) {
  ArrayOutput out;
  // prepare_run guarantees the input kind; never throw from here (execute_prepared never throws).
  if ((v.atomics == AtomicsKind::Histogram) != (in.type == DType::UInt8)) return out;
  switch (v.atomics) {
    case AtomicsKind::Counter: out.values = {double(counter_reference(in.n()))}; break;
    case AtomicsKind::Histogram: {
      const auto h = histogram_reference(in);
      out.values.assign(h.begin(), h.end());
      break;
    }
    case AtomicsKind::Filter: {
      const auto f = filter_reference(in);
      out.values.resize(f.size());
      widen_to_double(f.data(), std::int64_t(f.size()), out.values.data());
      break;
    }
    case AtomicsKind::None: break;
  }
  return out;
}

std::string compare(const VariantInfo& v, const PatternParams&, const Input&, const ArrayOutput& got,
                    const ArrayOutput& want) {
  switch (v.atomics) {
    case AtomicsKind::Counter:
      if (got.values.size() == 1 && want.values.size() == 1 && got.values[0] == want.values[0]) return "";
      return "expected " + std::to_string(std::int64_t(want.values.empty() ? 0 : want.values[0])) + ", got " +
             (got.values.empty() ? std::string("nothing") : std::to_string(std::int64_t(got.values[0])));
    case AtomicsKind::Filter:
      if (v.any_order) return compare_multiset(got.values, want.values);
      return compare_exact(got.values, want.values);
    default: return compare_exact(got.values, want.values);
  }
}

double bytes(const VariantInfo& v, const PatternParams&, const Input& in) {
  const AtomicsKind k = v.atomics;
  std::atomic<std::int64_t> kept{0};
  if (k == AtomicsKind::Filter)
    parallel_chunks(std::int64_t(in.i32.size()), 4 * kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
      std::int64_t c = 0;
      for (std::int64_t i = b; i < e; ++i) c += in.i32[std::size_t(i)] > 0;
      kept += c;
    });
  return atomics_bytes(k, in.n(), kept.load());
}

/// The scalar shown as result/expected: the counter's value, a histogram's total count, or the number
/// of values a filter kept.
double summary(const VariantInfo& v, const ArrayOutput& out) {
  switch (v.atomics) {
    case AtomicsKind::Counter: return out.values.empty() ? 0.0 : out.values[0];
    case AtomicsKind::Histogram: {
      double s = 0;
      for (double x : out.values) s += x;
      return s;
    }
    default: return double(out.values.size());
  }
}

std::string sweep_refusal(const VariantInfo& v) {
  if (v.atomics != AtomicsKind::Counter) return "";
  return v.id +
         " counts the threads of a fixed launch (1000 blocks of 1000 on the slide; n a multiple of the block): "
         "there is no n to sweep";
}

std::string make_input_for(const VariantInfo& v, const RunRequest& req, std::int64_t n, DType type, Input& out) {
  if (v.atomics == AtomicsKind::Filter && req.input == "random")
    return make_filter_input(n, req.params.keep_fraction, req.seed, out);
  return make_input(req.input, n, type, req.seed, out);
}

/// One operation per element: a counter's increment, a histogram bin's increment, a filter's comparison.
double operations(const VariantInfo&, const PatternParams&, std::int64_t n) { return double(n); }

/// The filters' output keeps up to n values; the counter's is one count, the histograms' 256 bins.
bool array_output(const VariantInfo& v) {
  return v.atomics != AtomicsKind::Counter && v.atomics != AtomicsKind::Histogram;
}

/// A filter's random input depends on --keep (make_filter_input); every other input is plain numbers.
std::string input_key(const VariantInfo& v, const RunRequest& req) {
  if (v.atomics != AtomicsKind::Filter || req.input != "random") return "";
  char buf[40];
  std::snprintf(buf, sizeof buf, "filter %.17g", req.params.keep_fraction);
  return buf;
}

}  // namespace

PatternSpec atomics_pattern() {
  PatternSpec p;
  p.kind = PatternKind::Atomics;
  p.noun = "atomics";
  p.options = kOptionKeep;
  p.validate = validate;
  p.reference = reference;
  p.compare = compare;
  p.bytes = bytes;
  p.summary = summary;
  p.make_input = make_input_for;
  p.sweep_refusal = sweep_refusal;
  p.operations = operations;
  p.sim_models = sim::atomics_models;
  p.array_output = array_output;
  p.input_key = input_key;
  return p;
}

}  // namespace ws
