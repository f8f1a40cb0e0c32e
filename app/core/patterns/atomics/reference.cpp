#include "patterns/atomics/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "counter_random.hpp"
#include "parallel.hpp"

namespace ws {

namespace {

std::string number(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else
    std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

}  // namespace

std::vector<std::int64_t> histogram_reference(const Input& in) {
  if (in.type != DType::UInt8) throw std::invalid_argument("the histogram reference takes uint8 input");
  // Bins per chunk, added in chunk order: integer counts, the same for any thread count.
  const std::int64_t n = in.n(), chunk = 16 * kHostChunk;
  std::vector<std::vector<std::int64_t>> part(std::size_t(chunk_count(n, chunk)));
  parallel_chunks(n, chunk, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    std::vector<std::int64_t> bins(kHistogramBins, 0);
    for (std::int64_t i = b; i < e; ++i) ++bins[in.u8[std::size_t(i)]];
    part[std::size_t(k)] = std::move(bins);
  });
  std::vector<std::int64_t> bins(kHistogramBins, 0);
  for (const auto& p : part)
    for (int j = 0; j < kHistogramBins; ++j) bins[std::size_t(j)] += p[std::size_t(j)];
  return bins;
}

HostVector<std::int32_t> filter_reference(const Input& in) {
  if (in.type != DType::Int32) throw std::invalid_argument("the filter reference takes int32 input");
  // Count per chunk, then each chunk copies its kept values to its offset: input order, as the sequential loop.
  const std::int64_t n = in.n(), chunk = 4 * kHostChunk;
  std::vector<std::int64_t> kept(std::size_t(chunk_count(n, chunk)) + 1, 0);
  const std::int32_t* x = in.i32.data();
  parallel_chunks(n, chunk, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    std::int64_t c = 0;
    for (std::int64_t i = b; i < e; ++i) c += x[i] > 0;
    kept[std::size_t(k) + 1] = c;
  });
  for (std::size_t k = 1; k < kept.size(); ++k) kept[k] += kept[k - 1];
  HostVector<std::int32_t> dst(std::size_t(kept.back()));
  parallel_chunks(n, chunk, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    std::int32_t* o = dst.data() + kept[std::size_t(k)];
    for (std::int64_t i = b; i < e; ++i)
      if (x[i] > 0) *o++ = x[i];
  });
  return dst;
}

std::string compare_exact(ConstSpan<double> got, ConstSpan<double> expected) {
  if (got.size() != expected.size())
    return "out has " + std::to_string(got.size()) + " elements, expected " + std::to_string(expected.size());
  const std::int64_t i = parallel_find_first(
      std::int64_t(got.size()), [&](std::int64_t k) { return !(got[std::size_t(k)] == expected[std::size_t(k)]); });
  if (i < 0) return "";
  return "out[" + std::to_string(i) + "] = " + number(got[std::size_t(i)]) + ", expected " +
         number(expected[std::size_t(i)]);
}

namespace {

/// The multiset message for the smallest value v whose counts differ (ca in out, cb in the reference).
std::string multiset_difference(double v, std::int64_t ca, std::int64_t cb) {
  return "as multisets: " + number(v) + " appears " + std::to_string(ca) + " times in out, " + std::to_string(cb) +
         " times in the reference";
}

/// Most distinct values a counting comparison takes (per thread: two arrays of this many counts).
constexpr std::int64_t kMaxCountingSpan = std::int64_t(1) << 22;

/// Compares as multisets by counting when every value is an integer in a span of at most
/// kMaxCountingSpan (a filter's kept values: 1..1000 for generated inputs). Returns false when the values
/// do not allow it (the caller sorts instead); otherwise sets `message` ("" when equal).
bool compare_multiset_by_counting(ConstSpan<double> got, ConstSpan<double> expected, std::string& message) {
  const std::int64_t n = std::int64_t(got.size());
  if (n == 0) {
    message.clear();
    return true;
  }
  // Range and integrality of both arrays, per chunk.
  const std::int64_t chunk = 4 * kHostChunk, chunks = chunk_count(n, chunk);
  std::vector<double> lo(static_cast<std::size_t>(chunks)), hi(static_cast<std::size_t>(chunks));
  std::vector<char> integral(static_cast<std::size_t>(chunks), 1);
  parallel_chunks(n, chunk, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    double l = got[std::size_t(b)], h = l;
    bool ok = true;
    for (std::int64_t i = b; i < e; ++i)
      for (double v : {got[std::size_t(i)], expected[std::size_t(i)]}) {
        ok = ok && v == std::floor(v) && std::fabs(v) < 9e15;  // false for NaN and infinities too
        l = v < l ? v : l;
        h = v > h ? v : h;
      }
    lo[std::size_t(k)] = l;
    hi[std::size_t(k)] = h;
    integral[std::size_t(k)] = ok;
  });
  double l = lo[0], h = hi[0];
  for (std::int64_t k = 0; k < chunks; ++k) {
    if (!integral[std::size_t(k)]) return false;
    l = std::min(l, lo[std::size_t(k)]);
    h = std::max(h, hi[std::size_t(k)]);
  }
  if (h - l + 1 > double(kMaxCountingSpan)) return false;
  const std::int64_t base = std::int64_t(l), span = std::int64_t(h) - base + 1;
  // Counts per part (one part per thread at most, and at most 2^24 counts per array kind in all), summed:
  // integers, the same for any thread count.
  const std::int64_t parts = std::max<std::int64_t>(
      1, std::min<std::int64_t>({std::int64_t(host_threads()), chunk_count(n, chunk), (std::int64_t(1) << 24) / span}));
  const std::int64_t per_part = (n + parts - 1) / parts;
  std::vector<std::vector<std::int64_t>> ca(static_cast<std::size_t>(parts)), cb(static_cast<std::size_t>(parts));
  parallel_chunks(n, per_part, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    std::vector<std::int64_t> a(std::size_t(span), 0), c(std::size_t(span), 0);
    for (std::int64_t i = b; i < e; ++i) {
      ++a[std::size_t(std::int64_t(got[std::size_t(i)]) - base)];
      ++c[std::size_t(std::int64_t(expected[std::size_t(i)]) - base)];
    }
    ca[std::size_t(k)] = std::move(a);
    cb[std::size_t(k)] = std::move(c);
  });
  for (std::int64_t v = 0; v < span; ++v) {
    std::int64_t a = 0, c = 0;
    for (std::int64_t k = 0; k < std::int64_t(ca.size()); ++k) {
      if (ca[std::size_t(k)].empty()) continue;
      a += ca[std::size_t(k)][std::size_t(v)];
      c += cb[std::size_t(k)][std::size_t(v)];
    }
    if (a != c) {
      message = multiset_difference(double(base + v), a, c);
      return true;
    }
  }
  message.clear();
  return true;
}

}  // namespace

std::string compare_multiset(ConstSpan<double> got, ConstSpan<double> expected) {
  if (got.size() != expected.size())
    return "out has " + std::to_string(got.size()) + " elements, expected " + std::to_string(expected.size());
  std::string message;
  if (compare_multiset_by_counting(got, expected, message)) return message;
  // Values too spread out (or not integers) to count: sort both.
  std::vector<double> a(got.begin(), got.end()), b(expected.begin(), expected.end());
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    const double v = std::min(a[i], b[i]);  // the smallest value whose counts differ
    return multiset_difference(v, std::count(a.begin(), a.end(), v), std::count(b.begin(), b.end(), v));
  }
  return "";
}

std::string make_filter_input(std::int64_t n, double keep, std::uint64_t seed, Input& out) {
  if (n <= 0) return "n must be positive (got " + std::to_string(n) + ")";
  if (!(keep >= 0.0 && keep <= 1.0)) return "--keep must be a fraction in 0..1 (got " + number(keep) + ")";
  Input in;
  in.type = DType::Int32;
  in.kind = "random";
  in.seed = seed;
  in.i32.resize(std::size_t(n));
  std::int32_t* d = in.i32.data();
  // Element i from counter_random(seed, i): parallel chunks, the same numbers for any thread count. The
  // high 32 bits h decide kept (h * 2^-32 < keep, i.e. h < ceil(keep * 2^32), exact in integers); the low
  // 32 bits pick the value.
  const std::uint64_t threshold = std::uint64_t(std::ceil(keep * 0x1p32));
  parallel_chunks(n, kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
    for (std::int64_t i = b; i < e; ++i) {
      const std::uint64_t r = counter_random(seed, std::uint64_t(i));
      const std::uint64_t low = r << 32;
      d[i] = (r >> 32) < threshold ? 1 + std::int32_t(random_below(low, 1000))  // 1..1000
                                   : -std::int32_t(random_below(low, 1001));    // -1000..0
    }
  });
  out = std::move(in);
  return "";
}

double atomics_bytes(AtomicsKind kind, std::int64_t n, std::int64_t kept) {
  switch (kind) {
    case AtomicsKind::Counter: return 4.0 * double(n);
    case AtomicsKind::Histogram: return double(n) + 4.0 * kHistogramBins;
    case AtomicsKind::Filter: return 4.0 * double(n) + 4.0 * double(kept) + 4.0;
    case AtomicsKind::None: break;
  }
  return 0;
}

}  // namespace ws
