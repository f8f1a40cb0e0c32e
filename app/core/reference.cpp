#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace ws {

double cpu_reference(ReduceOp op, const Input& in) {
  if (in.type == DType::UInt8) {  // bytes: exact (at most 2^30 * 255 < 2^53)
    std::int64_t s = 0, m = 0;
    for (auto x : in.u8) { s += x; m = x > m ? x : m; }
    return double(op == ReduceOp::Max ? m : s);
  }
  if (in.type == DType::Int32) {
    if (op == ReduceOp::Max) {
      std::int32_t m = std::numeric_limits<std::int32_t>::min();
      for (auto x : in.i32) m = x > m ? x : m;
      return m;
    }
    std::uint32_t s = 0;
    for (auto x : in.i32) s += std::uint32_t(x);
    return double(std::int32_t(s));
  }
  if (op == ReduceOp::Max) {
    float m = -std::numeric_limits<float>::infinity();
    for (auto x : in.f32) m = x > m ? x : m;
    return m;
  }
  double s = 0;
  for (auto x : in.f32) s += x;
  return s;
}

double abs_sum(const Input& in) {
  double s = 0;
  for (auto x : in.f32) s += std::fabs(double(x));
  return s;
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

std::string format_value(DType type, double v) {
  char buf[64];
  if (dtype_is_integer(type)) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.7g", v);
  return buf;
}

}  // namespace ws
