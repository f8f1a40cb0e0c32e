#include "patterns/scan/reference.hpp"

#include <cmath>
#include <cstdint>

#include "parallel.hpp"

namespace ws {

namespace {

/// Prefix sums on the host threads in fixed chunks of kHostChunk: each chunk's total (pass 1), the totals
/// added in chunk order into each chunk's offset, then each chunk's running sum from its offset (pass 2).
/// `value(i)` is element i as an Acc; int32 (uint32, wrapping) gives the sequential loop's bits, double
/// differs from it only in rounding and is the same for any thread count.
template <class Acc, class Value, class Store>
void chunked_prefix(std::int64_t n, bool exclusive, const Value& value, const Store& store) {
  const std::int64_t chunks = chunk_count(n, kHostChunk);
  std::vector<Acc> offset(std::size_t(chunks) + 1, Acc(0));
  parallel_chunks(n, kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    Acc t = Acc(0);
    for (std::int64_t i = b; i < e; ++i) t = Acc(t + value(i));
    offset[std::size_t(k) + 1] = t;
  });
  for (std::size_t k = 1; k < offset.size(); ++k) offset[k] = Acc(offset[k - 1] + offset[k]);
  parallel_chunks(n, kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t k) {
    Acc acc = offset[std::size_t(k)];
    for (std::int64_t i = b; i < e; ++i) {
      if (exclusive) {
        store(i, acc);
        acc = Acc(acc + value(i));
      } else {
        acc = Acc(acc + value(i));
        store(i, acc);
      }
    }
  });
}

}  // namespace

ArrayOutput reference_scan(const Input& in, bool exclusive) {
  ArrayOutput out;
  const std::int64_t n = in.n();
  out.values.resize(std::size_t(n));
  out.cols = n;
  double* o = out.values.data();
  if (in.type == DType::Int32) {
    const std::int32_t* x = in.i32.data();
    chunked_prefix<std::uint32_t>(
        n, exclusive, [&](std::int64_t i) { return std::uint32_t(x[i]); },
        [&](std::int64_t i, std::uint32_t v) { o[i] = double(std::int32_t(v)); });
  } else {
    const float* x = in.f32.data();
    chunked_prefix<double>(
        n, exclusive, [&](std::int64_t i) { return double(x[i]); }, [&](std::int64_t i, double v) { o[i] = v; });
  }
  return out;
}

HostVector<double> scan_abs_prefix(const Input& in, bool exclusive) {
  HostVector<double> a;
  if (in.type == DType::Int32) return a;
  a.resize(in.f32.size());
  const float* x = in.f32.data();
  chunked_prefix<double>(
      std::int64_t(in.f32.size()), exclusive, [&](std::int64_t i) { return std::fabs(double(x[i])); },
      [&](std::int64_t i, double v) { a[std::size_t(i)] = v; });
  return a;
}

void sequential_scan(const Input& in, bool exclusive, ArrayOutput& out) {
  const std::size_t n = std::size_t(in.n());
  out.values.resize(n);  // kept between the timed runs: no fresh pages to fault in
  out.rows = 0;
  out.cols = std::int64_t(n);
  double* o = out.values.data();
  if (in.type == DType::Int32) {
    std::uint32_t acc = 0;  // wraps like the GPU's 32-bit adds
    for (std::size_t i = 0; i < n; ++i) {
      if (exclusive) o[i] = double(std::int32_t(acc));
      acc += std::uint32_t(in.i32[i]);
      if (!exclusive) o[i] = double(std::int32_t(acc));
    }
    return;
  }
  double acc = 0;  // accumulated in double, each output rounded to float
  for (std::size_t i = 0; i < n; ++i) {
    if (exclusive) o[i] = double(float(acc));
    acc += double(in.f32[i]);
    if (!exclusive) o[i] = double(float(acc));
  }
}

}  // namespace ws
