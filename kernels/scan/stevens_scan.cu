// The scan part of Stevens CS 677 Lecture 6 (Mordohai), "CS 677 Lecture 6", Mordohai,
// in teaching order, each kernel followed by its host launcher: the naive scan, Kogge-Stone with two
// barriers per step, double-buffered Kogge-Stone, and the work-efficient Brent-Kung sequel the slides
// announce ("To be continued"), then a hierarchical scan of any length built from Brent-Kung block scans.
//
// Kernels are templated on the element type T (int or float). An exclusive scan is the inclusive scan of
// the input shifted right by one with 0 in front, so every kernel loads through load_shifted().
// The sim models in app/core/patterns/scan/models_stevens.cpp follow these kernels add for add.
//
// Trace build (WS_T lines, kernels/common/trace_record.cuh): scan_naive, kogge_stone, kogge_stone_db and
// brent_kung (also the first launch of scan_hierarchical) record what their models record, step for step.
// The values a statement read are re-read just after it, before the next barrier: no thread writes them
// in between (Kogge-Stone writes after its second barrier; Brent-Kung's steps write other words than they
// read). Not instrumented: add_back (a later launch of the hierarchical scan; the model traces the first).
// Notes (comments stay out of the kernels, whose lines the Source view shows without the WS_T spans):
// - scan_naive: the model has one step per j of the block's longest prefix (its last thread's), then the
//   store; threads with shorter prefixes set their step counter to the loop's last step before the store.
// - kogge_stone_db: the model gives both buffers' words as indices into the logical array (j, not
//   blockDim + j; the same bank, blockDim being a whole number of warps) and says which buffer in the
//   op's buffer (0 = the first array), so that a read of one and a write of the other are no hazard.
// - brent_kung: the model's store step leaves out the block total (sums[blockIdx.x], hierarchical only).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/dynamic_shared.cuh"
#include "common/trace_record.cuh"
#include "scan/scan_launch.hpp"

namespace ws::kernels {
WS_TRACE_NS_BEGIN
namespace {
WS_T(namespace ws_points = ::ws::trace_points::stevens_scan;)

// x[i] for an inclusive scan, x[i - 1] (0 for i = 0) for an exclusive one; 0 past n.
template <typename T>
__device__ T load_shifted(const T* x, long long i, long long n, bool exclusive) {
  if (exclusive) return i >= 1 && i - 1 < n ? x[i - 1] : T(0);
  return i < n ? x[i] : T(0);
}

int as_int(std::int64_t n) { return static_cast<int>(n); }  // n <= 2^30

template <ScanLauncher ForInt, ScanLauncher ForFloat>
int by_type(const ScanArgs& a) {
  return a.type == DType::Int32 ? ForInt(a) : ForFloat(a);
}

#ifdef WS_TRACE_BUILD
// The models' load step (record_load in models_scan.cpp), element k of the thread's `per`: element k of
// thread t, i = base + t + k blockDim, is read from x[i] (exclusive: x[i - 1]) when that index is in
// 0..n-1 (access k), stored to XY[t + k blockDim] (access per + k); the thread works when i < n.
template <typename T>
__device__ void trace_load(const Cursor& c, const T* x, const T* XY, long long base, int k, int per, long long n,
                           bool exclusive) {
  const int t = threadIdx.x;
  const long long i = base + t + (long long)k * blockDim.x;
  const long long src = exclusive ? i - 1 : i;
  if (src >= 0 && src < n) c.load(Space::Global, k, src, x[src], kInput);
  c.store(Space::Shared, per + k, t + k * blockDim.x, XY[t + k * blockDim.x]);
  if (i < n) c.work();
}

// The models' store step (record_store), element k of the thread's `per`: when i = base + t + k blockDim < n,
// it is read from XY[t + k blockDim] (access k) and written to y[i] (access per + k, the output: buffer 1).
template <typename T>
__device__ void trace_store(const Cursor& c, const T* XY, long long base, int k, int per, long long n) {
  const int t = threadIdx.x;
  const long long i = base + t + (long long)k * blockDim.x;
  if (i >= n) return;
  c.load(Space::Shared, k, t + k * blockDim.x, XY[t + k * blockDim.x]);
  c.store(Space::Global, per + k, i, XY[t + k * blockDim.x], kPartials);
  c.work();
}
#endif

// ---------------------------------------------------------------------------------------------------
// stevens.scan_sequential. Seed 001, slide "A Work Efficient C Implementation". It runs on the host
// (app/core/patterns/scan/reference.cpp, sequential_scan), not on the GPU: n - 1 additions, one pass.
//   y[0] = x[0];
//   for (i = 1; i < Max_i; i++)
//     y[i] = y[i-1] + x[i];

// ---------------------------------------------------------------------------------------------------
// stevens.scan_naive. Seed 001, slide "A Naïve Inclusive Parallel Scan".
// One thread per output element; thread i adds up x[0] .. x[i] itself. Right, and every thread is
// independent, but thread i does i additions: n(n-1)/2 in all (the run is limited to n <= 2^20).
// The warp's threads read the same x[j] together, so each load is one broadcast.
template <typename T>
__global__ void scan_naive(const T* x, T* y, int n, bool exclusive) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int len = exclusive ? i : i + 1;  // elements thread i adds up
  T sum = len > 0 ? x[0] : T(0);
  WS_T(Cursor c; WS_AT(naive_first); c.next(); if (len > 0) c.load(Space::Global, 0, 0, x[0], kInput);)
  for (int j = 1; j < len; ++j) {
    sum += x[j];
    WS_T(WS_AT(naive_add); c.next(); c.load(Space::Global, 0, j, x[j], kInput); c.reg(OpKind::Add, j, sum); c.work();)
  }
  WS_T(const long long last = min((long long)n, (long long)blockIdx.x * blockDim.x + blockDim.x) - 1;)
  WS_T(c.set(int(max(1LL, exclusive ? last : last + 1)) - 1);)
  y[i] = sum;
  WS_T(WS_AT(naive_store); c.next(); c.store(Space::Global, 0, i, sum, kPartials); c.work();)
}

template <typename T>
int run_naive(const ScanArgs& a) {
  scan_naive<T><<<static_cast<unsigned>(a.grid), a.block, 0, a.stream>>>(
      static_cast<const T*>(a.in), static_cast<T*>(a.out), as_int(a.n), a.exclusive);
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.kogge_stone. Seed 001, slides "A Kogge-Stone Parallel Scan Algorithm".
// Changed from naive: partial sums are shared. Each thread loads one element into shared T; at stride
// 1, 2, 4, ... < n, threads stride .. n-1 add T[j - stride] into T[j]. Two barriers per step: the first
// so the inputs are in place, the second so no thread overwrites T[j] while another still reads it.
// One block scans the whole input (the slides use Kogge-Stone within a block, n <= 1024).
template <typename T>
__global__ void kogge_stone(const T* x, T* y, int n, bool exclusive) {
  T* XY = dynamic_shared<T>();
  int j = threadIdx.x;
  XY[j] = load_shifted(x, j, n, exclusive);
  WS_T(Cursor c; WS_AT(ks_load); c.next(); trace_load(c, x, XY, 0, 0, 1, n, exclusive);)
  for (int stride = 1; stride < n; stride *= 2) {
    __syncthreads();  // make sure that input is in place
    T temp = XY[j];
    if (j >= stride && j < n) temp = XY[j] + XY[j - stride];
    WS_T(WS_AT(ks_add); c.next();)
    WS_T(if (j >= stride && j < n) c.load(Space::Shared, 0, j, XY[j]);)
    WS_T(if (j >= stride && j < n) c.load(Space::Shared, 1, j - stride, XY[j - stride]);)
    WS_T(if (j >= stride && j < n) c.reg(OpKind::Add, j - stride, temp);)
    WS_T(if (j >= stride && j < n) c.work();)
    __syncthreads();  // make sure that previous output has been consumed
    if (j >= stride && j < n) XY[j] = temp;
    WS_T(WS_AT(ks_write); if (j >= stride && j < n) c.store(Space::Shared, 2, j, XY[j]);)
  }
  if (j < n) y[j] = XY[j];
  WS_T(WS_AT(ks_store); c.next(); trace_store(c, XY, 0, 0, 1, n);)
}

template <typename T>
int run_kogge_stone(const ScanArgs& a) {
  kogge_stone<T><<<1, a.block, a.block * sizeof(T), a.stream>>>(static_cast<const T*>(a.in), static_cast<T*>(a.out),
                                                                as_int(a.n), a.exclusive);
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.kogge_stone_db. Seed 001, slide "A Double-Buffered Kogge-Stone Parallel Scan Algorithm".
// Changed from kogge_stone: two shared arrays take turns as source and destination, so a write never
// lands where another thread may still read, and one barrier per step is enough. Threads below the
// stride copy their value across (the slide's code leaves this out: the destination would keep a
// value from two steps back).
template <typename T>
__global__ void kogge_stone_db(const T* x, T* y, int n, bool exclusive) {
  T* source = dynamic_shared<T>();
  T* destination = source + blockDim.x;
  int j = threadIdx.x;
  source[j] = load_shifted(x, j, n, exclusive);
  WS_T(Cursor c; WS_AT(ksdb_load); c.next(); trace_load(c, x, source, 0, 0, 1, n, exclusive);)
  for (int stride = 1; stride < n; stride *= 2) {
    __syncthreads();  // make sure that input is in place
    destination[j] = j >= stride && j < n ? source[j] + source[j - stride] : source[j];
    WS_T(const int sb = source == dynamic_shared<T>() ? 0 : 1;)
    WS_T(WS_AT(ksdb_add); c.next();)
    WS_T(if (j < n) c.load(Space::Shared, 0, j, source[j], sb);)
    WS_T(if (j < n && j >= stride) c.load(Space::Shared, 1, j - stride, source[j - stride], sb);)
    WS_T(if (j < n && j >= stride) c.reg(OpKind::Add, j - stride, destination[j]);)
    WS_T(if (j < n && j >= stride) c.work();)
    WS_T(if (j < n) c.store(Space::Shared, 2, j, destination[j], 1 - sb);)
    T* temp = destination;
    destination = source;
    source = temp;
  }
  if (j < n) y[j] = source[j];  // each thread reads back only what it wrote itself
  WS_T(WS_AT(ksdb_store); c.next(); trace_store(c, source, 0, 0, 1, n);)
}

template <typename T>
int run_kogge_stone_db(const ScanArgs& a) {
  kogge_stone_db<T><<<1, a.block, 2 * a.block * sizeof(T), a.stream>>>(
      static_cast<const T*>(a.in), static_cast<T*>(a.out), as_int(a.n), a.exclusive);
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.brent_kung. Seed 001, slide "Work Efficiency Analysis" and its "To be continued" sequel.
// Changed from Kogge-Stone: about 2n additions instead of n log n. Each thread owns two elements of a
// 2 x blockDim section. Up-sweep (a reduction tree): at stride 1, 2, 4, ... thread t adds
// XY[index - stride] into XY[index], index = (t + 1) * 2 * stride - 1. Down-sweep (the reverse tree): at
// stride 2^k / 4 .. 1 thread t adds XY[index] into XY[index + stride]. m = the section's length.
template <typename T>
__device__ void brent_kung_section(T* XY, int m WS_T(, Cursor& c)) {
  for (int stride = 1; stride < m; stride *= 2) {
    __syncthreads();
    int index = (threadIdx.x + 1) * 2 * stride - 1;
    if (index < m) XY[index] += XY[index - stride];
    WS_T(WS_AT(bk_up); c.next();)
    WS_T(if (index < m) c.load(Space::Shared, 0, index - stride, XY[index - stride]);)
    WS_T(if (index < m) c.reg(OpKind::Add, index - stride, XY[index]);)
    WS_T(if (index < m) c.store(Space::Shared, 1, index, XY[index]);)
    WS_T(if (index < m) c.work();)
  }
  int top = 1;
  while (top < m) top *= 2;
  for (int stride = top / 4; stride > 0; stride /= 2) {
    __syncthreads();
    int index = (threadIdx.x + 1) * 2 * stride - 1;
    if (index + stride < m) XY[index + stride] += XY[index];
    WS_T(WS_AT(bk_down); c.next();)
    WS_T(if (index + stride < m) c.load(Space::Shared, 0, index, XY[index]);)
    WS_T(if (index + stride < m) c.reg(OpKind::Add, index, XY[index + stride]);)
    WS_T(if (index + stride < m) c.store(Space::Shared, 1, index + stride, XY[index + stride]);)
    WS_T(if (index + stride < m) c.work();)
  }
  __syncthreads();
}

// One block scans its section of 2 x blockDim elements of x (shifted for exclusive at the first level);
// with `sums`, the block's total goes to sums[blockIdx.x] (the hierarchical scan's first kernel).
template <typename T>
__global__ void brent_kung(const T* x, T* y, long long n, bool exclusive, T* sums) {
  T* XY = dynamic_shared<T>();
  const long long base = 2LL * blockDim.x * blockIdx.x;
  const int m = static_cast<int>(min(2LL * blockDim.x, n - base));
  const int t = threadIdx.x;
  XY[t] = load_shifted(x, base + t, n, exclusive);
  WS_T(Cursor c; WS_AT(bk_load_low); c.next(); trace_load(c, x, XY, base, 0, 2, n, exclusive);)
  XY[t + blockDim.x] = load_shifted(x, base + t + blockDim.x, n, exclusive);
  WS_T(WS_AT(bk_load_high); trace_load(c, x, XY, base, 1, 2, n, exclusive);)
  brent_kung_section(XY, m WS_T(, c));
  if (t < m) y[base + t] = XY[t];
  WS_T(WS_AT(bk_store_low); c.next(); trace_store(c, XY, base, 0, 2, n);)
  if (t + static_cast<int>(blockDim.x) < m) y[base + t + blockDim.x] = XY[t + blockDim.x];
  WS_T(WS_AT(bk_store_high); trace_store(c, XY, base, 1, 2, n);)
  if (sums && t == 0) sums[blockIdx.x] = XY[m - 1];
}

template <typename T>
int run_brent_kung(const ScanArgs& a) {
  brent_kung<T><<<1, a.block, 2 * a.block * sizeof(T), a.stream>>>(static_cast<const T*>(a.in), static_cast<T*>(a.out),
                                                                   a.n, a.exclusive, nullptr);
  WS_LAUNCHED();
  return 1;
}

// ---------------------------------------------------------------------------------------------------
// stevens.scan_hierarchical. Seed 001, slide "Work Efficiency Analysis" (Kogge-Stone and Brent-Kung are
// block scans, "typically used within each block"): any n. (1) brent_kung scans every 2 x blockDim
// section and writes the section totals; (2) the totals are scanned the same way, recursively while
// there is more than one section of them; (3) add_back adds the scanned total of the sections before.
template <typename T>
__global__ void add_back(T* y, long long n, const T* scanned_sums) {
  const long long section = 2LL * blockDim.x;
  const long long i = section * (blockIdx.x + 1) + threadIdx.x;  // block b adds into section b + 1
  const T carry = scanned_sums[blockIdx.x];
  if (i < n) y[i] = y[i] + carry;
  if (i + blockDim.x < n) y[i + blockDim.x] = y[i + blockDim.x] + carry;
}

long long sections(long long n, int block) { return (n + 2LL * block - 1) / (2LL * block); }

// Scratch: the totals of every level, each level rounded up to 4 elements.
std::size_t hierarchical_scratch(std::int64_t n, int block, DType) {
  std::size_t elems = 0;
  for (long long count = sections(n, block); count > 1; count = sections(count, block)) elems += (count + 3) / 4 * 4;
  return elems * 4;
}

template <typename T>
int scan_level(const T* x, T* y, long long n, bool exclusive, T* scratch, int block, cudaStream_t s) {
  const long long count = sections(n, block);
  T* sums = count > 1 ? scratch : nullptr;
  brent_kung<T><<<static_cast<unsigned>(count), block, 2 * block * sizeof(T), s>>>(x, y, n, exclusive, sums);
  WS_LAUNCHED();
  if (count == 1) return 1;
  T* next = scratch + (count + 3) / 4 * 4;
  // In place: each block reads its own section into shared memory before writing it back.
  int launches = 1 + scan_level<T>(sums, sums, count, false, next, block, s);
  add_back<T><<<static_cast<unsigned>(count - 1), block, 0, s>>>(y, n, sums);
  WS_LAUNCHED();
  return launches + 1;
}

template <typename T>
int run_hierarchical(const ScanArgs& a) {
  if (hierarchical_scratch(a.n, a.block, a.type) > a.scratch_bytes)
    throw std::runtime_error("stevens.scan_hierarchical: scratch too small");
  return scan_level<T>(static_cast<const T*>(a.in), static_cast<T*>(a.out), a.n, a.exclusive,
                       static_cast<T*>(a.scratch), a.block, a.stream);
}

}  // namespace

std::vector<ScanLauncherEntry> stevens_scan_launchers() {
  return {
      {"stevens.scan_naive", by_type<run_naive<int>, run_naive<float>>, nullptr},
      {"stevens.kogge_stone", by_type<run_kogge_stone<int>, run_kogge_stone<float>>, nullptr},
      {"stevens.kogge_stone_db", by_type<run_kogge_stone_db<int>, run_kogge_stone_db<float>>, nullptr},
      {"stevens.brent_kung", by_type<run_brent_kung<int>, run_brent_kung<float>>, nullptr},
      {"stevens.scan_hierarchical", by_type<run_hierarchical<int>, run_hierarchical<float>>, hierarchical_scratch},
  };
}

WS_TRACE_ARM_FUNCTION(stevens_scan_arm)
WS_TRACE_NS_END
}  // namespace ws::kernels
