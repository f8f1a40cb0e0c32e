// The CS121 atomics lesson: the race, atomics, histograms and filters of "GPUs and CUDA 3: Intrinsics"
// (CS121 Parallel Computing, Fall 2022), "GPUs and CUDA 3: Intrinsics", CS121, Fall 2022, in teaching
// order, each followed by its host launcher. Indexing, guards and synchronization are the slides';
// where a slide's code does not compile today the change is named above the kernel.
// No instrumented build (no GPU-recorded traces): the WS_AT markers only name the statements whose
// lines the sim models (app/core/patterns/atomics/models_cs121.cpp) put in their traces.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "atomics/atomics_launch.hpp"
#include "common/arch_paths.cuh"
#include "common/shared_types.hpp"
#include "common/trace_record.cuh"

namespace ws::kernels {
namespace {
WS_T(namespace ws_points = ::ws::trace_points::cs121_atomics;)

dim3 grid_of(const AtomicsArgs& a) { return dim3(static_cast<unsigned int>(a.grid)); }
int as_int(std::int64_t n) { return static_cast<int>(n); }  // n <= 2^30

// ---------------------------------------------------------------------------------------------------
// cs121.race. Seed 003, slide "Race conditions" (raceKernel).
// Every thread does a plain read-modify-write of one int: threads that read the same old value write
// the same new one, and their increments are lost. The slide launches <<<1000, 1000>>> and expects
// 1,000,000; it printed 88. Unguarded as on the slide: the grid is exactly n / blockDim.x blocks.
__global__ void raceKernel(int* d_a) {
  *d_a += 1;
  WS_T(WS_AT(race_add);)
}

/// cs121.race: d_a = 0 (the slide's cudaMemcpy of a = 0), then raceKernel<<<grid, block>>>.
AtomicsOutcome run_race(const AtomicsArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.counter, 0, sizeof(int), a.stream));
  raceKernel<<<grid_of(a), a.block, 0, a.stream>>>(a.counter);
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.atomic_counter. Seed 003, slide "CUDA atomics" (atomicAdd).
// Changed from race: the increment is atomicAdd(d_a, 1), which reads, adds and writes without
// interruption from any other thread, so every increment counts. All of them are serialized on one
// address.
__global__ void atomicCounterKernel(int* d_a) {
  atomicAdd(d_a, 1);
  WS_T(WS_AT(counter_add);)
}

AtomicsOutcome run_atomic_counter(const AtomicsArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.counter, 0, sizeof(int), a.stream));
  atomicCounterKernel<<<grid_of(a), a.block, 0, a.stream>>>(a.counter);
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.hist_global. Seed 003, slide "Computing a histogram" (hist).
// A grid-stride loop over the bytes; each one is counted with an atomicAdd on its bin of the 256-bin
// histogram in global memory. Every thread of the grid contends for the same 256 addresses.
__global__ void hist_global_k(const unsigned char* vals, int size, int* hist) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&(hist[vals[i]]), 1);
    WS_T(WS_AT(hist_global_add);)
    i += stride;
  }
}

/// cs121.hist_global: zero the 256 bins, then the kernel.
AtomicsOutcome run_hist_global(const AtomicsArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.out, 0, kHistogramBins * sizeof(int), a.stream));
  hist_global_k<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const unsigned char*>(a.in), as_int(a.n),
                                                      static_cast<int*>(a.out));
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.hist_shared. Seed 003, the second slide "Improving performance" (hist with local_hist).
// Changed from hist_global: each block counts into a private 256-bin histogram in shared memory
// (shared atomics are faster, and only the block's threads contend), then threads < 256 add the
// block's bins to the global histogram: one global atomic per bin per block instead of one per byte.
// Needs blockDim.x >= 256 (threads 0..255 zero and flush the bins; the launch rules enforce it).
__global__ void hist_shared_k(const unsigned char* vals, int size, int* hist) {
  // Assume 256 different vals
  __shared__ int local_hist[256];
  if (threadIdx.x < 256)
    local_hist[threadIdx.x] = 0;
  WS_T(WS_AT(hist_shared_zero);)
  __syncthreads();

  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&(local_hist[vals[i]]), 1);
    WS_T(WS_AT(hist_shared_add);)
    i += stride;
  }
  __syncthreads();
  if (threadIdx.x < 256)
    atomicAdd(&(hist[threadIdx.x]), local_hist[threadIdx.x]);
  WS_T(WS_AT(hist_shared_flush);)
}

AtomicsOutcome run_hist_shared(const AtomicsArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.out, 0, kHistogramBins * sizeof(int), a.stream));
  hist_shared_k<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const unsigned char*>(a.in), as_int(a.n),
                                                      static_cast<int*>(a.out));
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.hist_shared_vec. Beyond the slide (seed 003 stops at hist_shared): the tuned form.
// Changed from hist_shared: each thread reads 16 bytes with one uint4 load per pass (one load
// instruction per 16 bytes instead of one per byte), and each warp counts into its own 256 shared bins
// (dynamic shared memory, blockDim.x / 32 x 256 ints), so warps never contend with each other; threads
// < 256 add the warps' bins and do one global atomicAdd per bin. The last size % 16 bytes are counted
// one by one by block 0. The input must be 16-byte aligned (cudaMalloc's is).
__global__ void hist_shared_vec_k(const unsigned char* vals, int size, int* hist) {
  extern __shared__ int warp_hist[];
  const int warps = blockDim.x / 32;
  for (int j = threadIdx.x; j < warps * 256; j += blockDim.x)
    warp_hist[j] = 0;
  WS_T(WS_AT(vec_zero);)
  __syncthreads();

  int* mine = warp_hist + (threadIdx.x / 32) * 256;
  const int chunks = size / 16;
  const uint4* vals16 = reinterpret_cast<const uint4*>(vals);
  for (int c = threadIdx.x + blockIdx.x * blockDim.x; c < chunks; c += blockDim.x * gridDim.x) {
    const uint4 q = vals16[c];
    WS_T(WS_AT(vec_load);)
    const unsigned int words[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      atomicAdd(&mine[words[k] & 0xff], 1);
      WS_T(WS_AT(vec_add_byte0);)
      atomicAdd(&mine[(words[k] >> 8) & 0xff], 1);
      WS_T(WS_AT(vec_add_byte1);)
      atomicAdd(&mine[(words[k] >> 16) & 0xff], 1);
      WS_T(WS_AT(vec_add_byte2);)
      atomicAdd(&mine[words[k] >> 24], 1);
      WS_T(WS_AT(vec_add_byte3);)
    }
  }
  if (blockIdx.x == 0 && threadIdx.x < size % 16)
    atomicAdd(&mine[vals[chunks * 16 + threadIdx.x]], 1);
  WS_T(WS_AT(vec_tail);)
  __syncthreads();

  if (threadIdx.x < 256) {
    int sum = 0;
    for (int w = 0; w < warps; ++w)
      sum += warp_hist[w * 256 + threadIdx.x];
    WS_T(WS_AT(vec_sum);)
    atomicAdd(&hist[threadIdx.x], sum);
    WS_T(WS_AT(vec_flush);)
  }
}

AtomicsOutcome run_hist_shared_vec(const AtomicsArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.out, 0, kHistogramBins * sizeof(int), a.stream));
  const std::size_t shared = std::size_t(a.block / 32) * kHistogramBins * sizeof(int);
  hist_shared_vec_k<<<grid_of(a), a.block, shared, a.stream>>>(static_cast<const unsigned char*>(a.in), as_int(a.n),
                                                               static_cast<int*>(a.out));
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.filter_global. Seed 003, slide "Aggregation and atomics" (filter_k, global memory atomics).
// One thread per element: a positive value takes the next output slot with atomicAdd on one global
// counter. One atomic per kept value on the same address: the slower the more values are kept.
__global__ void filter_k(int* dst, int* nres, const int* src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  WS_T(WS_AT_NEXT(filter_global_test);)
  if (i < n && src[i] > 0)
    dst[atomicAdd(nres, 1)] = src[i];
  WS_T(WS_AT(filter_global_keep);)
}

/// Filters: nres = 0, then the kernel.
AtomicsOutcome run_filter_global(const AtomicsArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.counter, 0, sizeof(int), a.stream));
  filter_k<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<int*>(a.out), a.counter, static_cast<const int*>(a.in),
                                                 as_int(a.n));
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.filter_shared. Seed 003, slide "Aggregation and atomics" (filter_shared_k, shared memory atomics).
// Changed from filter_global: per round of blockDim.x values, kept values count themselves with
// atomicAdd on the shared l_n (their slot within the block), thread 0 reserves l_n slots with one
// global atomicAdd (l_n becomes the block's base), and each kept value goes to base + slot.
// NPER_THREAD = kFilterSharedItems (8; the slide does not give its value).
template <int NPER_THREAD>
__global__ void filter_shared_k(int* dst, int* nres, const int* src, int n) {
  __shared__ int l_n;
  int i = blockIdx.x * (NPER_THREAD * blockDim.x) + threadIdx.x;

  for (int iter = 0; iter < NPER_THREAD; iter++) {
    // zero the counter
    if (threadIdx.x == 0)
      l_n = 0;
    WS_T(WS_AT(filter_shared_zero);)
    __syncthreads();

    // get the value, evaluate the predicate, and increment the counter if needed
    int d, pos;

    if (i < n) {
      d = src[i];
      WS_T(WS_AT(filter_shared_load);)
      if (d > 0)
        pos = atomicAdd(&l_n, 1);
      WS_T(WS_AT(filter_shared_count);)
    }
    __syncthreads();

    // leader increments the global counter
    if (threadIdx.x == 0)
      l_n = atomicAdd(nres, l_n);
    WS_T(WS_AT(filter_shared_reserve);)
    __syncthreads();

    // threads with true predicates write their elements
    if (i < n && d > 0) {
      pos += l_n;  // increment local pos by global counter
      WS_T(WS_AT(filter_shared_offset);)
      dst[pos] = d;
      WS_T(WS_AT(filter_shared_store);)
    }
    __syncthreads();

    i += blockDim.x;
  }
}

AtomicsOutcome run_filter_shared(const AtomicsArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.counter, 0, sizeof(int), a.stream));
  filter_shared_k<kFilterSharedItems><<<grid_of(a), a.block, 0, a.stream>>>(static_cast<int*>(a.out), a.counter,
                                                                            static_cast<const int*>(a.in), as_int(a.n));
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.filter_warp_agg. Seed 003, slide "Warp-aggregated filtering" (atomicAggInc, filter_k).
// Changed from filter_global: the kept lanes of a warp elect a leader, which adds their count to the
// counter with one atomicAdd and broadcasts the old value; each lane adds the number of kept lanes
// below it. One atomic per warp instead of one per kept value.
// Today's forms (README errata): __ballot(1) -> __ballot_sync(__activemask(), 1), __shfl(res, leader)
// -> __shfl_sync(mask, res, leader), lane_id = threadIdx.x % 32 (undeclared on the slide), and
// `1u << lane_id` (the slide's `1 << 31` overflows an int). The slide's filter_k uses a global nres; it
// is a parameter here.
__device__ int atomicAggInc(int* ctr) {
  // mask of active lanes
  unsigned int mask = __ballot_sync(__activemask(), 1);
  WS_T(WS_AT(warp_agg_ballot);)

  // select the leader
  int leader = __ffs(mask) - 1;
  int lane_id = threadIdx.x % 32;

  // leader does the update
  int res;
  if (lane_id == leader)
    res = atomicAdd(ctr, __popc(mask));
  WS_T(WS_AT(warp_agg_atomic);)

  // broadcast result
  res = __shfl_sync(mask, res, leader);
  WS_T(WS_AT(warp_agg_shfl);)

  // each thread computes its own value
  return res + __popc(mask & ((1u << lane_id) - 1));
}

__global__ void filter_warp_agg_k(int* dst, int* nres, const int* src, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n)
    return;
  WS_T(WS_AT_NEXT(warp_agg_test);)
  if (src[i] > 0)
    dst[atomicAggInc(nres)] = src[i];
  WS_T(WS_AT(warp_agg_store);)
}

AtomicsOutcome run_filter_warp_agg(const AtomicsArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.counter, 0, sizeof(int), a.stream));
  filter_warp_agg_k<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<int*>(a.out), a.counter,
                                                          static_cast<const int*>(a.in), as_int(a.n));
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.filter_scan. Seed 003, slide "Aggregation and atomics": "Scan based filtering using Thrust's
// copy_if()" (the slide gives no code; this kernel is ours).
// Changed from the atomic filters: a value's output slot is the number of kept values before it, a scan
// of the predicate, so the output keeps the input order and no atomic touches the data path. One pass:
// each block takes the next tile of 256 x 16 values (a tile counter hands tiles out in launch order),
// ranks its kept values with warp ballots and a scan of the 128 (row, warp) counts, and finds how many
// values all earlier tiles kept with a decoupled look-back (Merrill and Garland 2016) over a status
// word per tile: flag (0 none, 1 tile count, 2 inclusive prefix) in the high 32 bits, value in the low.
constexpr unsigned int kFlagNone = 0, kFlagAggregate = 1, kFlagPrefix = 2;

__device__ __forceinline__ void publish(unsigned long long* status, unsigned int flag, unsigned int value) {
  *reinterpret_cast<volatile unsigned long long*>(status) = (static_cast<unsigned long long>(flag) << 32) | value;
}

template <int BLOCK, int ITEMS>
__global__ void __launch_bounds__(BLOCK) filter_scan_k(int* dst, int* nres, const int* src, int n,
                                                       unsigned long long* status, unsigned int* tile_counter,
                                                       unsigned int num_tiles) {
  constexpr int WARPS = BLOCK / 32;
  __shared__ unsigned int cnt[ITEMS * WARPS];  // kept per (row, warp), then their exclusive prefix
  __shared__ unsigned int s_tile, s_offset;
  if (threadIdx.x == 0) s_tile = atomicAdd(tile_counter, 1u);  // a tile's predecessors have all started
  __syncthreads();
  const unsigned int tile = s_tile;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const long long base = static_cast<long long>(tile) * BLOCK * ITEMS;

  int v[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {  // striped: row k of the tile, coalesced per warp
    const long long i = base + k * BLOCK + threadIdx.x;
    v[k] = i < n ? src[i] : 0;  // 0 is not kept
    WS_T(WS_AT(scan_load);)
  }
  unsigned int ballot[ITEMS];
#pragma unroll
  for (int k = 0; k < ITEMS; ++k) {
    ballot[k] = __ballot_sync(0xffffffffu, v[k] > 0);
    if (lane == 0) cnt[k * WARPS + warp] = __popc(ballot[k]);
    WS_T(WS_AT(scan_count);)
  }
  __syncthreads();

  if (warp == 0) {
    // Exclusive scan of the ITEMS * WARPS counts, PER consecutive counts per lane.
    constexpr int PER = ITEMS * WARPS / 32;
    unsigned int c[PER], sum = 0;
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      c[q] = cnt[lane * PER + q];
      WS_T(WS_AT(scan_counts);)
      sum += c[q];
    }
    unsigned int incl = sum;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const unsigned int t = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += t;
    }
    unsigned int run = incl - sum;
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      cnt[lane * PER + q] = run;
      run += c[q];
    }
    const unsigned int total = __shfl_sync(0xffffffffu, incl, 31);

    // Decoupled look-back: lane l reads the status of tile (window - l); walk back 32 tiles at a time
    // until some tile in the window has its inclusive prefix.
    unsigned int exclusive = 0;
    if (tile == 0) {
      if (lane == 0) publish(&status[0], kFlagPrefix, total);
      WS_T(WS_AT(scan_publish_first);)
    } else {
      if (lane == 0) publish(&status[tile], kFlagAggregate, total);
      long long window = static_cast<long long>(tile) - 1;
      while (true) {
        const long long idx = window - lane;
        unsigned long long s;
        do {
          WS_T(WS_AT_NEXT(scan_peek);)
          s = idx >= 0 ? *reinterpret_cast<volatile unsigned long long*>(&status[idx])
                       : (static_cast<unsigned long long>(kFlagPrefix) << 32);  // before tile 0: prefix 0
        } while (__any_sync(0xffffffffu, (s >> 32) == kFlagNone));
        const unsigned int prefix_lanes = __ballot_sync(0xffffffffu, (s >> 32) == kFlagPrefix);
        const int stop = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;  // nearest tile with a prefix
        unsigned int val = lane <= stop ? static_cast<unsigned int>(s) : 0u;
#pragma unroll
        for (int d = 16; d > 0; d /= 2) val += __shfl_xor_sync(0xffffffffu, val, d);
        exclusive += val;
        if (prefix_lanes) break;
        window -= 32;
      }
      if (lane == 0) publish(&status[tile], kFlagPrefix, exclusive + total);
      WS_T(WS_AT(scan_publish_prefix);)
    }
    if (lane == 0) {
      s_offset = exclusive;
      if (tile == num_tiles - 1) *nres = static_cast<int>(exclusive + total);
    }
  }
  __syncthreads();

  const unsigned int offset = s_offset;
  const unsigned int below = (1u << lane) - 1u;
#pragma unroll
  for (int k = 0; k < ITEMS; ++k)
    if (v[k] > 0) dst[offset + cnt[k * WARPS + warp] + __popc(ballot[k] & below)] = v[k];
  WS_T(WS_AT(scan_store);)
}

unsigned int scan_tiles(std::int64_t n) {
  const std::int64_t tile = std::int64_t(kFilterScanBlock) * kFilterScanItems;
  return static_cast<unsigned int>((n + tile - 1) / tile);
}

/// Scratch of filter_scan: the tile counter (padded to 256 bytes), then one status word per tile.
std::size_t filter_scan_scratch(std::int64_t n) {
  return 256 + std::size_t(scan_tiles(n)) * sizeof(unsigned long long);
}

AtomicsOutcome run_filter_scan(const AtomicsArgs& a) {
  const unsigned int tiles = scan_tiles(a.n);
  if (a.scratch_bytes < filter_scan_scratch(a.n))
    throw std::runtime_error("cs121.filter_scan: scratch buffer too small");
  auto* counter = static_cast<unsigned int*>(a.scratch);
  auto* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(a.scratch) + 256);
  WS_CUDA(cudaMemsetAsync(a.scratch, 0, filter_scan_scratch(a.n), a.stream));
  filter_scan_k<kFilterScanBlock, kFilterScanItems><<<tiles, kFilterScanBlock, 0, a.stream>>>(
      static_cast<int*>(a.out), a.counter, static_cast<const int*>(a.in), as_int(a.n), status, counter, tiles);
  WS_LAUNCHED();
  return {1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.filter_scan_vec. Beyond the slide (seed 003 names Thrust's copy_if only): the tuned form of
// filter_scan, after the habits that make cub.select fast on Hopper.
// Changed from filter_scan:
// - 16-byte loads: each thread reads kFilterScanVecItems / 4 = 8 int4, row r of the tile at
//   tile * (blockDim.x * 32) + r * (blockDim.x * 4) + 4 * t, all issued before the first use (128 bytes
//   in flight per thread). Thread t's kept values of row r are one nibble of a 32-bit mask.
// - The tile is blockIdx.x, as in CUB: blocks are dispatched in index order, so every tile's
//   predecessors are resident or done when it looks back (no tile counter, no atomic before the loads).
// - Two-phase store: each kept value goes first to its rank in a shared staging tile, then the block
//   copies the staging tile out with aligned 16-byte stores (the staging index is shifted by
//   offset % 4 so that staging quads line up with output quads); partial quads at both ends go value
//   by value. The last tile (and one with n % 4 != 0) loads value by value with the bound check.
// - A wait of kFilterLookbackWaitNs after publishing the tile's count, before its first look-back read (so
//   that most predecessors have published their inclusive prefixes by then).
// Ranks: a value's rank is the sum of the (row, warp) counts before it (warp 0 scans them), plus the
// kept values of lower lanes in its row (four ballots, one per int4 component), plus its thread's kept
// values earlier in the same int4. The tile's offset comes from the same decoupled look-back.
// Registers capped for 1280 resident threads per SM (48 per thread, no spills in ptxas -v; 56 uncapped
// gave 1024): 160 KB of loads in flight per SM when every block is in its load phase.
// Turing (sm_75) holds at most 1024 threads per SM, so there the cap asks for 1024.
// The wait between publishing the tile's count (AGGREGATE) and the first look-back read, from 1024 tiles
// on (a grid of one wave is all in flight at once), as scan.decoupled_lookback waits. bench/filter_ab.cu
// times it, building this file again with other waits (filter_ab_wait.cu). H100, 2^28 int32, half kept,
// against cub.select in the same process (5 alternating rounds): block 256 without a wait 1.033x,
// 1245 ns 1.123x, 2500 ns 1.178x; block 128 1.023x / 1.136x / 1.173x, 4000 ns 1.174x
// (docs/device/limit-2026-12-06.md).
constexpr unsigned int kFilterLookbackWaitNs = 2500, kFilterLookbackWaitMinTiles = 1024;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define WS_FILTER_VEC_THREADS_PER_SM 1024
#else
#define WS_FILTER_VEC_THREADS_PER_SM 1280
#endif
template <int BLOCK, int VECS>
__global__ void __launch_bounds__(BLOCK, WS_FILTER_VEC_THREADS_PER_SM / BLOCK)
    filter_scan_vec_k(int* dst, int* nres, const int* src, int n, unsigned long long* status) {
  constexpr int WARPS = BLOCK / 32, COUNTS = VECS * WARPS, TILE = BLOCK * VECS * 4;
  static_assert(COUNTS % 32 == 0 && VECS * 4 <= 32,
                "warp 0 scans COUNTS counts, 32 lanes x PER; one mask bit per value");
  __shared__ unsigned int cnt[COUNTS];   // kept per (row, warp), then their exclusive prefix
  __shared__ int4 stage4[TILE / 4 + 1];  // kept values at rank + offset % 4
  __shared__ unsigned int s_offset, s_total;
  int* stage = reinterpret_cast<int*>(stage4);
  const unsigned int tile = blockIdx.x, num_tiles = gridDim.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const long long base = static_cast<long long>(tile) * TILE;

  int4 v[VECS];
  if (base + TILE <= n) {
    const int4* src4 = reinterpret_cast<const int4*>(src + base);
#pragma unroll
    for (int r = 0; r < VECS; ++r) v[r] = src4[r * BLOCK + threadIdx.x];
    WS_T(WS_AT(svec_load);)
  } else {
#pragma unroll
    for (int r = 0; r < VECS; ++r) {
      const long long i = base + 4LL * (r * BLOCK + threadIdx.x);
      v[r].x = i < n ? src[i] : 0;  // 0 is not kept
      WS_T(WS_AT(svec_load_x);)
      v[r].y = i + 1 < n ? src[i + 1] : 0;
      WS_T(WS_AT(svec_load_y);)
      v[r].z = i + 2 < n ? src[i + 2] : 0;
      WS_T(WS_AT(svec_load_z);)
      v[r].w = i + 3 < n ? src[i + 3] : 0;
      WS_T(WS_AT(svec_load_w);)
    }
  }
  unsigned int mask = 0;  // bit 4r + j: component j of v[r] is kept
#pragma unroll
  for (int r = 0; r < VECS; ++r)
    mask |= ((v[r].x > 0) | (v[r].y > 0) << 1 | (v[r].z > 0) << 2 | (v[r].w > 0) << 3) << (4 * r);
#pragma unroll
  for (int r = 0; r < VECS; ++r) {
    const unsigned int c = warp_sum_all(__popc((mask >> (4 * r)) & 0xfu));
    if (lane == 0) cnt[r * WARPS + warp] = c;
    WS_T(WS_AT(svec_count);)
  }
  __syncthreads();

  if (warp == 0) {
    constexpr int PER = COUNTS / 32;  // exclusive scan of the counts, PER consecutive counts per lane
    unsigned int c[PER], sum = 0;
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      c[q] = cnt[lane * PER + q];
      WS_T(WS_AT(svec_counts);)
      sum += c[q];
    }
    unsigned int incl = sum;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const unsigned int t = __shfl_up_sync(0xffffffffu, incl, d);
      if (lane >= d) incl += t;
    }
    unsigned int run = incl - sum;
#pragma unroll
    for (int q = 0; q < PER; ++q) {
      cnt[lane * PER + q] = run;
      run += c[q];
    }
    const unsigned int total = __shfl_sync(0xffffffffu, incl, 31);

    unsigned int exclusive = 0;  // decoupled look-back, as in filter_scan
    if (tile == 0) {
      if (lane == 0) publish(&status[0], kFlagPrefix, total);
      WS_T(WS_AT(svec_publish_first);)
    } else {
      if (lane == 0) publish(&status[tile], kFlagAggregate, total);
      if (kFilterLookbackWaitNs > 0 && num_tiles >= kFilterLookbackWaitMinTiles) __nanosleep(kFilterLookbackWaitNs);
      long long window = static_cast<long long>(tile) - 1;
      while (true) {
        const long long idx = window - lane;
        unsigned long long s;
        do {
          WS_T(WS_AT_NEXT(svec_peek);)
          s = idx >= 0 ? *reinterpret_cast<volatile unsigned long long*>(&status[idx])
                       : (static_cast<unsigned long long>(kFlagPrefix) << 32);
        } while (__any_sync(0xffffffffu, (s >> 32) == kFlagNone));
        const unsigned int prefix_lanes = __ballot_sync(0xffffffffu, (s >> 32) == kFlagPrefix);
        const int stop = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;
        unsigned int val = lane <= stop ? static_cast<unsigned int>(s) : 0u;
#pragma unroll
        for (int d = 16; d > 0; d /= 2) val += __shfl_xor_sync(0xffffffffu, val, d);
        exclusive += val;
        if (prefix_lanes) break;
        window -= 32;
      }
      if (lane == 0) publish(&status[tile], kFlagPrefix, exclusive + total);
      WS_T(WS_AT(svec_publish_prefix);)
    }
    if (lane == 0) {
      s_offset = exclusive;
      s_total = total;
      if (tile == num_tiles - 1) *nres = static_cast<int>(exclusive + total);
    }
  }
  __syncthreads();

  const unsigned int offset = s_offset, total = s_total, shift = offset % 4;
  const unsigned int below = (1u << lane) - 1u;
#pragma unroll
  for (int r = 0; r < VECS; ++r) {  // phase 1: each kept value to stage[shift + rank in the tile]
    const unsigned int nib = (mask >> (4 * r)) & 0xfu;
    const unsigned int b0 = __ballot_sync(0xffffffffu, nib & 1u), b1 = __ballot_sync(0xffffffffu, nib & 2u);
    const unsigned int b2 = __ballot_sync(0xffffffffu, nib & 4u), b3 = __ballot_sync(0xffffffffu, nib & 8u);
    unsigned int pos = shift + cnt[r * WARPS + warp] + __popc(b0 & below) + __popc(b1 & below) + __popc(b2 & below) +
                       __popc(b3 & below);
    if (nib & 1u) stage[pos++] = v[r].x;
    WS_T(WS_AT(svec_stage_x);)
    if (nib & 2u) stage[pos++] = v[r].y;
    WS_T(WS_AT(svec_stage_y);)
    if (nib & 4u) stage[pos++] = v[r].z;
    WS_T(WS_AT(svec_stage_z);)
    if (nib & 8u) stage[pos] = v[r].w;
    WS_T(WS_AT(svec_stage_w);)
  }
  __syncthreads();

  // phase 2: stage quad q holds dst[offset - shift + 4q ..] (16-byte aligned); values shift .. shift + total.
  const unsigned int end = shift + total, quads = (end + 3) / 4;
  int4* dst4 = reinterpret_cast<int4*>(dst + (offset - shift));
  for (unsigned int q = threadIdx.x; q < quads; q += BLOCK) {
    if (4 * q >= shift && 4 * q + 4 <= end) {
      dst4[q] = stage4[q];
      WS_T(WS_AT(svec_store_quad);)
    } else {
      for (unsigned int j = 4 * q; j < 4 * q + 4; ++j)
        if (j >= shift && j < end) dst[offset - shift + j] = stage[j];
      WS_T(WS_AT(svec_store_end);)
    }
  }
}

unsigned int scan_vec_tiles(std::int64_t n, int block) {
  const std::int64_t tile = std::int64_t(block) * kFilterScanVecItems;
  return static_cast<unsigned int>((n + tile - 1) / tile);
}

/// Scratch of filter_scan_vec: one status word per tile of the smallest block (128 threads).
std::size_t filter_scan_vec_scratch(std::int64_t n) {
  return std::size_t(scan_vec_tiles(n, 128)) * sizeof(unsigned long long);
}

AtomicsOutcome run_filter_scan_vec(const AtomicsArgs& a) {
  const unsigned int tiles = std::max(1u, scan_vec_tiles(a.n, a.block));
  const std::size_t status_bytes = std::size_t(tiles) * sizeof(unsigned long long);
  if (a.scratch_bytes < status_bytes) throw std::runtime_error("cs121.filter_scan_vec: scratch buffer too small");
  if (reinterpret_cast<std::uintptr_t>(a.in) % 16 != 0 || reinterpret_cast<std::uintptr_t>(a.out) % 16 != 0)
    throw std::runtime_error("cs121.filter_scan_vec: input and output must be 16-byte aligned");
  auto* status = static_cast<unsigned long long*>(a.scratch);
  WS_CUDA(cudaMemsetAsync(status, 0, status_bytes, a.stream));
  static_assert(kFilterScanVecItems == 32, "8 int4 per thread");
  auto* dst = static_cast<int*>(a.out);
  const auto* src = static_cast<const int*>(a.in);
  if (a.block == 128)
    filter_scan_vec_k<128, 8><<<tiles, 128, 0, a.stream>>>(dst, a.counter, src, as_int(a.n), status);
  else if (a.block == 256)
    filter_scan_vec_k<256, 8><<<tiles, 256, 0, a.stream>>>(dst, a.counter, src, as_int(a.n), status);
  else
    throw std::runtime_error("cs121.filter_scan_vec: block must be 128 or 256, got " + std::to_string(a.block));
  WS_LAUNCHED();
  return {1};
}

}  // namespace

std::vector<AtomicsLauncherEntry> cs121_atomics_launchers() {
  return {
      {"cs121.race", run_race, nullptr, {}},
      {"cs121.atomic_counter", run_atomic_counter, nullptr, {}},
      {"cs121.hist_global", run_hist_global, nullptr, {}},
      {"cs121.hist_shared", run_hist_shared, nullptr, {}},
      {"cs121.hist_shared_vec", run_hist_shared_vec, nullptr, {}},
      {"cs121.filter_global", run_filter_global, nullptr, {}},
      {"cs121.filter_shared", run_filter_shared, nullptr, {}},
      {"cs121.filter_warp_agg", run_filter_warp_agg, nullptr, {}},
      {"cs121.filter_scan", run_filter_scan, filter_scan_scratch, {}},
      {"cs121.filter_scan_vec",
       run_filter_scan_vec,
       filter_scan_vec_scratch,
       {"per-warp counts with __reduce_add_sync (sm_80 path)",
        "per-warp counts with five __shfl_xor_sync (pre-sm_80 path)"}},
  };
}

}  // namespace ws::kernels
