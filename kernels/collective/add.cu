// The kernels of the lesson "Reduction across GPUs" (issue 30). Everything that crosses a link is a peer
// copy (cudaMemcpyPeerAsync); what is left for the GPUs is the add the reduction lessons start from, now
// over whole chunks: the receiver adds the chunk that arrived into its own copy ("Reduction Pattern",
// Carlinet and Chazalon, EPITA 2023, the partial sums of the tree meeting pairwise; CS121 "GPUs and CUDA 3:
// Intrinsics", deviceReduce's second pass, where the blocks' partials are added by one more launch).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "collective/collective_launch.hpp"
#include "common/check_cuda.hpp"

namespace ws::kernels::collective {
namespace {

// ---------------------------------------------------------------------------------------------------
// collective.add_into
/// One element per thread and step of a grid-stride loop, four floats at a time where the pointers allow:
/// the add is bound by memory (two reads and a write per element), so it only has to keep loads wide.
__global__ void add_into(float* dst, const float* src, long long n) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long n4 = n / 4;
  float4* d4 = reinterpret_cast<float4*>(dst);
  const float4* s4 = reinterpret_cast<const float4*>(src);
  for (long long i = first; i < n4; i += stride) {
    float4 d = d4[i];
    const float4 s = s4[i];
    d.x += s.x;
    d.y += s.y;
    d.z += s.z;
    d.w += s.w;
    d4[i] = d;
  }
  for (long long i = n4 * 4 + first; i < n; i += stride) dst[i] += src[i];  // the last n % 4 elements
}

/// The same add, one float at a time, for chunks that do not start on a 16-byte boundary.
__global__ void add_into_scalar(float* dst, const float* src, long long n) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    dst[i] += src[i];
}

// ---------------------------------------------------------------------------------------------------
// collective.add_partials
/// GPU 0 adds what the other GPUs sent: a handful of values, so one thread (the partials' order is fixed).
__global__ void add_partials(long long* total, const int* partials, int count) {
  long long s = 0;
  for (int g = 0; g < count; ++g) s += partials[g];
  *total = s;
}

/// Blocks for a memory-bound grid-stride loop over `work` items: enough to fill any GPU (a few waves of
/// 256-thread blocks on 132 SMs), no more than the items need.
unsigned int blocks_for(long long work) {
  const long long per_block = 256;
  const long long want = (work + per_block - 1) / per_block;
  return static_cast<unsigned int>(want < 2048 ? (want > 0 ? want : 1) : 2048);
}

}  // namespace

void launch_add_into(float* dst, const float* src, std::int64_t n, cudaStream_t stream) {
  if (n <= 0) return;
  const bool aligned =
      reinterpret_cast<std::uintptr_t>(dst) % 16 == 0 && reinterpret_cast<std::uintptr_t>(src) % 16 == 0;
  if (aligned)
    add_into<<<blocks_for((n + 3) / 4), 256, 0, stream>>>(dst, src, n);
  else
    add_into_scalar<<<blocks_for(n), 256, 0, stream>>>(dst, src, n);
  WS_LAUNCHED();
}

void launch_add_partials(std::int64_t* total, const std::int32_t* partials, int count, cudaStream_t stream) {
  if (count < 1 || count > 8) throw std::runtime_error("add_partials: 1 to 8 partials, not " + std::to_string(count));
  add_partials<<<1, 1, 0, stream>>>(reinterpret_cast<long long*>(total), reinterpret_cast<const int*>(partials), count);
  WS_LAUNCHED();
}

}  // namespace ws::kernels::collective
