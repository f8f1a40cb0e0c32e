// Vec4<T>::type: the 16-byte vector of four T (int4, float4) for kernels that load 128 bits per
// thread (epita.tuned, scan.decoupled_lookback).
#pragma once

namespace ws::kernels {

template <typename T>
struct Vec4;
template <>
struct Vec4<int> {
  using type = int4;
};
template <>
struct Vec4<float> {
  using type = float4;
};

}  // namespace ws::kernels
