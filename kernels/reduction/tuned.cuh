// epita.tuned's kernel (beyond the slides: warpscope's own reduction after the EPITA lesson,
// "Reduction Pattern", Carlinet, Chazalon, 2023, to show the gap between full_unroll and a library and how to close
// it). Templated on how the input is spread over the blocks and how it is loaded, so that the A/B
// harness (bench/reduce_ab.cu) times the candidates from this one source; the product (epita.cu)
// instantiates one of them.
//
// What every candidate does, changed from full_unroll:
//  (1) wide loads: each thread reads int4/float4 (16 bytes), kUnroll of them before any add, so many
//      bytes are in flight per thread and the memory system stays busy;
//  (2) warp shuffles instead of a shared-memory tree (no __syncthreads per step);
//  (3) one launch for the whole sum: each block writes its partial, and the last block to finish (a
//      ticket counter, reset by that block) folds the partials in a fixed order, so the result needs no
//      second launch and no atomics on the sum, and is the same from run to run for float32 too.
#pragma once

#include "common/vec4.cuh"

namespace ws::kernels::tuned {

/// How the input's 16-byte vectors are spread over the blocks.
enum class Schedule {
  GridStride,    ///< one wave of blocks; thread i reads vectors i, i + stride, ... (stride = grid * block)
  Dynamic,       ///< one wave of blocks takes tiles of block * kUnroll vectors from a counter until none are
                 ///< left: a block on a faster SM takes more tiles, so no SM waits for a slow one at the end;
                 ///< each thread keeps its sum across its tiles, so a float32 sum depends on which block
                 ///< took which tile (not the same bits from run to run)
  DynamicTiles,  ///< as Dynamic, but each tile's sum is its own partial (a block sum per tile), so the
                 ///< result is the same whichever block took a tile: float32 gives the same bits every run
};

/// How a 16-byte vector is loaded.
enum class Load {
  Plain,       ///< an ordinary global load (the compiler picks LDG.128)
  L2Prefetch,  ///< ld.global.nc with the L2::256B hint: each miss fetches 256 bytes into L2, not 128
};

/// The counters of one launch, zero between launches: the last block resets them.
struct Counters {
  unsigned int blocks_done;  ///< tickets taken by blocks that wrote their partial
  unsigned int next_tile;    ///< Schedule::Dynamic: the next tile to hand out
};

/// Sum of a warp's 32 values in lane 0 (shuffle tree, offsets 16, 8, 4, 2, 1).
template <typename T>
__device__ T warp_sum(T s) {
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
  return s;
}

/// Sum of the block's values in thread 0: warp sums, then the first warp sums those.
template <typename T>
__device__ T block_sum(T s, T* warp_sums) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  s = warp_sum(s);
  if (lane == 0) warp_sums[warp] = s;
  __syncthreads();
  if (warp == 0) s = warp_sum(lane < int(blockDim.x / 32) ? warp_sums[lane] : T(0));
  return s;
}

/// One 16-byte vector (int4 or float4) from global memory, as `L` says.
template <Load L, typename V>
__device__ V load16(const V* p) {
  static_assert(sizeof(V) == 16, "16-byte vectors only");
  if constexpr (L == Load::Plain) {
    return *p;
  } else {
    int4 bits;  // the vector's 16 bytes as four 32-bit words, whatever type V holds
    asm volatile("ld.global.nc.L2::256B.v4.s32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(bits.x), "=r"(bits.y), "=r"(bits.z), "=r"(bits.w)
                 : "l"(p));
    V v;
    memcpy(&v, &bits, sizeof v);
    return v;
  }
}

/// acc[0] + acc[1] + ... in that order.
template <typename T, int kUnroll>
__device__ T sum_of(const T (&acc)[kUnroll]) {
  T s = acc[0];
#pragma unroll
  for (int k = 1; k < kUnroll; ++k) s += acc[k];
  return s;
}

/// Adds kUnroll vectors, `step` vectors apart from `first`, into acc[] (all loads issued before any add).
template <typename T, int kUnroll, Load L>
__device__ void add_vectors(const typename Vec4<T>::type* in4, long long first, long long step, T (&acc)[kUnroll]) {
  typename Vec4<T>::type a[kUnroll];
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) a[k] = load16<L>(in4 + first + k * step);
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) acc[k] += (a[k].x + a[k].y) + (a[k].z + a[k].w);
}

/// The sum of in[0, 4 n4) into *sum, with partials[gridDim.x] (DynamicTiles: one per tile) as scratch;
/// `c` is zero on entry and on return.
/// The input is padded with zeros to whole vectors. Block: a whole number of warps, at most 1024.
template <typename T, int kUnroll, Schedule S, Load L>
__global__ void reduce_tuned(const T* __restrict__ in, long long n4, T* partials, T* sum, Counters* c) {
  using V = typename Vec4<T>::type;
  __shared__ T warp_sums[32];
  __shared__ bool last_block;
  __shared__ long long tile_slot[2];
  const V* in4 = reinterpret_cast<const V*>(in);
  T acc[kUnroll];
#pragma unroll
  for (int k = 0; k < kUnroll; ++k) acc[k] = 0;
  if constexpr (S == Schedule::GridStride) {
    const long long stride = (long long)blockDim.x * gridDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) add_vectors<T, kUnroll, L>(in4, i, stride, acc);
    for (; i < n4; i += stride) acc[0] += (in4[i].x + in4[i].y) + (in4[i].z + in4[i].w);
  } else {
    // Tiles of blockDim.x * kUnroll vectors. Thread 0 asks for the next tile while the block reads the
    // current one, so the counter's round trip hides behind the loads; two slots, one barrier per tile.
    const long long tile = (long long)blockDim.x * kUnroll, tiles = (n4 + tile - 1) / tile;
    if (threadIdx.x == 0) tile_slot[0] = atomicAdd(&c->next_tile, 1u);
    __syncthreads();
    int slot = 0;
    for (long long t = tile_slot[0]; t < tiles; t = tile_slot[slot]) {
      if (threadIdx.x == 0) tile_slot[slot ^ 1] = atomicAdd(&c->next_tile, 1u);
      const long long first = t * tile + threadIdx.x;
      if ((t + 1) * tile <= n4) {
        add_vectors<T, kUnroll, L>(in4, first, blockDim.x, acc);
      } else {
        for (long long i = first; i < n4; i += blockDim.x) acc[0] += (in4[i].x + in4[i].y) + (in4[i].z + in4[i].w);
      }
      if constexpr (S == Schedule::DynamicTiles) {
        const T tile_sum = block_sum(sum_of(acc), warp_sums);
        if (threadIdx.x == 0) partials[t] = tile_sum;
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) acc[k] = 0;
      }
      __syncthreads();  // the next tile's slot is written; the current one (and warp_sums) read by all
      slot ^= 1;
    }
  }
  // Partials: one per block, or one per tile (DynamicTiles).
  long long parts = gridDim.x;
  if constexpr (S == Schedule::DynamicTiles) {
    parts = (n4 + (long long)blockDim.x * kUnroll - 1) / ((long long)blockDim.x * kUnroll);
  } else {
    const T s = block_sum(sum_of(acc), warp_sums);
    if (threadIdx.x == 0) partials[blockIdx.x] = s;
  }
  if (threadIdx.x == 0) {
    __threadfence();  // the block's partials are visible to every block before the ticket is taken
    last_block = atomicAdd(&c->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  // Thread t folds partials t, t + block, ... (fixed order), 8 loads in flight, from L2 (not a stale L1).
  T p = 0;
  long long j = threadIdx.x;
  for (; j + 7 * (long long)blockDim.x < parts; j += 8 * (long long)blockDim.x) {
    T q[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) q[k] = __ldcg(partials + j + k * (long long)blockDim.x);
#pragma unroll
    for (int k = 0; k < 8; ++k) p += q[k];
  }
  for (; j < parts; j += blockDim.x) p += __ldcg(partials + j);
  __syncthreads();  // warp_sums is reused
  p = block_sum(p, warp_sums);
  if (threadIdx.x == 0) {
    *sum = p;
    c->blocks_done = 0;
    c->next_tile = 0;
  }
}

}  // namespace ws::kernels::tuned
