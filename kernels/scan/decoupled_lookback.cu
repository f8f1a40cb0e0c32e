// A single-pass scan with decoupled look-back, after D. Merrill and M. Garland, "Single-pass Parallel
// Prefix Scan with Decoupled Look-back" (NVIDIA technical report NVR-2016-002, 2016). Written for this
// project from the paper's description; the sim model in app/core/patterns/scan/models_stevens.cpp follows it.
// No instrumented build (no GPU-recorded traces: what a look-back reads depends on timing): the WS_AT
// markers only name the statements whose lines the sim model puts in its trace.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/trace_record.cuh"
#include "common/vec4.cuh"
#include "scan/lookback.cuh"
#include "scan/scan_launch.hpp"

namespace ws::kernels {
namespace {
WS_T(namespace ws_points = ::ws::trace_points::decoupled_lookback;)

constexpr int kRows = 4, kVec = 4;  // a thread's 16 elements: 4 rows of one 128-bit vector each
// The wait between publishing a tile's AGGREGATE and its first look-back read, and the grid size from
// which it applies. Read at once, a window often holds a predecessor that has published nothing yet:
// at block 256 and 2^28 int32 a tile re-polled its window 10.5 times and read 3.1 windows on average;
// after the wait, 2.6 re-polls and 2.7 windows. The polls of ~1000 resident blocks presumably compete
// with the data for L2 (not profiled). H200, 2^28 int32, block 256: 0.815 ms without the wait,
// 0.679-0.686 ms with it (cub.scan 0.69-0.70 ms in the same process; docs/device/h200-scan-lookback.md).
// 1245 ns was CUB's wait (its sm_90 tuning for 4-byte sums, fixed_delay_constructor_t<648, 1245>); 3000 ns
// at 512 threads (tiles of 8192) is ours, timed beside the others in bench/scan_ab.cu, which builds this
// file again with other waits (scan_ab_wait.cu). H100, 2^28 int32 against cub.scan in
// the same process: block 256 wait 1245 0.998x, 2000 0.997x, 3000 1.049x, 4500 0.941x; block 512 wait
// 1245 1.033x, 3000 1.094x, 4500 0.870x (docs/device/limit-2026-12-06.md; __nanosleep sleeps between 0
// and twice the time asked, so the curve is not smooth). Only from kLookbackWaitMinTiles (1024) tiles on
// (CUB waits from 500): a smaller grid is about one wave of resident blocks (512 threads: 4 per SM, 528 on
// a 132-SM Hopper), all in flight at once, and the wait is pure latency: H100, n = 2^22 (512 tiles of
// 8192), 0.907x cub.scan waiting from 500 tiles, 0.994x from 1024.
constexpr unsigned kLookbackWaitNs = 3000;
constexpr unsigned kLookbackWaitMinTiles = 1024;

// ---------------------------------------------------------------------------------------------------
// scan.decoupled_lookback. Merrill and Garland (2016), "Single-pass Parallel Prefix Scan with
// Decoupled Look-back". Changed from the hierarchical scan: one launch, every element read once and
// written once. Each block takes the next tile number from a counter (so every tile it waits for has
// already started), loads its 4 rows of blockDim x 4 elements with 128-bit loads, scans them in
// registers and warp shuffles, publishes its tile total at once (AGGREGATE), waits about 3 microseconds
// (kLookbackWaitNs), then warp 0 looks back over the 32 preceding tiles at a time, adding their
// published values up to the nearest one that has published its inclusive prefix (PREFIX). The tile
// then publishes its own inclusive prefix.
template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) lookback_scan(const T* x, T* y, long long n, bool exclusive,
                                                       unsigned long long* status, unsigned* tile_counter) {
  constexpr int W = BLOCK / 32, TILE = BLOCK * kRows * kVec;
  using V = typename Vec4<T>::type;
  __shared__ T warp_total[kRows * W];
  __shared__ T warp_prefix[kRows * W];
  __shared__ T tile_aggregate, tile_prefix;
  __shared__ unsigned tile_s;
  const int t = threadIdx.x, lane = t & 31, w = t >> 5;
  const unsigned full = 0xffffffffu;

  if (t == 0) tile_s = atomicAdd(tile_counter, 1u);
  __syncthreads();
  const unsigned tile = tile_s;
  const long long base = static_cast<long long>(tile) * TILE;

  // Load: row k of the tile is blockDim x 4 consecutive elements; thread t holds 4 of them.
  T v[kRows][kVec];
  if (base + TILE <= n) {
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
      const V q = reinterpret_cast<const V*>(x + base + static_cast<long long>(k) * BLOCK * kVec)[t];
      WS_T(WS_AT(dl_load_vec);)
      v[k][0] = q.x;
      v[k][1] = q.y;
      v[k][2] = q.z;
      v[k][3] = q.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < kRows; ++k)
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        const long long i = base + static_cast<long long>(k) * BLOCK * kVec + t * kVec + e;
        v[k][e] = i < n ? x[i] : T(0);
        WS_T(WS_AT(dl_load);)
      }
  }

  // Thread sums, then inclusive warp scans of them (Kogge-Stone over the 32 lanes), four rows at once.
  T s[kRows];
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    s[k] = v[k][0];
#pragma unroll
    for (int e = 1; e < kVec; ++e) s[k] = s[k] + v[k][e];
    WS_T(WS_AT(dl_thread_sum);)
  }
#pragma unroll
  for (int off = 1; off < 32; off *= 2) {
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
      const T o = __shfl_up_sync(full, s[k], off);
      WS_T(WS_AT(dl_shfl);)
      if (lane >= off) s[k] = o + s[k];
      WS_T(WS_AT(dl_warp_add);)
    }
  }
  if (lane == 31)
#pragma unroll
    for (int k = 0; k < kRows; ++k) warp_total[k * W + w] = s[k];
  WS_T(WS_AT(dl_warp_total);)
  __syncthreads();

  if (w == 0) {
    // The 4 x W warp totals in tile order, scanned by one thread: each warp's exclusive prefix.
    if (lane == 0) {
      T running = warp_total[0];
      warp_prefix[0] = T(0);
      for (int q = 1; q < kRows * W; ++q) {
        warp_prefix[q] = running;
        running = running + warp_total[q];
        WS_T(WS_AT(dl_block_scan);)
      }
      tile_aggregate = running;
    }
    __syncwarp();
    const T aggregate = tile_aggregate;
    T exclusive_prefix = T(0);
    if (tile == 0) {
      if (lane == 0) publish(status, 0, kPrefix, bits_of(aggregate));
      WS_T(WS_AT(dl_publish_first);)
    } else {
      if (lane == 0) publish(status, tile, kAggregate, bits_of(aggregate));
      // Let the predecessors publish PREFIX first.
      if (gridDim.x >= kLookbackWaitMinTiles) __nanosleep(kLookbackWaitNs);
      // Look back a warp-wide window at a time (scan/lookback.cuh): lane l reads tile (tile - 1 - l), again
      // while a lane finds INVALID, and the window's values up to the nearest PREFIX are summed.
      exclusive_prefix = look_back_windows<T>(status, tile);
      WS_T(WS_AT(dl_peek);)
      if (lane == 0) publish(status, tile, kPrefix, bits_of(exclusive_prefix + aggregate));
      WS_T(WS_AT(dl_publish_prefix);)
    }
    if (lane == 0) tile_prefix = exclusive_prefix;
  }
  __syncthreads();

  // Each element's prefix: the tile's, the warp's, the lane's (the lane before it in the warp scan),
  // then a serial walk over the thread's 4 values.
  const T tp = tile_prefix;
  T out[kRows][kVec];
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    T p = tp + warp_prefix[k * W + w];
    WS_T(WS_AT(dl_tile_prefix);)
    const T before = __shfl_up_sync(full, s[k], 1);
    if (lane > 0) p = p + before;
    WS_T(WS_AT(dl_lane_prefix);)
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      const T incl = p + v[k][e];
      WS_T(WS_AT(dl_incl);)
      out[k][e] = exclusive ? p : incl;
      p = incl;
    }
  }
  if (base + TILE <= n) {
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
      V q;
      q.x = out[k][0];
      q.y = out[k][1];
      q.z = out[k][2];
      q.w = out[k][3];
      reinterpret_cast<V*>(y + base + static_cast<long long>(k) * BLOCK * kVec)[t] = q;
      WS_T(WS_AT(dl_store_vec);)
    }
  } else {
#pragma unroll
    for (int k = 0; k < kRows; ++k)
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        const long long i = base + static_cast<long long>(k) * BLOCK * kVec + t * kVec + e;
        if (i < n) y[i] = out[k][e];
        WS_T(WS_AT(dl_store);)
      }
  }
}

long long tiles_of(std::int64_t n, int block) { return (n + block * kRows * kVec - 1) / (block * kRows * kVec); }

// Scratch: the tile counter (16 bytes, keeps the status words 16-byte aligned), then one status word per tile.
std::size_t lookback_scratch(std::int64_t n, int block, DType) {
  return 16 + static_cast<std::size_t>(tiles_of(n, block)) * sizeof(unsigned long long);
}

template <typename T, int BLOCK>
void launch_block(const ScanArgs& a, long long tiles) {
  auto* counter = static_cast<unsigned*>(a.scratch);
  auto* status = reinterpret_cast<unsigned long long*>(static_cast<char*>(a.scratch) + 16);
  lookback_scan<T, BLOCK><<<static_cast<unsigned>(tiles), BLOCK, 0, a.stream>>>(
      static_cast<const T*>(a.in), static_cast<T*>(a.out), a.n, a.exclusive, status, counter);
  WS_LAUNCHED();
}

template <typename T>
int run_lookback(const ScanArgs& a) {
  const long long tiles = tiles_of(a.n, a.block);
  if (lookback_scratch(a.n, a.block, a.type) > a.scratch_bytes)
    throw std::runtime_error("scan.decoupled_lookback: scratch too small");
  if (reinterpret_cast<std::uintptr_t>(a.in) % 16 || reinterpret_cast<std::uintptr_t>(a.out) % 16)
    throw std::runtime_error("scan.decoupled_lookback: input and output must be 16-byte aligned");
  // Every tile status starts INVALID and the tile counter at 0.
  WS_CUDA(cudaMemsetAsync(a.scratch, 0, lookback_scratch(a.n, a.block, a.type), a.stream));
  switch (a.block) {
    case 128: launch_block<T, 128>(a, tiles); break;
    case 256: launch_block<T, 256>(a, tiles); break;
    case 512: launch_block<T, 512>(a, tiles); break;
    default:
      throw std::runtime_error("scan.decoupled_lookback: block must be 128, 256 or 512, got " +
                               std::to_string(a.block));
  }
  return 1;
}

template <ScanLauncher ForInt, ScanLauncher ForFloat>
int by_type(const ScanArgs& a) {
  return a.type == DType::Int32 ? ForInt(a) : ForFloat(a);
}

}  // namespace

std::vector<ScanLauncherEntry> lookback_scan_launchers() {
  return {{"scan.decoupled_lookback", by_type<run_lookback<int>, run_lookback<float>>, lookback_scratch}};
}

}  // namespace ws::kernels
