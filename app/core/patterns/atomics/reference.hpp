// CPU references of the atomics lesson ("GPUs and CUDA 3: Intrinsics", CS121, Fall 2022):
// the race counter, the 256-bin byte histogram and the filter that keeps the positive values, plus
// the comparisons every atomics run is checked with. Pure functions, no state, no CUDA.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "variant.hpp"

namespace ws {

/// Slide "Race conditions": n threads each add 1 to a counter that starts at 0, so the answer is n.
inline std::int64_t counter_reference(std::int64_t threads) { return threads; }

/// Slide "Computing a histogram": counts of each byte value, 256 bins (per-chunk bins on the host threads,
/// added in chunk order). Throws std::invalid_argument
/// unless the input is uint8.
std::vector<std::int64_t> histogram_reference(const Input& in);

/// Slide "Aggregation and atomics", the sequential `filter`: the values > 0 of an int32 input, in
/// input order (chunks counted, then copied to their offsets on the host threads). Throws
/// std::invalid_argument unless the input is int32.
HostVector<std::int32_t> filter_reference(const Input& in);

/// Element-wise comparison. "" when equal; otherwise one line naming the first difference,
/// e.g. "out[17] = 5, expected 6", or "out has 5 elements, expected 6".
std::string compare_exact(ConstSpan<double> got, ConstSpan<double> expected);

/// Comparison as multisets (the order of a filter's output depends on which thread won each atomic):
/// "" when both hold the same values the same number of times; otherwise one line such as
/// "as multisets: 7 appears 2 times in out, 3 times in the reference", or a size mismatch. Counts each
/// value on the host threads when all are integers within a span of 2^22 (a filter's kept values);
/// otherwise sorts copies of both.
std::string compare_multiset(ConstSpan<double> got, ConstSpan<double> expected);

/// Filter input with a chosen kept fraction (`--keep F`, slide "Performance": throughput against the
/// filter ratio): int32, each value independently > 0 (uniform in 1..1000) with probability `keep`,
/// otherwise uniform in -1000..0; element i from counter_random(seed, i) (the same for any thread count).
/// keep in [0, 1]; returns "" or a one-line error.
std::string make_filter_input(std::int64_t n, double keep, std::uint64_t seed, Input& out);

/// Bytes a run must move, for GB/s (read + write): Counter 4 per update (one int read-modify-write
/// per thread), Histogram n bytes read + 256 x 4 written, Filter 4n read + 4 per kept value written
/// + 4 for the count.
double atomics_bytes(AtomicsKind kind, std::int64_t n, std::int64_t kept);

}  // namespace ws
