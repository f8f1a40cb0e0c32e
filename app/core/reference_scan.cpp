#include "reference_scan.hpp"

#include <cmath>
#include <cstdint>

namespace ws {

namespace {
template <class Acc, class Src, class Fn>
ArrayOutput prefix(const std::vector<Src>& x, bool exclusive, Fn to_double) {
  ArrayOutput out;
  out.values.resize(x.size());
  out.cols = std::int64_t(x.size());
  Acc acc = Acc(0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (exclusive) {
      out.values[i] = to_double(acc);
      acc = Acc(acc + Acc(x[i]));
    } else {
      acc = Acc(acc + Acc(x[i]));
      out.values[i] = to_double(acc);
    }
  }
  return out;
}
double wrap(std::uint32_t v) { return double(std::int32_t(v)); }
double same(double v) { return v; }
}  // namespace

ArrayOutput reference_scan(const Input& in, bool exclusive) {
  if (in.type == DType::Int32) return prefix<std::uint32_t>(in.i32, exclusive, wrap);
  return prefix<double>(in.f32, exclusive, same);
}

std::vector<double> scan_abs_prefix(const Input& in, bool exclusive) {
  std::vector<double> a;
  if (in.type == DType::Int32) return a;
  a.resize(in.f32.size());
  double acc = 0;
  for (std::size_t i = 0; i < in.f32.size(); ++i) {
    if (exclusive) a[i] = acc;
    acc += std::fabs(double(in.f32[i]));
    if (!exclusive) a[i] = acc;
  }
  return a;
}

ArrayOutput sequential_scan(const Input& in, bool exclusive) {
  ArrayOutput out = reference_scan(in, exclusive);
  if (in.type == DType::Float32)
    for (double& v : out.values) v = double(float(v));
  return out;
}

}  // namespace ws
