// Which code path a kernel compiles to, by GPU generation. A few tuned kernels use instructions that
// Turing (sm_75: T4, RTX 20xx) lacks: warp reductions `__reduce_add_sync` and asynchronous copies
// `cp.async` arrived with Ampere (sm_80). Every kernel that uses them keeps a pre-sm_80 path, chosen
// per architecture at compile time; building with WS_FORCE_PRE_SM80 picks that path on every
// architecture, so a Hopper GPU can run and test what a Turing GPU runs.
#pragma once

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && !defined(WS_FORCE_PRE_SM80)
#define WS_SM80_PATH 1  ///< device code of this compilation may use sm_80 instructions
#else
#define WS_SM80_PATH 0
#endif

#include "common/arch_paths.hpp"

namespace ws::kernels {

/// Sum of v over the 32 lanes of a full warp, every lane gets it: one `__reduce_add_sync` from sm_80,
/// a butterfly of five `__shfl_xor_sync` before (the same sum; unsigned arithmetic wraps alike).
__device__ __forceinline__ unsigned int warp_sum_all(unsigned int v) {
#if WS_SM80_PATH
  return __reduce_add_sync(0xffffffffu, v);
#else
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
#endif
}

/// Copies one float from global `src` into shared `dst`, or writes 0 when `in` is false (a ghost
/// cell; `src` must still be a valid address). From sm_80 an asynchronous `cp.async` (global to
/// shared without a register; src-size 0 zero-fills), finished by copy_async_wait_all(); before sm_80
/// a plain load and store.
__device__ __forceinline__ void copy_or_zero_async(float* dst, const float* src, bool in) {
#if WS_SM80_PATH
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(in ? 4 : 0) : "memory");
#else
  *dst = in ? *src : 0.0f;
#endif
}

/// Waits until this thread's copy_or_zero_async copies have landed (a no-op on the pre-sm_80 path,
/// whose copies are plain stores). Follow it with __syncthreads() before reading other threads' copies.
__device__ __forceinline__ void copy_async_wait_all() {
#if WS_SM80_PATH
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

}  // namespace ws::kernels
