// The block's dynamic shared memory (the size given at launch) as an array of T, for every pattern's
// kernels. `extern __shared__ T name[]` cannot be declared for both int and float in one file (the two
// declarations clash), so templated kernels reach the one raw byte array through this helper where the
// slides write `extern __shared__ int sv[]`.
#pragma once

namespace ws::kernels {

template <typename T>
__device__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char ws_dynamic_smem[];
  return reinterpret_cast<T*>(ws_dynamic_smem);
}

}  // namespace ws::kernels
