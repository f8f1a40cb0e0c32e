// Sum reductions of "Code Optimizations" (Jiri Filipovic, Fall 2020, after Mark Harris's
// "Optimizing Parallel Reduction in CUDA"): "Code Optimizations", Filipovic, Fall 2020.
//
// Teaching order: the naive pairwise launches, the shared-memory multi-pass scheme
// ("Exploiting Data Locality"), then Implementations 1..7, each changing one thing.
//
// One change applies to every kernel of the slides: they store a block's sum in place,
// `v[blockIdx.x] = sv[0]`, into the array they are reading. Blocks run in no fixed order, so
// block b may write v[b] before block 0 (whose window holds v[b] for b < blockDim.x) has loaded
// it: a race the slides do not mention. Here each pass writes its per-block sums to the other
// half of a scratch buffer instead (ping-pong between two halves), and the launcher relaunches
// the same kernel on those sums until one value is left. The kernels' indexing, synchronization
// and launch shape are otherwise the slides'.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/dynamic_shared.cuh"
#include "common/trace_record.cuh"
#include "reduction/reduce_launch.hpp"

namespace ws::kernels {
WS_TRACE_NS_BEGIN
namespace {
WS_T(namespace ws_points = ::ws::trace_points::harris;)

// ---------------------------------------------------------------------------------------------
// Shared helpers

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t round_up_to(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }

/// Picks the int32 or float32 instantiation of a launcher.
template <ReduceOutcome (*RunInt)(const ReduceArgs&), ReduceOutcome (*RunFloat)(const ReduceArgs&)>
ReduceOutcome by_type(const ReduceArgs& a) {
  return a.type == DType::Int32 ? RunInt(a) : RunFloat(a);
}

/// Runs a one-sum-per-block kernel pass after pass until one value is left.
/// Pass 1 reads a.data with grid a.grid; every later pass reads the previous pass's block sums
/// from one half of scratch and writes its own to the other half, with ceil(m / window) blocks.
/// `pad`: the kernel loads its whole window unguarded (v[i], v[i + blockDim.x]), so the tail of
/// each destination beyond its m sums is zeroed up to the next pass's window (memsets are not
/// counted as launches). `launch(src, dst, m, grid)` enqueues one pass on a.stream.
template <typename T, typename Launch>
ReduceOutcome run_passes(const ReduceArgs& a, const char* id, std::int64_t window, bool pad, Launch launch) {
  const std::int64_t half = a.scratch_elems / 2;
  if (round_up_to(a.grid, window) > half)
    throw std::runtime_error(std::string(id) + ": scratch of " + std::to_string(a.scratch_elems) +
                             " elements is too small for " + std::to_string(a.grid) + " block sums");
  T* halves[2] = {static_cast<T*>(a.scratch), static_cast<T*>(a.scratch) + half};
  const T* src = static_cast<const T*>(a.data);
  std::int64_t m = a.n;  // values the next pass reduces
  std::int64_t grid = a.grid;
  int h = 0, launches = 0;
  do {
    T* dst = halves[h];
    const std::int64_t sums = grid;  // one per block
    if (pad && sums > 1 && round_up_to(sums, window) > sums)
      WS_CUDA(cudaMemsetAsync(dst + sums, 0, std::size_t(round_up_to(sums, window) - sums) * sizeof(T), a.stream));
    launch(src, dst, m, grid);
    ++launches;
    src = dst;
    h ^= 1;
    m = sums;
    grid = ceil_div(m, window);
  } while (m > 1);
  return ReduceOutcome{src, 1, launches};
}

/// Non-grid-stride kernels need exactly one block per window (the registry resolves it so).
void expect_grid(const ReduceArgs& a, const char* id, std::int64_t window) {
  if (a.grid != ceil_div(a.n, window))
    throw std::runtime_error(std::string(id) + ": grid " + std::to_string(a.grid) + " does not match ceil(n / " +
                             std::to_string(window) + ") = " + std::to_string(ceil_div(a.n, window)));
}

std::size_t smem_bytes(const ReduceArgs& a, std::size_t elem) { return std::size_t(a.block) * elem; }

#ifdef WS_TRACE_BUILD
// Trace build (WS_T lines, trace_record.cuh): each kernel records what its model in
// app/core/patterns/reduction/models_harris.cpp records, step for step. Notes on the less obvious spans:
// - harris.naive: the model traces block trace_block of every launch (one step per tree level), so
//   run_naive re-enables recording after each launch, and launch k (stride s = 2^k) sets step k.
// - last_warp_volatile: one step per line; the value a line reads, s[tid + off], is re-read just
//   before it (in lock-step, what the line reads: the models' assumption). `from_shared`
//   (Implementations 6 and 7 pass sv[tid] as mySum): the first step also records that read of
//   sv[tid] (access 0), as the models do.
// - harris.impl5_shfl: a shadow __shfl_down_sync, just before the slide's, receives the same value;
//   past lane 31 it is the lane's own mySum (the model's source lane is then the lane itself).
// - harris.impl7: thread 0 makes the most iterations of the grid-stride loop; threads that stop
//   earlier re-align their step counter after it (Cursor::set).

/// Trace of `sv[tid] = v[i]` (Implementations 1-3) as the models' load_one: load v[i] (access 0),
/// store sv[tid] (access 1), the working mark.
__device__ void record_load_one(const Cursor& c, long long i, unsigned int tid, double value) {
  c.load(Space::Global, 0, i, value, kInput);
  c.store(Space::Shared, 1, tid, value);
  c.work();
}

/// Trace of `sv[tid] = v[i] + v[i + blockDim.x]` (Implementations 4-7's load) as the models' load_two:
/// load v[i] (access 0), load v[i + blockDim.x] (access 1), the add, store sv[tid] (access 2).
__device__ void record_load_two(const Cursor& c, long long i, long long i2, unsigned int tid, double x, double y,
                                double sum) {
  c.load(Space::Global, 0, i, x, kInput);
  c.load(Space::Global, 1, i2, y, kInput);
  c.reg(OpKind::Add, i2, sum);
  c.store(Space::Shared, 2, tid, sum);
  c.work();
}

/// Trace of `if (tid == 0) out[blockIdx.x] = sv[0]` as the models' store_sv0: load sv[0] (access 0),
/// store out[blockIdx.x] (access 1, the partials), the working mark.
__device__ void record_store_sv0(const Cursor& c, double value) {
  c.load(Space::Shared, 0, 0, value);
  c.store(Space::Global, 1, blockIdx.x, value, kPartials);
  c.work();
}

/// Trace of `s[tid] = mySum = mySum + s[other]` (Implementation 5's tree and every line of the last
/// warp) as the models record it: load s[other] (access `a`), the register add, store s[tid]
/// (access a + 1), the working mark. `got`: the value read; `sum`: mySum after the line.
__device__ void record_register_add(const Cursor& c, int a, unsigned int tid, unsigned int other, double got,
                                    double sum) {
  c.load(Space::Shared, a, other, got);
  c.reg(OpKind::Add, other, sum);
  c.store(Space::Shared, a + 1, tid, sum);
  c.work();
}

/// Trace of Implementation 7's `sv[tid] += v[i] + v[i2]` (i2 = i + blockSize) as the model records it:
/// load v[i] (access 0), load v[i2] (access 1), their add, load sv[tid] (access 2), the add into it,
/// store sv[tid] (access 3), the working mark (the right-hand side first, as C++17 sequences `a += b`).
__device__ void record_pair_add(const Cursor& c, long long i, long long i2, unsigned int tid, double x, double y,
                                double pair, double old, double sum) {
  c.load(Space::Global, 0, i, x, kInput);
  c.load(Space::Global, 1, i2, y, kInput);
  c.reg(OpKind::Add, i2, pair);
  c.load(Space::Shared, 2, tid, old);
  c.reg(OpKind::Add, tid, sum);
  c.store(Space::Shared, 3, tid, sum);
  c.work();
}
#endif

// ---------------------------------------------------------------------------------------------
// harris.naive
// "Code Optimizations", Filipovic, Fall 2020, slide "Naive Approach": "for even i perform v[i] += v[i+1];
// repeat for n/2". Launch k (stride s = 2^k) gives one thread to every pair (i, i + s) with
// i = 2*s*t, in place in global memory; the kernel boundary is the global barrier between
// steps. 2n loads, n stores, log2 n launches: three memory accesses per addition.

template <typename T>
__global__ void naive_step(T* v, unsigned int n, unsigned int s) {
  unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
  // 64-bit: in the last launches (s near n) idle threads' 2*s*t passes 2^32.
  unsigned long long i = 2ull * s * t;
  WS_T(Cursor c; c.set(31 - __clz(s)); const bool works = i + s < n && c.on(); double x = 0, y = 0;)
  WS_T(if (works) x = v[i];)
  WS_T(if (works) y = v[i + s];)
  if (i + s < n)
    v[i] += v[i + s];
  WS_T(WS_AT(naive_add);)
  WS_T(if (works) c.load(Space::Global, 0, i, x, kInput);)
  WS_T(if (works) c.load(Space::Global, 1, i + s, y, kInput);)
  WS_T(if (works) c.reg(OpKind::Add, i + s, v[i]);)
  WS_T(if (works) c.store(Space::Global, 2, i, v[i], kInput);)
  WS_T(if (works) c.work();)
}

/// Pairwise sums in place, one launch per tree level; the answer ends in a.data[0].
template <typename T>
ReduceOutcome run_naive(const ReduceArgs& a) {
  expect_grid(a, "harris.naive", 2 * std::int64_t(a.block));
  T* v = static_cast<T*>(a.data);
  const unsigned int n = static_cast<unsigned int>(a.n);
  int launches = 0;
  for (unsigned int s = 1; s < n; s *= 2) {
    const std::int64_t pairs = ceil_div(n, 2 * std::int64_t(s));
    const unsigned int grid = static_cast<unsigned int>(launches == 0 ? a.grid : ceil_div(pairs, a.block));
    naive_step<T><<<grid, a.block, 0, a.stream>>>(v, n, s);
    WS_LAUNCHED();
    WS_T(ws_trace_set_enabled(true); /* the model traces block trace_block of every launch */)
    ++launches;
  }
  return ReduceOutcome{v, 1, launches};
}

// ---------------------------------------------------------------------------------------------
// harris.multipass
// "Code Optimizations", Filipovic, Fall 2020, slide "Exploiting Data Locality".
// Changed from the naive approach: each block loads m = blockDim.x numbers into shared memory
// once, reduces them there in log2 m steps and stores a single number, so a pass reads n and
// writes n/m values, and log_m n launches replace log2 n. The slide gives no code: the tree
// uses sequential addressing, and the load is guarded so no padding is needed.

template <typename T>
__global__ void multipass_block_sums(const T* v, T* out, unsigned int count) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sv[tid] = i < count ? v[i] : T(0);
  WS_T(Cursor c; WS_AT(multipass_load); c.next();)
  WS_T(if (i < count) c.load(Space::Global, 0, i, v[i], kInput);)
  WS_T(if (i < count) c.work();)
  WS_T(c.store(Space::Shared, 1, tid, sv[tid]);)
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    WS_T(c.next(); auto sh = c.before(tid < s, sv, tid, tid + s);)
    if (tid < s)
      sv[tid] += sv[tid + s];
    WS_T(WS_AT(multipass_tree); c.after(sh, sv[tid]);)
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sv[0];
  WS_T(WS_AT(multipass_commit); c.next(); if (tid == 0) record_store_sv0(c, sv[0]);)
}

/// One sum per block in shared memory, relaunched on the block sums until one is left.
template <typename T>
ReduceOutcome run_multipass(const ReduceArgs& a) {
  const std::int64_t window = a.block;
  expect_grid(a, "harris.multipass", window);
  return run_passes<T>(a, "harris.multipass", window, false,
                       [&](const T* src, T* dst, std::int64_t m, std::int64_t grid) {
                         multipass_block_sums<T><<<unsigned(grid), a.block, smem_bytes(a, sizeof(T)), a.stream>>>(
                             src, dst, unsigned(m));
                         WS_LAUNCHED();
                       });
}

// ---------------------------------------------------------------------------------------------
// harris.impl1
// "Code Optimizations", Filipovic, Fall 2020, slide "Implementation 1" (GTX 280: 3.77 GB/s).
// The first code of the multi-pass scheme: interleaved addressing, the active threads are those
// with tid % (2*s) == 0. Every warp stays busy with a few active lanes (divergence), and `%` is
// slow. The load is unguarded: a.data and the later passes' inputs are zero-padded to a whole
// block.

template <typename T>
__global__ void impl1(const T* v, T* out) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sv[tid] = v[i];
  WS_T(Cursor c; WS_AT(impl1_load); c.next(); record_load_one(c, i, tid, sv[tid]);)
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    WS_T(c.next(); auto sh = c.before(tid % (2 * s) == 0, sv, tid, tid + s);)
    if (tid % (2 * s) == 0)
      sv[tid] += sv[tid + s];
    WS_T(WS_AT(impl1_tree); c.after(sh, sv[tid]);)
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sv[0];  // the slide: v[blockIdx.x] = sv[0] (in place, racy; see the top)
  WS_T(WS_AT(impl1_commit); c.next(); if (tid == 0) record_store_sv0(c, sv[0]);)
}

// ---------------------------------------------------------------------------------------------
// harris.impl2
// "Code Optimizations", Filipovic, Fall 2020, slide "Implementation 2" (GTX 280: 8.33 GB/s).
// Changed from Implementation 1: thread tid works on index = 2*s*tid, so the active threads are
// consecutive (whole warps idle instead of every warp diverging) and the modulo is gone. The
// stride-2s accesses now hit the same shared-memory banks: bank conflicts.

template <typename T>
__global__ void impl2(const T* v, T* out) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sv[tid] = v[i];
  WS_T(Cursor c; WS_AT(impl2_load); c.next(); record_load_one(c, i, tid, sv[tid]);)
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    unsigned int index = 2 * s * tid;  // the slide's `int index`; unsigned to compare with blockDim.x
    WS_T(c.next(); auto sh = c.before(index < blockDim.x, sv, index, index + s);)
    if (index < blockDim.x)
      sv[index] += sv[index + s];
    WS_T(WS_AT(impl2_tree); c.after(sh, index < blockDim.x ? sv[index] : T(0));)
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sv[0];
  WS_T(WS_AT(impl2_commit); c.next(); if (tid == 0) record_store_sv0(c, sv[0]);)
}

// ---------------------------------------------------------------------------------------------
// harris.impl3
// "Code Optimizations", Filipovic, Fall 2020, slide "Implementation 3" (GTX 280: 16.34 GB/s).
// Changed from Implementation 2: sequential addressing. The stride starts at half the block and
// halves; thread tid adds sv[tid + s], so a warp reads consecutive words: no divergence and no
// bank conflicts. Still, half of the threads never add anything after the load.

template <typename T>
__global__ void impl3(const T* v, T* out) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sv[tid] = v[i];
  WS_T(Cursor c; WS_AT(impl3_load); c.next(); record_load_one(c, i, tid, sv[tid]);)
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    WS_T(c.next(); auto sh = c.before(tid < s, sv, tid, tid + s);)
    if (tid < s)
      sv[tid] += sv[tid + s];
    WS_T(WS_AT(impl3_tree); c.after(sh, sv[tid]);)
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sv[0];
  WS_T(WS_AT(impl3_commit); c.next(); if (tid == 0) record_store_sv0(c, sv[0]);)
}

// ---------------------------------------------------------------------------------------------
// harris.impl4
// "Code Optimizations", Filipovic, Fall 2020, slide "Implementation 4" (GTX 280: 27.16 GB/s).
// Changed from Implementation 3: each block covers 2*blockDim.x elements and every thread adds
// its two elements while loading, so no thread idles in the first step and half as many blocks
// run. Reads stay below grid * 2 * blockDim.x, inside the zero padding.

template <typename T>
__global__ void impl4(const T* v, T* out) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sv[tid] = v[i] + v[i + blockDim.x];
  WS_T(Cursor c; WS_AT(impl4_load); c.next();)
  WS_T(record_load_two(c, i, i + blockDim.x, tid, v[i], v[i + blockDim.x], sv[tid]);)
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    WS_T(c.next(); auto sh = c.before(tid < s, sv, tid, tid + s);)
    if (tid < s)
      sv[tid] += sv[tid + s];
    WS_T(WS_AT(impl4_tree); c.after(sh, sv[tid]);)
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sv[0];
  WS_T(WS_AT(impl4_commit); c.next(); if (tid == 0) record_store_sv0(c, sv[0]);)
}

// ---------------------------------------------------------------------------------------------
// harris.impl5
// "Code Optimizations", Filipovic, Fall 2020, slide "Implementation 5" (GTX 280: 37.68 GB/s).
// Changed from Implementation 4: once s <= 32 only warp 0 works, so the last six steps are
// unrolled and run without __syncthreads(), through a `volatile` pointer so that every step
// really reads shared memory; the running sum stays in the register mySum.
// The slide starts from `float mySum = 0;` and elides the load; as the CUDA SDK's reduce4 does,
// mySum starts from Implementation 4's load (the two elements each thread adds).
// CAUTION: this relies on the 32 threads of the warp running in lock-step (true before Volta,
// compute capability < 7.0). With independent thread scheduling (Volta and later) nothing orders
// lane tid's read of s[tid + 16] after lane tid+16's write: a race in principle. Safe forms:
// a __syncwarp() between the steps, or the shuffle form (harris.impl5_shfl).

/// The slide's unrolled last warp (tid < 32, block >= 64), shared by Implementations 5, 6 and 7.
template <typename T>
__device__ void last_warp_volatile(T* sv, unsigned int tid, T mySum WS_T(, Cursor& c, bool from_shared)) {
  volatile T* s = sv;
  WS_T(c.next(); const int a = from_shared ? 1 : 0; if (from_shared) c.load(Space::Shared, 0, tid, mySum);)
  WS_T(double got = s[tid + 32];)
  s[tid] = mySum = mySum + s[tid + 32];
  WS_T(WS_AT(last_warp_32); record_register_add(c, a, tid, tid + 32, got, mySum); c.next(); got = s[tid + 16];)
  s[tid] = mySum = mySum + s[tid + 16];
  WS_T(WS_AT(last_warp_16); record_register_add(c, 0, tid, tid + 16, got, mySum); c.next(); got = s[tid + 8];)
  s[tid] = mySum = mySum + s[tid + 8];
  WS_T(WS_AT(last_warp_8); record_register_add(c, 0, tid, tid + 8, got, mySum); c.next(); got = s[tid + 4];)
  s[tid] = mySum = mySum + s[tid + 4];
  WS_T(WS_AT(last_warp_4); record_register_add(c, 0, tid, tid + 4, got, mySum); c.next(); got = s[tid + 2];)
  s[tid] = mySum = mySum + s[tid + 2];
  WS_T(WS_AT(last_warp_2); record_register_add(c, 0, tid, tid + 2, got, mySum); c.next(); got = s[tid + 1];)
  s[tid] = mySum = mySum + s[tid + 1];
  WS_T(WS_AT(last_warp_1); record_register_add(c, 0, tid, tid + 1, got, mySum);)
}

template <typename T>
__global__ void impl5(const T* v, T* out) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = v[i] + v[i + blockDim.x];  // the slide: float mySum = 0; (load elided)
  WS_T(Cursor c; WS_AT(impl5_sum); c.next(); c.load(Space::Global, 0, i, v[i], kInput);)
  WS_T(c.load(Space::Global, 1, i + blockDim.x, v[i + blockDim.x], kInput); c.reg(OpKind::Add, i + blockDim.x, mySum);)
  sv[tid] = mySum;
  WS_T(WS_AT(impl5_store); c.store(Space::Shared, 2, tid, mySum); c.work();)
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    WS_T(c.next();)
    if (tid < s)
      sv[tid] = mySum = mySum + sv[tid + s];
    WS_T(WS_AT(impl5_tree); if (tid < s) record_register_add(c, 0, tid, tid + s, sv[tid + s], mySum);)
    __syncthreads();
  }
  if (tid < 32)
    last_warp_volatile(sv, tid, mySum WS_T(, c, false));
  if (tid == 0)
    out[blockIdx.x] = sv[0];
  WS_T(WS_AT(impl5_commit); c.next(); if (tid == 0) record_store_sv0(c, sv[0]);)
}

// ---------------------------------------------------------------------------------------------
// harris.impl5_shfl
// "Code Optimizations", Filipovic, Fall 2020, slide "Implementation 5" (the warp-shuffle form, c.c. >= 3.0).
// Changed from harris.impl5: the last warp passes mySum between lanes with __shfl_down_sync
// instead of through shared memory. The _sync intrinsic synchronizes the lanes named in its mask,
// so this is correct under independent thread scheduling too ("safe for all GPUs").
// Erratum: the slide writes __shfl_down_sync(mySum, offset), without the mask argument; the
// intrinsic is __shfl_down_sync(mask, var, delta). The mask is the full warp: the branch
// tid < 32 is exactly warp 0, all of whose lanes take it.

template <typename T>
__global__ void impl5_shfl(const T* v, T* out) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = v[i] + v[i + blockDim.x];
  WS_T(Cursor c; WS_AT(impl5_shfl_sum); c.next(); c.load(Space::Global, 0, i, v[i], kInput);)
  WS_T(c.load(Space::Global, 1, i + blockDim.x, v[i + blockDim.x], kInput); c.reg(OpKind::Add, i + blockDim.x, mySum);)
  sv[tid] = mySum;
  WS_T(WS_AT(impl5_shfl_store); c.store(Space::Shared, 2, tid, mySum); c.work();)
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    WS_T(c.next();)
    if (tid < s)
      sv[tid] = mySum = mySum + sv[tid + s];
    WS_T(WS_AT(impl5_shfl_tree); if (tid < s) record_register_add(c, 0, tid, tid + s, sv[tid + s], mySum);)
    __syncthreads();
  }
  if (tid < 32) {
    mySum += sv[tid + 32];
    WS_T(WS_AT(impl5_shfl_32); c.next(); c.load(Space::Shared, 0, tid + 32, sv[tid + 32]);)
    WS_T(c.reg(OpKind::Add, tid + 32, mySum); c.work();)
    for (int offset = warpSize / 2; offset > 0; offset /= 2) {
      WS_T(c.next(); const T got = __shfl_down_sync(0xffffffffu, mySum, offset);)
      mySum += __shfl_down_sync(0xffffffffu, mySum, offset);
      WS_T(WS_AT(impl5_shfl_down); const int src = tid + offset < 32 ? int(tid) + offset : int(tid);)
      WS_T(c.shuffle(src, got); c.reg(OpKind::Add, src, mySum); c.work();)
    }
  }
  if (tid == 0)
    out[blockIdx.x] = mySum;  // lane 0 holds the block's sum; sv[0] does not
  WS_T(WS_AT(impl5_shfl_commit); c.next();)
  WS_T(if (tid == 0) c.store(Space::Global, 0, blockIdx.x, mySum, kPartials);)
  WS_T(if (tid == 0) c.work();)
}

// ---------------------------------------------------------------------------------------------
// harris.impl6
// "Code Optimizations", Filipovic, Fall 2020, slide "Implementation 6" (GTX 280: 50.64 GB/s).
// Changed from Implementation 5: the block size is a template parameter, so the tree loop is
// unrolled completely: each `if (blockSize >= ...)` is decided at compile time and the loop
// counter, its test and its shift disappear. The slide starts at 512 threads; the tree here starts
// at 1024, the largest block today. The last warp is Implementation 5's (same CAUTION).

/// The slide's unrolled tree for a block of blockSize threads, then the volatile last warp.
template <unsigned int blockSize, typename T>
__device__ void unrolled_tree(T* sv, unsigned int tid WS_T(, Cursor& c)) {
  if (blockSize >= 1024) {
    WS_T(c.next(); auto sh = c.before(tid < 512, sv, tid, tid + 512);)
    if (tid < 512)
      sv[tid] += sv[tid + 512];
    WS_T(WS_AT(unrolled_512); c.after(sh, sv[tid]);)
    __syncthreads();
  }
  if (blockSize >= 512) {
    WS_T(c.next(); auto sh = c.before(tid < 256, sv, tid, tid + 256);)
    if (tid < 256)
      sv[tid] += sv[tid + 256];
    WS_T(WS_AT(unrolled_256); c.after(sh, sv[tid]);)
    __syncthreads();
  }
  if (blockSize >= 256) {
    WS_T(c.next(); auto sh = c.before(tid < 128, sv, tid, tid + 128);)
    if (tid < 128)
      sv[tid] += sv[tid + 128];
    WS_T(WS_AT(unrolled_128); c.after(sh, sv[tid]);)
    __syncthreads();
  }
  if (blockSize >= 128) {
    WS_T(c.next(); auto sh = c.before(tid < 64, sv, tid, tid + 64);)
    if (tid < 64)
      sv[tid] += sv[tid + 64];
    WS_T(WS_AT(unrolled_64); c.after(sh, sv[tid]);)
    __syncthreads();
  }
  if (tid < 32) {
    WS_T(WS_AT_NEXT(unrolled_last_warp);)
    last_warp_volatile(sv, tid, sv[tid] WS_T(, c, true));
  }
}

template <unsigned int blockSize, typename T>
__global__ void impl6(const T* v, T* out) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  sv[tid] = v[i] + v[i + blockSize];
  WS_T(Cursor c; WS_AT(impl6_load); c.next();)
  WS_T(record_load_two(c, i, i + blockSize, tid, v[i], v[i + blockSize], sv[tid]);)
  __syncthreads();
  unrolled_tree<blockSize>(sv, tid WS_T(, c));
  if (tid == 0)
    out[blockIdx.x] = sv[0];
  WS_T(WS_AT(impl6_commit); c.next(); if (tid == 0) record_store_sv0(c, sv[0]);)
}

// ---------------------------------------------------------------------------------------------
// harris.impl7
// "Code Optimizations", Filipovic, Fall 2020, slide "Implementation 7" (GTX 280: 77.21 GB/s).
// Changed from Implementation 6: fewer blocks than windows. Each thread first adds pairs
// v[i] + v[i + blockSize] while striding over the input by the whole grid (gridSize), then the
// block runs Implementation 6's tree once. More sequential work per thread, fewer tree steps per
// element: O(n / log n) threads bring the cost down to O(n). Any grid works; the loop's guard
// i < n keeps v[i + blockSize] inside the window padding. Same CAUTION on the last warp.

template <unsigned int blockSize, typename T>
__global__ void impl7(const T* v, T* out, unsigned int n) {
  T* sv = dynamic_shared<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  sv[tid] = 0;
  WS_T(Cursor c; WS_AT(impl7_zero); c.next(); c.store(Space::Shared, 0, tid, 0); c.work();)
  WS_T(const long long first = (long long)blockIdx.x * (blockSize * 2);)
  WS_T(const int iterations = first < n ? int((n - first + gridSize - 1) / gridSize) : 0;)
  while (i < n) {
    WS_T(c.next(); const double old = sv[tid];)
    sv[tid] += v[i] + v[i + blockSize];
    WS_T(WS_AT(impl7_pair);)
    WS_T(record_pair_add(c, i, i + blockSize, tid, v[i], v[i + blockSize], T(v[i] + v[i + blockSize]), old, sv[tid]);)
    i += gridSize;
  }
  WS_T(c.set(iterations);)
  __syncthreads();
  unrolled_tree<blockSize>(sv, tid WS_T(, c));
  if (tid == 0)
    out[blockIdx.x] = sv[0];
  WS_T(WS_AT(impl7_commit); c.next(); if (tid == 0) record_store_sv0(c, sv[0]);)
}

// ---------------------------------------------------------------------------------------------
// Host launchers

template <typename T>
using PassKernel = void (*)(const T*, T*);

/// Runs a `kernel(src, dst)` pass kernel with `items` elements per thread until one value is left.
template <typename T>
ReduceOutcome run_simple_passes(const ReduceArgs& a, const char* id, int items, PassKernel<T> kernel) {
  const std::int64_t window = std::int64_t(a.block) * items;
  expect_grid(a, id, window);
  return run_passes<T>(a, id, window, true, [&](const T* src, T* dst, std::int64_t, std::int64_t grid) {
    kernel<<<unsigned(grid), a.block, smem_bytes(a, sizeof(T)), a.stream>>>(src, dst);
    WS_LAUNCHED();
  });
}

/// Implementation 1: modulo-selected threads, relaunched on the block sums.
template <typename T>
ReduceOutcome run_impl1(const ReduceArgs& a) { return run_simple_passes<T>(a, "harris.impl1", 1, impl1<T>); }
/// Implementation 2: consecutive threads with strided index, relaunched on the block sums.
template <typename T>
ReduceOutcome run_impl2(const ReduceArgs& a) { return run_simple_passes<T>(a, "harris.impl2", 1, impl2<T>); }
/// Implementation 3: sequential addressing, relaunched on the block sums.
template <typename T>
ReduceOutcome run_impl3(const ReduceArgs& a) { return run_simple_passes<T>(a, "harris.impl3", 1, impl3<T>); }
/// Implementation 4: first add during load (two elements per thread), relaunched on the block sums.
template <typename T>
ReduceOutcome run_impl4(const ReduceArgs& a) { return run_simple_passes<T>(a, "harris.impl4", 2, impl4<T>); }
/// Implementation 5: volatile last-warp unroll, relaunched on the block sums.
template <typename T>
ReduceOutcome run_impl5(const ReduceArgs& a) { return run_simple_passes<T>(a, "harris.impl5", 2, impl5<T>); }
/// Implementation 5, shuffle form: last warp with __shfl_down_sync, relaunched on the block sums.
template <typename T>
ReduceOutcome run_impl5_shfl(const ReduceArgs& a) {
  return run_simple_passes<T>(a, "harris.impl5_shfl", 2, impl5_shfl<T>);
}

/// Implementation 6: the instantiation for the launch's block size (64..1024, powers of two).
template <typename T>
PassKernel<T> impl6_for(int block) {
  switch (block) {
    case 64: return impl6<64, T>;
    case 128: return impl6<128, T>;
    case 256: return impl6<256, T>;
    case 512: return impl6<512, T>;
    case 1024: return impl6<1024, T>;
  }
  throw std::runtime_error("harris.impl6: no instantiation for block size " + std::to_string(block) +
                           " (64, 128, 256, 512 or 1024)");
}

/// Implementation 6: template-unrolled tree for the block size, relaunched on the block sums.
template <typename T>
ReduceOutcome run_impl6(const ReduceArgs& a) {
  return run_simple_passes<T>(a, "harris.impl6", 2, impl6_for<T>(a.block));
}

template <typename T>
using StrideKernel = void (*)(const T*, T*, unsigned int);

/// Implementation 7: the instantiation for the launch's block size (64..1024, powers of two).
template <typename T>
StrideKernel<T> impl7_for(int block) {
  switch (block) {
    case 64: return impl7<64, T>;
    case 128: return impl7<128, T>;
    case 256: return impl7<256, T>;
    case 512: return impl7<512, T>;
    case 1024: return impl7<1024, T>;
  }
  throw std::runtime_error("harris.impl7: no instantiation for block size " + std::to_string(block) +
                           " (64, 128, 256, 512 or 1024)");
}

/// Implementation 7: grid-stride pairs per thread on a.grid blocks, then passes of
/// ceil(m / (2*block)) blocks on the block sums until one value is left.
template <typename T>
ReduceOutcome run_impl7(const ReduceArgs& a) {
  const std::int64_t window = 2 * std::int64_t(a.block);
  // i and gridSize are 32-bit as on the slide: the first index plus a grid step must stay below 2^32.
  if (a.grid < 1 || a.grid * window + a.n > (std::int64_t(1) << 32) - 1)
    throw std::runtime_error("harris.impl7: grid " + std::to_string(a.grid) + " overflows the kernel's 32-bit indices");
  StrideKernel<T> kernel = impl7_for<T>(a.block);
  return run_passes<T>(a, "harris.impl7", window, true, [&](const T* src, T* dst, std::int64_t m, std::int64_t grid) {
    kernel<<<unsigned(grid), a.block, smem_bytes(a, sizeof(T)), a.stream>>>(src, dst, unsigned(m));
    WS_LAUNCHED();
  });
}

}  // namespace

std::vector<LauncherEntry> harris_launchers() {
  return {
      {"harris.naive", by_type<run_naive<std::int32_t>, run_naive<float>>},
      {"harris.multipass", by_type<run_multipass<std::int32_t>, run_multipass<float>>},
      {"harris.impl1", by_type<run_impl1<std::int32_t>, run_impl1<float>>},
      {"harris.impl2", by_type<run_impl2<std::int32_t>, run_impl2<float>>},
      {"harris.impl3", by_type<run_impl3<std::int32_t>, run_impl3<float>>},
      {"harris.impl4", by_type<run_impl4<std::int32_t>, run_impl4<float>>},
      {"harris.impl5", by_type<run_impl5<std::int32_t>, run_impl5<float>>},
      {"harris.impl5_shfl", by_type<run_impl5_shfl<std::int32_t>, run_impl5_shfl<float>>},
      {"harris.impl6", by_type<run_impl6<std::int32_t>, run_impl6<float>>},
      {"harris.impl7", by_type<run_impl7<std::int32_t>, run_impl7<float>>},
  };
}

WS_TRACE_ARM_FUNCTION(harris_arm)
WS_TRACE_NS_END
}  // namespace ws::kernels
