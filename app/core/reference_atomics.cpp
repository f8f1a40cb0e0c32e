#include "reference_atomics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>

namespace ws {

namespace {

std::string number(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

}  // namespace

AtomicsKind atomics_kind(const std::string& id) {
  if (id == "cs121.race" || id == "cs121.atomic_counter") return AtomicsKind::Counter;
  if (id == "cs121.hist_global" || id == "cs121.hist_shared" || id == "cs121.hist_shared_vec" ||
      id == "cub.histogram") return AtomicsKind::Histogram;
  if (id == "cs121.filter_global" || id == "cs121.filter_shared" || id == "cs121.filter_warp_agg" ||
      id == "cs121.filter_scan" || id == "cs121.filter_scan_vec" || id == "cub.select")
    return AtomicsKind::Filter;
  return AtomicsKind::None;
}

std::vector<std::int64_t> histogram_reference(const Input& in) {
  if (in.type != DType::UInt8) throw std::invalid_argument("the histogram reference takes uint8 input");
  std::vector<std::int64_t> bins(kHistogramBins, 0);
  for (std::uint8_t b : in.u8) ++bins[b];
  return bins;
}

std::vector<std::int32_t> filter_reference(const Input& in) {
  if (in.type != DType::Int32) throw std::invalid_argument("the filter reference takes int32 input");
  std::vector<std::int32_t> dst;
  for (std::int32_t x : in.i32)
    if (x > 0) dst.push_back(x);
  return dst;
}

std::string compare_exact(const std::vector<double>& got, const std::vector<double>& expected) {
  if (got.size() != expected.size())
    return "out has " + std::to_string(got.size()) + " elements, expected " + std::to_string(expected.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != expected[i]) return "out[" + std::to_string(i) + "] = " + number(got[i]) + ", expected " + number(expected[i]);
  return "";
}

std::string compare_multiset(const std::vector<double>& got, const std::vector<double>& expected) {
  if (got.size() != expected.size())
    return "out has " + std::to_string(got.size()) + " elements, expected " + std::to_string(expected.size());
  std::vector<double> a(got), b(expected);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    const double v = std::min(a[i], b[i]);  // the smallest value whose counts differ
    const auto ca = std::count(a.begin(), a.end(), v), cb = std::count(b.begin(), b.end(), v);
    return "as multisets: " + number(v) + " appears " + std::to_string(ca) + " times in out, " + std::to_string(cb) +
           " times in the reference";
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
  std::mt19937_64 rng(seed);
  const double scale = 1.0 / 9007199254740992.0;  // 2^-53: 53 random bits to a double in [0, 1)
  for (auto& x : in.i32) {
    const std::uint64_t r = rng();
    const bool kept = double(r >> 11) * scale < keep;
    const std::int32_t low = std::int32_t(r & 0x7ff);  // the 11 bits the fraction did not use
    x = kept ? 1 + low % 1000 : -(low % 1001);       // 1..1000 or -1000..0
  }
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
