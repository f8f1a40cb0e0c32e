// A/B timing of single-pass decoupled look-back scans of int32 at n = 2^28 (exploration for the bar
// "best scan >= 0.9x cub.scan"; not part of the product: an optional CMake target, bench/CMakeLists.txt).
// Each candidate is checked against a CPU scan (inclusive and exclusive, at 2^28 and at awkward sizes,
// output poisoned first), then timed like the product times it (app/cuda/timing.cpp: events around one
// enqueue, synchronized, median of 20 after 3 warm-ups): our launches enqueue cudaMemsetAsync(tile
// status) + the kernel, cub.scan enqueues cub::DeviceScan::InclusiveSum / ExclusiveSum (its tile-status
// init kernel + its scan kernel), scratch allocated once outside the timed region, as
// kernels/scan/cub_scan.cu does.
// Build and run on the GPU machine: cmake --build --preset device --target ws_scan_ab ws_scan_ab_count,
// then build-device/bench/ws_scan_ab [NAME-PART...] (only the candidates whose names contain one of the
// arguments; all without) (ws_scan_ab_count: the -DWS_COUNT build below).
// Candidates:
//   product B=    the product's kernel (kernels/scan/decoupled_lookback.cu) at block B, launched through
//                 scan_launch.hpp: tile B x 16 (4 rows of B x 4 elements, 128-bit loads); "wait N": the same
//                 source built with an N ns wait before the first look-back read (bench/scan_ab_wait.cu).
//   blk<B,I,L>    CUB's block primitives (BlockLoad, BlockScan WARP_SCANS, BlockStore) with I items per
//                 thread in a blocked arrangement and the product's look-back (kernels/scan/lookback.cuh)
//                 as the block-prefix callback. L: load and store through shared memory (warp-striped ->
//                 blocked transpose, WARP_TRANSPOSE), or direct blocked vector loads (VECTORIZE).
//   +sleep        __nanosleep(ns) before the first look-back window (CUB's sm_90 int tuning sleeps 1245 ns).
//   +bid          tile = blockIdx.x instead of the atomic tile counter.
// -DWS_COUNT: instead of timing, count look-back windows and INVALID re-polls per tile (one run each) of
// the blk candidates: the look-back's Count hook (scan/lookback.cuh); the product's kernel counts nothing.
// Results on the H200: docs/device/h200-scan-lookback.md and docs/device/h200-ab-harnesses.md.
#include <cuda_runtime.h>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "ck.hpp"
#include "scan/lookback.cuh"
#include "scan/scan_launch.hpp"

namespace lb = ws::kernels;
using u64 = unsigned long long;

#ifdef WS_COUNT
// Look-back depth (the counting build): windows read and status polls that found an INVALID predecessor,
// summed over all tiles.
__device__ unsigned long long g_windows, g_invalid_polls;
struct CountLookback {
  __device__ void window() const {
    if ((threadIdx.x & 31) == 0) atomicAdd(&g_windows, 1ull);
  }
  __device__ void repoll() const {
    if ((threadIdx.x & 31) == 0) atomicAdd(&g_invalid_polls, 1ull);
  }
};
using LookbackCount = CountLookback;
#else
using LookbackCount = lb::NoLookbackCount;
#endif

// Warp 0's part of a tile (all 32 lanes call it): lane 0 publishes AGGREGATE, the warp waits SLEEP ns,
// looks back with the product's window loop (scan/lookback.cuh), then lane 0 publishes PREFIX. Returns
// the tile's exclusive prefix in every lane.
template <int SLEEP>
__device__ int look_back(u64* status, unsigned tile, int aggregate) {
  const int lane = threadIdx.x & 31;
  if (tile == 0) {
    if (lane == 0) lb::publish(status, 0, lb::kPrefix, lb::bits_of(aggregate));
    return 0;
  }
  if (lane == 0) lb::publish(status, tile, lb::kAggregate, lb::bits_of(aggregate));
  if (SLEEP > 0) __nanosleep(SLEEP);
  const int exclusive_prefix = lb::look_back_windows<int>(status, tile, LookbackCount{});
  if (lane == 0) lb::publish(status, tile, lb::kPrefix, lb::bits_of(exclusive_prefix + aggregate));
  return exclusive_prefix;
}

// ---- blk<B, I, L>: CUB block primitives + our look-back --------------------------------------------------
template <int SLEEP>
struct LookbackOp {
  u64* status;
  unsigned tile;
  __device__ int operator()(int aggregate) { return look_back<SLEEP>(status, tile, aggregate); }
};

template <int BLOCK, int ITEMS, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA, int SLEEP, bool BID>
__global__ void __launch_bounds__(BLOCK)
    blk_scan(const int* x, int* y, long long n, bool exclusive, u64* status, unsigned* counter) {
  using Load = cub::BlockLoad<int, BLOCK, ITEMS, LA>;
  using Scan = cub::BlockScan<int, BLOCK, cub::BLOCK_SCAN_WARP_SCANS>;
  using Store = cub::BlockStore<int, BLOCK, ITEMS, SA>;
  constexpr int TILE = BLOCK * ITEMS;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } sm;
  __shared__ unsigned tile_s;
  unsigned tile;
  if (BID) {
    tile = blockIdx.x;
  } else {
    if (threadIdx.x == 0) tile_s = atomicAdd(counter, 1u);
    __syncthreads();
    tile = tile_s;
  }
  const long long base = static_cast<long long>(tile) * TILE;
  const bool full_tile = base + TILE <= n;
  const int valid = full_tile ? TILE : static_cast<int>(n - base);
  int v[ITEMS];
  if (full_tile)
    Load(sm.load).Load(x + base, v);
  else
    Load(sm.load).Load(x + base, v, valid, 0);
  __syncthreads();
  LookbackOp<SLEEP> op{status, tile};
  if (exclusive)
    Scan(sm.scan).ExclusiveSum(v, v, op);
  else
    Scan(sm.scan).InclusiveSum(v, v, op);
  __syncthreads();
  if (full_tile)
    Store(sm.store).Store(y + base, v);
  else
    Store(sm.store).Store(y + base, v, valid);
}

// ---- host ---------------------------------------------------------------------------------------------
struct Cand {
  std::string name;
  int tile;
  std::function<void(const int*, int*, long long, bool, u64*, unsigned*, long long, cudaStream_t)> launch;
  bool clears_scratch = false;  ///< the launch enqueues its own status memset (the product's launcher)
};

// The product's copies built with other waits before the first look-back read (bench/scan_ab_wait.cu).
namespace ws::kernels {
std::vector<ScanLauncherEntry> lookback_scan_launchers_wait_1245();
std::vector<ScanLauncherEntry> lookback_scan_launchers_wait_2000();
std::vector<ScanLauncherEntry> lookback_scan_launchers_wait_2500();
std::vector<ScanLauncherEntry> lookback_scan_launchers_wait_3500();
std::vector<ScanLauncherEntry> lookback_scan_launchers_wait_4500();
}  // namespace ws::kernels
using ScanTable = std::vector<ws::kernels::ScanLauncherEntry> (*)();

// The product's kernel (kernels/scan/decoupled_lookback.cu) at block B, through its launcher
// (scan_launch.hpp): what the app times, memset of the tile status included. Scratch: the tile counter
// at byte 0, the statuses from byte 16, as blk_scan uses it. `table`: the product's launcher table, or a
// copy of it built with another wait.
Cand product(const char* name, int B, ScanTable table = ws::kernels::lookback_scan_launchers) {
  ws::kernels::ScanLauncher launch = nullptr;
  for (const auto& e : table())
    if (std::string(e.id) == "scan.decoupled_lookback") launch = e.launch;
  if (!launch) {
    printf("no scan.decoupled_lookback launcher in %s's table\n", name);
    exit(1);
  }
  return {name, B * 4 * 4,
          [launch, B](const int* x, int* y, long long n, bool ex, u64*, unsigned* c, long long tiles, cudaStream_t s) {
            ws::kernels::ScanArgs a;
            a.in = x;
            a.out = y;
            a.n = n;
            a.exclusive = ex;
            a.scratch = c;
            a.scratch_bytes = 16 + std::size_t(tiles) * 8;
            a.block = B;
            a.type = ws::DType::Int32;
            a.stream = s;
            launch(a);
          },
          true};
}

template <int B, int I, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA, int SLEEP, bool BID>
Cand blk(const char* name) {
  return {name, B * I,
          [](const int* x, int* y, long long n, bool ex, u64* st, unsigned* c, long long tiles, cudaStream_t s) {
            blk_scan<B, I, LA, SA, SLEEP, BID><<<unsigned(tiles), B, 0, s>>>(x, y, n, ex, st, c);
          }};
}
constexpr auto WT = cub::BLOCK_LOAD_WARP_TRANSPOSE;
constexpr auto WTS = cub::BLOCK_STORE_WARP_TRANSPOSE;
constexpr auto VL = cub::BLOCK_LOAD_VECTORIZE;
constexpr auto VS = cub::BLOCK_STORE_VECTORIZE;

int main(int argc, char** argv) {
  const long long N = 1ll << 28;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  std::vector<Cand> cands = {
#ifndef WS_COUNT  // the product's kernel does not count
      product("product B=512", 512),
      product("product B=256", 256),
      product("product B=128", 128),
      // The product's kernel with other waits (the product's: 3000 ns; 1245 ns is CUB's).
      product("product B=512 wait 1245", 512, ws::kernels::lookback_scan_launchers_wait_1245),
      product("product B=512 wait 2500", 512, ws::kernels::lookback_scan_launchers_wait_2500),
      product("product B=512 wait 3500", 512, ws::kernels::lookback_scan_launchers_wait_3500),
      product("product B=512 wait 4500", 512, ws::kernels::lookback_scan_launchers_wait_4500),
      product("product B=256 wait 1245", 256, ws::kernels::lookback_scan_launchers_wait_1245),
      product("product B=256 wait 2000", 256, ws::kernels::lookback_scan_launchers_wait_2000),
      product("product B=256 wait 2500", 256, ws::kernels::lookback_scan_launchers_wait_2500),
      product("product B=256 wait 3500", 256, ws::kernels::lookback_scan_launchers_wait_3500),
#endif
      // The product's tile (B x 16 at B = 256) from CUB's block primitives, around the wait before the
      // first look-back read (the product waits 1245 ns).
      blk<256, 16, VL, VS, 0, false>("blk<256,16,VEC>"),
      blk<256, 16, VL, VS, 300, false>("blk<256,16,VEC>+sleep300"),
      blk<256, 16, VL, VS, 600, false>("blk<256,16,VEC>+sleep600"),
      blk<256, 16, VL, VS, 900, false>("blk<256,16,VEC>+sleep900"),
      blk<256, 16, VL, VS, 1245, false>("blk<256,16,VEC>+sleep1245"),
      blk<256, 16, VL, VS, 2000, false>("blk<256,16,VEC>+sleep2000"),
      blk<256, 16, VL, VS, 3000, false>("blk<256,16,VEC>+sleep3000"),
      blk<128, 24, WT, WTS, 0, false>("blk<128,24,WT>"),
      blk<128, 24, WT, WTS, 0, true>("blk<128,24,WT>+bid"),
      blk<128, 24, WT, WTS, 1245, true>("blk<128,24,WT>+bid+sleep1245"),
      blk<128, 24, WT, WTS, 1245, false>("blk<128,24,WT>+sleep1245"),
      blk<128, 16, WT, WTS, 0, false>("blk<128,16,WT>"),
      blk<256, 16, WT, WTS, 0, false>("blk<256,16,WT>"),
      blk<256, 24, WT, WTS, 0, false>("blk<256,24,WT>"),
      blk<128, 32, WT, WTS, 0, false>("blk<128,32,WT>"),
      blk<128, 24, VL, VS, 0, false>("blk<128,24,VEC>"),
  };
  // Arguments: substrings of candidate names; only the candidates that contain one of them run.
  if (argc > 1) {
    std::vector<Cand> chosen;
    for (const Cand& c : cands)
      for (int i = 1; i < argc; ++i)
        if (c.name.find(argv[i]) != std::string::npos) {
          chosen.push_back(c);
          break;
        }
    cands = chosen;
  }
  // Input: random ints in [-1000, 1000]; CPU references (wrapping int32 arithmetic via unsigned).
  std::vector<int> h(N);
  std::mt19937 rng(12345);
  for (auto& e : h) e = int(rng() % 2001) - 1000;
  int *dx, *dy;
  CK(cudaMalloc(&dx, N * 4));
  CK(cudaMalloc(&dy, N * 4));
  CK(cudaMemcpy(dx, h.data(), N * 4, cudaMemcpyHostToDevice));
  size_t max_status = 16 + size_t(N / 128 + 2) * 8;
  void* scratch;
  CK(cudaMalloc(&scratch, max_status));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<int> ref_inc(N), got(N);
  {
    unsigned acc = 0;
    for (long long i = 0; i < N; ++i) {
      acc += unsigned(h[i]);
      ref_inc[i] = int(acc);
    }
  }
  auto check = [&](long long n, bool ex) -> long long {  // returns first bad index or -1
    CK(cudaMemcpy(got.data(), dy, n * 4, cudaMemcpyDeviceToHost));
    for (long long i = 0; i < n; ++i) {
      const int want = ex ? (i ? ref_inc[i - 1] : 0) : ref_inc[i];
      if (got[i] != want) return i;
    }
    return -1;
  };
  auto run_ours = [&](const Cand& c, long long n, bool ex) {
    const long long tiles = (n + c.tile - 1) / c.tile;
    if (!c.clears_scratch) CK(cudaMemsetAsync(scratch, 0, 16 + tiles * 8, s));
    c.launch(dx, dy, n, ex, reinterpret_cast<u64*>(static_cast<char*>(scratch) + 16), static_cast<unsigned*>(scratch),
             tiles, s);
  };
  // CUB scratch once (max of inclusive and exclusive), as cub_scan.cu.
  size_t cub_inc = 0, cub_exc = 0;
  CK(cub::DeviceScan::InclusiveSum(nullptr, cub_inc, dx, dy, int(N)));
  CK(cub::DeviceScan::ExclusiveSum(nullptr, cub_exc, dx, dy, int(N)));
  size_t cub_bytes = std::max(cub_inc, cub_exc);
  void* cub_tmp;
  CK(cudaMalloc(&cub_tmp, cub_bytes));
  auto run_cub = [&](long long n, bool ex) {
    size_t b = cub_bytes;
    if (ex)
      CK(cub::DeviceScan::ExclusiveSum(cub_tmp, b, dx, dy, int(n), s));
    else
      CK(cub::DeviceScan::InclusiveSum(cub_tmp, b, dx, dy, int(n), s));
  };
  auto time_it = [&](const std::function<void()>& enqueue) { return median_of_20_ms(s, e0, e1, enqueue); };
  // Copy ceiling: device-to-device copy of 1 GiB (read + write).
  const float copy_ms = time_it([&] { CK(cudaMemcpyAsync(dy, dx, N * 4, cudaMemcpyDeviceToDevice, s)); });
  printf("copy D2D 2^28 int32: %.4f ms = %.0f GB/s (read+write)\n", copy_ms, 2.0 * N * 4 / copy_ms / 1e6);

#ifdef WS_COUNT
  // Look-back depth per tile at 2^28, inclusive, one run each (the counting atomics slow the kernels down).
  for (const Cand& c : cands) {
    const unsigned long long zero = 0;
    CK(cudaMemcpyToSymbol(g_windows, &zero, 8));
    CK(cudaMemcpyToSymbol(g_invalid_polls, &zero, 8));
    run_ours(c, N, false);
    CK(cudaStreamSynchronize(s));
    unsigned long long wnd = 0, inv = 0;
    CK(cudaMemcpyFromSymbol(&wnd, g_windows, 8));
    CK(cudaMemcpyFromSymbol(&inv, g_invalid_polls, 8));
    const double tiles = double((N + c.tile - 1) / c.tile);
    printf("depth %-32s windows/tile %.2f  invalid re-polls/tile %.2f\n", c.name.c_str(), wnd / tiles, inv / tiles);
  }
  return 0;
#endif
  const long long sizes[] = {1, 31, 4095, 4097, 3072 * 5 + 7, 100003, (1 << 20) + 3, (1 << 24) - 1, N};
  auto verify = [&](const std::function<void(long long, bool)>& run, std::string& bad) {
    for (long long n : sizes)
      for (bool ex : {false, true}) {
        CK(cudaMemset(dy, 0xff, n * 4));
        CK(cudaDeviceSynchronize());
        run(n, ex);
        CK(cudaStreamSynchronize(s));
        CK(cudaGetLastError());
        const long long i = check(n, ex);
        if (i >= 0) {
          bad += " n=" + std::to_string(n) + (ex ? " exc" : " inc") + " out[" + std::to_string(i) + "]";
          return;
        }
      }
  };
  std::string cub_bad;
  verify(run_cub, cub_bad);
  printf("cub.scan check: %s\n", cub_bad.empty() ? "ok" : cub_bad.c_str());
  float cub_ms[2] = {time_it([&] { run_cub(N, false); }), time_it([&] { run_cub(N, true); })};
  printf("cub.scan: inclusive %.4f ms, exclusive %.4f ms\n", cub_ms[0], cub_ms[1]);
  struct Row {
    std::string name, check;
    float ms[2];
  };
  std::vector<Row> rows_out;
  for (const Cand& c : cands) {
    Row r{c.name, "", {0, 0}};
    verify([&](long long n, bool ex) { run_ours(c, n, ex); }, r.check);
    for (int m = 0; m < 2; ++m) r.ms[m] = time_it([&] { run_ours(c, N, m == 1); });
    rows_out.push_back(r);
    printf("%-32s inc %.4f ms (%.3fx)  exc %.4f ms (%.3fx)  check %s\n", c.name.c_str(), r.ms[0], cub_ms[0] / r.ms[0],
           r.ms[1], cub_ms[1] / r.ms[1], r.check.empty() ? "ok" : r.check.c_str());
    fflush(stdout);
  }
  // CUB again at the end: the spread between the two CUB measurements is the noise floor.
  float cub_ms2[2] = {time_it([&] { run_cub(N, false); }), time_it([&] { run_cub(N, true); })};
  printf("cub.scan again: inclusive %.4f ms, exclusive %.4f ms\n", cub_ms2[0], cub_ms2[1]);
  // Second timing of every candidate (spread).
  printf(
      "\n| candidate | tile | inc ms | x CUB | exc ms | x CUB | inc ms (2nd) | check "
      "|\n|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (size_t i = 0; i < cands.size(); ++i) {
    const float again = time_it([&] { run_ours(cands[i], N, false); });
    const Row& r = rows_out[i];
    printf("| %s | %d | %.4f | %.3f | %.4f | %.3f | %.4f | %s |\n", r.name.c_str(), cands[i].tile, r.ms[0],
           cub_ms[0] / r.ms[0], r.ms[1], cub_ms[1] / r.ms[1], again, r.check.empty() ? "ok" : r.check.c_str());
  }
  printf("| cub.scan | - | %.4f / %.4f | 1 | %.4f / %.4f | 1 | | %s |\n", cub_ms[0], cub_ms2[0], cub_ms[1], cub_ms2[1],
         cub_bad.empty() ? "ok" : cub_bad.c_str());
  return 0;
}
