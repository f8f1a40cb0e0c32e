#include "patterns/reduction/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "parallel.hpp"

namespace ws {

double cpu_reference(ReduceOp op, const Input& in) {
  const std::int64_t n = in.n();
  if (in.type == DType::UInt8) {  // bytes: exact (at most 2^30 * 255 < 2^53)
    const std::uint8_t* x = in.u8.data();
    if (op == ReduceOp::Max)
      return double(chunked_reduce<std::int64_t>(
          n, kHostChunk, 0,
          [&](std::int64_t b, std::int64_t e) {
            std::int64_t m = 0;
            for (std::int64_t i = b; i < e; ++i) m = x[i] > m ? x[i] : m;
            return m;
          },
          [](std::int64_t a, std::int64_t c) { return std::max(a, c); }));
    return double(chunked_reduce<std::int64_t>(
        n, kHostChunk, 0,
        [&](std::int64_t b, std::int64_t e) {
          std::int64_t s = 0;
          for (std::int64_t i = b; i < e; ++i) s += x[i];
          return s;
        },
        [](std::int64_t a, std::int64_t c) { return a + c; }));
  }
  if (in.type == DType::Int32) {
    const std::int32_t* x = in.i32.data();
    if (op == ReduceOp::Max)
      return chunked_reduce<std::int32_t>(
          n, kHostChunk, std::numeric_limits<std::int32_t>::min(),
          [&](std::int64_t b, std::int64_t e) {
            std::int32_t m = std::numeric_limits<std::int32_t>::min();
            for (std::int64_t i = b; i < e; ++i) m = x[i] > m ? x[i] : m;
            return m;
          },
          [](std::int32_t a, std::int32_t c) { return std::max(a, c); });
    // Wrapping 32-bit adds: every grouping gives the same bits.
    const std::uint32_t s = chunked_reduce<std::uint32_t>(
        n, kHostChunk, 0u,
        [&](std::int64_t b, std::int64_t e) {
          std::uint32_t t = 0;
          for (std::int64_t i = b; i < e; ++i) t += std::uint32_t(x[i]);
          return t;
        },
        [](std::uint32_t a, std::uint32_t c) { return std::uint32_t(a + c); });
    return double(std::int32_t(s));
  }
  const float* x = in.f32.data();
  if (op == ReduceOp::Max)
    return chunked_reduce<float>(
        n, kHostChunk, -std::numeric_limits<float>::infinity(),
        [&](std::int64_t b, std::int64_t e) {
          float m = -std::numeric_limits<float>::infinity();
          for (std::int64_t i = b; i < e; ++i) m = x[i] > m ? x[i] : m;
          return m;
        },
        [](float a, float c) { return c > a ? c : a; });
  return chunked_reduce<double>(
      n, kHostChunk, 0.0,
      [&](std::int64_t b, std::int64_t e) {
        double t = 0;
        for (std::int64_t i = b; i < e; ++i) t += x[i];
        return t;
      },
      [](double a, double c) { return a + c; });
}

double abs_sum(const Input& in) {
  const float* x = in.f32.data();
  return chunked_reduce<double>(
      std::int64_t(in.f32.size()), kHostChunk, 0.0,
      [&](std::int64_t b, std::int64_t e) {
        double t = 0;
        for (std::int64_t i = b; i < e; ++i) t += std::fabs(double(x[i]));
        return t;
      },
      [](double a, double c) { return a + c; });
}

bool results_match(DType type, double got, double expected, const Input& in) {
  if (std::isnan(got) || std::isnan(expected)) return false;
  if (dtype_is_integer(type)) return got == expected;
  // Rounding in a float32 sum grows like sqrt(n) * eps * sum|x| when the order is effectively random
  // (atomics, trees); accept twice that, and never less than 1e-5 relative.
  const double eps = 5.96e-8;  // 2^-24
  const double rel = std::max(1e-5, 2.0 * std::sqrt(double(in.n())) * eps);
  return std::fabs(got - expected) <= rel * abs_sum(in) + 1e-6;
}

}  // namespace ws
