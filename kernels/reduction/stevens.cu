// The reduction trees of Stevens CS 677 Lecture 6 (Mordohai), "CS 677 Lecture 6", Mordohai,
// section "Reduction Trees": the divergent tree (slide "Vector Reduction with Branch Divergence",
// drawn without code on the slide; the code is the textbook's, Kirk and Hwu) and the compact tree
// (slides "A Better Reduction Kernel" and "Parallel Algorithm Overhead").
//
// Both kernels give every thread two elements: a block of blockDim.x threads reduces a window of
// 2 * blockDim.x elements held in partialSum[2 * BLOCK_SIZE], and thread 0 writes the block's sum
// (the slides stop at "the final sum will be in element 0"). The launcher relaunches the kernel on
// the block sums, ping-ponging between two halves of the scratch buffer, until one value is left.
// The loads are unguarded as on the slides: the input and each later pass's block sums are zero-padded
// to a whole window.
// No instrumented build (no GPU-recorded traces): the WS_AT markers only name the statements whose lines
// the sim models (app/core/sim/models_stevens_reduction.cpp) put in their traces.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/dynamic_shared.cuh"
#include "common/trace_record.cuh"
#include "reduction/reduce_launch.hpp"

namespace ws::kernels {
namespace {
WS_T(namespace ws_points = ::ws::trace_points::stevens;)

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// ---------------------------------------------------------------------------------------------------
// stevens.reduce_divergent. Seed 001, slides "A Sum Reduction Example", "Vector Reduction with Branch
// Divergence" and "Some Observations".
// In step k (stride = 2^k) thread t adds partialSum[2t + stride] into partialSum[2t] when t is a
// multiple of stride: after the first step all odd threads idle, and the active threads of every
// warp thin out (divergence) until, from stride 64 on, whole warps fail the test while each
// remaining warp keeps a single productive lane.
template <typename T>
__global__ void reduce_divergent(const T* input, T* output) {
  T* partialSum = dynamic_shared<T>();  // 2 * blockDim.x elements

  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockIdx.x * blockDim.x;
  partialSum[t] = input[start + t];
  WS_T(WS_AT(divergent_load_low);)
  partialSum[blockDim.x + t] = input[start + blockDim.x + t];
  WS_T(WS_AT(divergent_load_high);)
  for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
    __syncthreads();
    if (t % stride == 0)
      partialSum[2 * t] += partialSum[2 * t + stride];
    WS_T(WS_AT(divergent_tree);)
  }
  if (t == 0) output[blockIdx.x] = partialSum[0];
  WS_T(WS_AT(divergent_commit);)
}

// ---------------------------------------------------------------------------------------------------
// stevens.reduce_compact. Seed 001, slides "A Better Strategy", "A Better Reduction Kernel" and
// "Parallel Algorithm Overhead".
// Changed from reduce_divergent: the partial sums are always compacted into the first locations;
// thread t < stride adds partialSum[t + stride], so the active threads stay consecutive and whole
// warps drop out together: no divergence until fewer than 32 threads are left (the final 5 steps).
// Erratum: the slides load 2 * blockDim.x elements but start the loop at stride = blockDim.x / 2,
// which would never add the upper half; the slide's own count "1024, 512, 256, 128, 64, 32 consecutive
// threads are active" for a 1024-thread block needs stride = blockDim.x first, as here.
template <typename T>
__global__ void reduce_compact(const T* input, T* output) {
  T* partialSum = dynamic_shared<T>();  // 2 * blockDim.x elements

  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockIdx.x * blockDim.x;
  partialSum[t] = input[start + t];
  WS_T(WS_AT(compact_load_low);)
  partialSum[blockDim.x + t] = input[start + blockDim.x + t];
  WS_T(WS_AT(compact_load_high);)
  for (unsigned int stride = blockDim.x;
       stride >= 1; stride >>= 1) {
    __syncthreads();
    if (t < stride)
      partialSum[t] += partialSum[t + stride];
    WS_T(WS_AT(compact_tree);)
  }
  if (t == 0) output[blockIdx.x] = partialSum[0];
  WS_T(WS_AT(compact_commit);)
}

// ---------------------------------------------------------------------------------------------------
// Host launchers

template <typename T>
using PassKernel = void (*)(const T*, T*);

/// Runs `kernel` pass after pass (windows of 2 * block) until one value is left. Pass 1 reads a.data
/// (zero-padded to capacity); later passes read the previous block sums from one half of scratch and
/// write theirs to the other half, whose tail is zeroed up to the next pass's window first.
template <typename T>
ReduceOutcome run_tree_passes(const ReduceArgs& a, const char* id, PassKernel<T> kernel) {
  const std::int64_t window = 2 * std::int64_t(a.block);
  if (a.grid != ceil_div(a.n, window))
    throw std::runtime_error(std::string(id) + ": grid " + std::to_string(a.grid) + " does not match ceil(n / " +
                             std::to_string(window) + ")");
  const std::int64_t half = a.scratch_elems / 2;
  if (ceil_div(a.grid, window) * window > half)
    throw std::runtime_error(std::string(id) + ": scratch too small for " + std::to_string(a.grid) + " block sums");
  T* halves[2] = {static_cast<T*>(a.scratch), static_cast<T*>(a.scratch) + half};
  const T* src = static_cast<const T*>(a.data);
  std::int64_t grid = a.grid;
  int h = 0, launches = 0;
  for (;;) {
    T* dst = halves[h];
    const std::int64_t padded = ceil_div(grid, window) * window;
    if (grid > 1 && padded > grid)
      WS_CUDA(cudaMemsetAsync(dst + grid, 0, std::size_t(padded - grid) * sizeof(T), a.stream));
    kernel<<<unsigned(grid), a.block, std::size_t(window) * sizeof(T), a.stream>>>(src, dst);
    WS_LAUNCHED();
    ++launches;
    src = dst;
    h ^= 1;
    if (grid == 1) break;
    grid = ceil_div(grid, window);
  }
  return ReduceOutcome{src, 1, launches};
}

template <typename T>
ReduceOutcome run_reduce_divergent(const ReduceArgs& a) {
  return run_tree_passes<T>(a, "stevens.reduce_divergent", reduce_divergent<T>);
}

template <typename T>
ReduceOutcome run_reduce_compact(const ReduceArgs& a) {
  return run_tree_passes<T>(a, "stevens.reduce_compact", reduce_compact<T>);
}

template <ReduceLauncher ForInt, ReduceLauncher ForFloat>
ReduceOutcome by_type(const ReduceArgs& a) {
  return a.type == DType::Int32 ? ForInt(a) : ForFloat(a);
}

}  // namespace

std::vector<LauncherEntry> stevens_launchers() {
  return {
      {"stevens.reduce_divergent", by_type<run_reduce_divergent<std::int32_t>, run_reduce_divergent<float>>},
      {"stevens.reduce_compact", by_type<run_reduce_compact<std::int32_t>, run_reduce_compact<float>>},
  };
}

}  // namespace ws::kernels
