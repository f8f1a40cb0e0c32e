// Sum reductions of "Parallel Reduction using C++ AMP" (MSDN blog, Parallel Programming in Native
// Code): "Parallel Reduction using C++ AMP", MSDN, translated from C++ AMP to CUDA:
//   parallel_for_each over extent<1>(k)  -> a launch of ceil(k / block) blocks, threads idx >= k return
//   tile of _tile_size threads            -> a block of blockDim.x threads (the tile size)
//   tile_static array                      -> __shared__ array (dynamic, blockDim.x elements)
//   tidx.barrier.wait()                    -> __syncthreads()
//   tidx.local[0] / tidx.tile[0]           -> threadIdx.x / blockIdx.x
// As in the post, the GPU leaves a few partial results and the host finishes the sum: every
// launcher returns them (count >= 1) and the backend adds them up, as the post's std::accumulate.
// amp.sequential (the post's CPU std::accumulate) has no launcher: it runs on the host.
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
WS_T(namespace ws_points = ::ws::trace_points::amp;)

// ---------------------------------------------------------------------------------------------
// Shared helpers

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
std::int64_t round_up_to(std::int64_t a, std::int64_t b) { return ceil_div(a, b) * b; }

/// Picks the int32 or float32 instantiation of a launcher.
template <ReduceOutcome (*RunInt)(const ReduceArgs&), ReduceOutcome (*RunFloat)(const ReduceArgs&)>
ReduceOutcome by_type(const ReduceArgs& a) {
  return a.type == DType::Int32 ? RunInt(a) : RunFloat(a);
}

/// The first dispatch of the simple model runs `threads` threads on the registry's grid a.grid,
/// which is ceil(n / (block * items)): at least ceil(threads / block) blocks.
void expect_first_dispatch(const ReduceArgs& a, const char* id, std::int64_t threads) {
  if (a.grid * a.block < threads)
    throw std::runtime_error(std::string(id) + ": grid " + std::to_string(a.grid) + " of " + std::to_string(a.block) +
                             " threads cannot run the first dispatch of " + std::to_string(threads) + " threads");
}

// ---------------------------------------------------------------------------------------------
// amp.simple_1
// "Parallel Reduction using C++ AMP", MSDN, section "reduction_simple_1" (simple model, no tiles).
// One dispatch per halving of the count m: s = m/2 threads, thread idx adds a[idx + s] into
// a[idx], in place. When m is odd, a[m - 1] = a[2s] has no partner and would be cut off, so the
// last thread of the dispatch first adds it to a separate tail sum. Two reads and one write per
// addition, about log2 n dispatches; the answer is a[0] plus the tail sum, added on the host.

template <typename T>
__global__ void simple_1(T* a, unsigned int s, unsigned int m, T* tail_sum WS_T(, int launch)) {
  unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  WS_T(Cursor c; c.set(launch);)  // one step per dispatch (models_amp.cpp simple_1)
  if (idx >= s)
    return;  // the post's extent is exactly s threads; whole blocks round it up
  WS_T(const bool tail = (m & 1) && idx == s - 1; const T tx = tail ? a[2 * s] : T(0), told = tail ? *tail_sum : T(0);)
  if ((m & 1) && idx == s - 1)
    *tail_sum += a[2 * s];
  WS_T(WS_AT(simple_1_tail);)
  WS_T(if (tail) c.load(Space::Global, 0, 2 * s, tx, kInput);)
  WS_T(if (tail) c.load(Space::Global, 1, 0, told, kAccumulator);)
  WS_T(if (tail) c.reg(OpKind::Add, 2 * s, *tail_sum);)
  WS_T(if (tail) c.store(Space::Global, 2, 0, *tail_sum, kAccumulator);)
  WS_T(const int first = (m & 1) ? 3 : 0; const T x = a[idx], y = a[idx + s];)
  a[idx] = a[idx] + a[idx + s];
  WS_T(WS_AT(simple_1_add); c.load(Space::Global, first, idx, x, kInput);)
  WS_T(c.load(Space::Global, first + 1, idx + s, y, kInput);)
  WS_T(c.reg(OpKind::Add, idx + s, a[idx]); c.store(Space::Global, first + 2, idx, a[idx], kInput); c.work();)
}

/// Halving dispatches in place; returns {a[0], tail sum} in a.result for the host to add.
template <typename T>
ReduceOutcome run_simple_1(const ReduceArgs& a) {
  T* v = static_cast<T*>(a.data);
  T* result = static_cast<T*>(a.result);  // result[0] = a[0] at the end, result[1] = tail sum
  const unsigned int n = static_cast<unsigned int>(a.n);
  expect_first_dispatch(a, "amp.simple_1", n / 2);
  WS_CUDA(cudaMemsetAsync(result + 1, 0, sizeof(T), a.stream));
  int launches = 0;
  unsigned int m = n;
  for (unsigned int s = m / 2; s > 0; s = m / 2) {
    const unsigned int grid = static_cast<unsigned int>(launches == 0 ? a.grid : ceil_div(s, a.block));
    simple_1<T><<<grid, a.block, 0, a.stream>>>(v, s, m, result + 1 WS_T(, launches));
    WS_LAUNCHED();
    WS_T(ws_trace_set_enabled(true);)  // the model traces every dispatch: the next one records too
    ++launches;
    m = s;
  }
  WS_CUDA(cudaMemcpyAsync(result, v, sizeof(T), cudaMemcpyDeviceToDevice, a.stream));
  return ReduceOutcome{result, 2, launches};
}

// ---------------------------------------------------------------------------------------------
// amp.simple_2
// "Parallel Reduction using C++ AMP", MSDN, section "reduction_simple_2".
// Changed from simple_1: each thread sums a window of window_width = 8 values spaced s = m/8
// apart (a[idx], a[idx + s], ..., a[idx + 7s]) and writes one result, so about log8 n dispatches
// and ~1.28n memory accesses replace log2 n and ~3n. The cut-off tail [8s, m) is now up to seven
// values, which the last thread adds serially: that is the divergence the post warns about. The
// loop ends when fewer than 8 values are left; those and the tail sum go to the host.

constexpr unsigned int kWindowWidth = 8;

template <typename T>
__global__ void simple_2(T* a, unsigned int s, unsigned int m, T* tail_sum WS_T(, int launch)) {
  unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  WS_T(Cursor c; c.set(launch);)  // one step per dispatch (models_amp.cpp simple_2)
  if (idx >= s)
    return;
  T sum = 0;
  for (unsigned int i = 0; i < kWindowWidth; i++) {
    sum += a[idx + i * s];
    WS_T(WS_AT(simple_2_window); c.load(Space::Global, int(i), idx + i * s, a[idx + i * s], kInput);)
    WS_T(c.reg(OpKind::Add, idx + i * s, sum);)
  }
  a[idx] = sum;
  WS_T(WS_AT(simple_2_store); c.store(Space::Global, int(kWindowWidth), idx, sum, kInput); c.work();)
  if (idx == s - 1)
    for (unsigned int j = kWindowWidth * s; j < m; j++) {
      WS_T(const int k = int(kWindowWidth + 1 + 3 * (j - kWindowWidth * s)); const T old = *tail_sum;)
      *tail_sum += a[j];
      WS_T(WS_AT(simple_2_tail); c.load(Space::Global, k, j, a[j], kInput);)
      WS_T(c.load(Space::Global, k + 1, 0, old, kAccumulator);)
      WS_T(c.reg(OpKind::Add, j, *tail_sum); c.store(Space::Global, k + 2, 0, *tail_sum, kAccumulator);)
    }
}

/// Windows of 8 in place until fewer than 8 values are left; returns them and the tail sum in a.result.
template <typename T>
ReduceOutcome run_simple_2(const ReduceArgs& a) {
  T* v = static_cast<T*>(a.data);
  T* result = static_cast<T*>(a.result);
  const unsigned int n = static_cast<unsigned int>(a.n);
  expect_first_dispatch(a, "amp.simple_2", n / kWindowWidth);
  // The number K < 8 of values left at the end is known from n: the tail sum lives in result[K],
  // right after the K values copied to result[0..K).
  unsigned int left = n;
  while (left / kWindowWidth > 0) left /= kWindowWidth;
  T* tail_sum = result + left;
  WS_CUDA(cudaMemsetAsync(tail_sum, 0, sizeof(T), a.stream));
  int launches = 0;
  unsigned int m = n;
  for (unsigned int s = m / kWindowWidth; s > 0; s = m / kWindowWidth) {
    const unsigned int grid = static_cast<unsigned int>(launches == 0 ? a.grid : ceil_div(s, a.block));
    simple_2<T><<<grid, a.block, 0, a.stream>>>(v, s, m, tail_sum WS_T(, launches));
    WS_LAUNCHED();
    WS_T(ws_trace_set_enabled(true);)  // the model traces every dispatch: the next one records too
    ++launches;
    m = s;
  }
  WS_CUDA(cudaMemcpyAsync(result, v, std::size_t(left) * sizeof(T), cudaMemcpyDeviceToDevice, a.stream));
  return ReduceOutcome{result, std::int64_t(left) + 1, launches};
}

// ---------------------------------------------------------------------------------------------
// amp.tiled_1
// "Parallel Reduction using C++ AMP", MSDN, section "reduction_tiled_1".
// Changed from the simple model: tiles. Each thread copies one element into the tile's shared
// array, then the tile reduces it there with barriers between steps; thread 0 writes the tile's
// sum. In step s the threads with tid % (2*s) == 0 work: spread over every warp, so all warps
// stay busy with few useful lanes (divergence), and `%` is slow.
// The load is unguarded: a.data and each later pass's input are zero-padded to a whole tile.

template <typename T>
__global__ void tiled_1(const T* src, T* dst) {
  T* tile_data = dynamic_shared<T>();
  int tile_size = blockDim.x;
  int tid = threadIdx.x;
  tile_data[tid] = src[blockIdx.x * blockDim.x + threadIdx.x];
  WS_T(Cursor c; WS_AT(tiled_1_load); c.next();)
  WS_T(c.load(Space::Global, 0, blockIdx.x * blockDim.x + threadIdx.x, tile_data[tid], kInput);)
  WS_T(c.store(Space::Shared, 1, tid, tile_data[tid]); c.work();)
  __syncthreads();
  for (int s = 1; s < tile_size; s *= 2) {
    WS_T(c.next(); auto sh = c.before(tid % (2 * s) == 0, tile_data, tid, tid + s);)
    if (tid % (2 * s) == 0)
      tile_data[tid] += tile_data[tid + s];
    WS_T(WS_AT(tiled_1_tree); c.after(sh, tile_data[tid]);)
    __syncthreads();
  }
  if (tid == 0)
    dst[blockIdx.x] = tile_data[0];
  WS_T(WS_AT(tiled_1_commit); c.next(); if (tid == 0) c.load(Space::Shared, 0, 0, tile_data[0]);)
  WS_T(if (tid == 0) c.store(Space::Global, 1, blockIdx.x, dst[blockIdx.x], kPartials);)
  WS_T(if (tid == 0) c.work();)
}

// ---------------------------------------------------------------------------------------------
// amp.tiled_2
// "Parallel Reduction using C++ AMP", MSDN, section "reduction_tiled_2".
// Changed from tiled_1: thread tid works on index = 2*s*tid, so the active threads are
// consecutive and whole warps fall idle instead of every warp diverging. The 2s-strided
// shared-memory accesses now land in the same banks (bank conflicts: tiled_3 fixes them).

template <typename T>
__global__ void tiled_2(const T* src, T* dst) {
  T* tile_data = dynamic_shared<T>();
  int tile_size = blockDim.x;
  int tid = threadIdx.x;
  tile_data[tid] = src[blockIdx.x * blockDim.x + threadIdx.x];
  WS_T(Cursor c; WS_AT(tiled_2_load); c.next();)
  WS_T(c.load(Space::Global, 0, blockIdx.x * blockDim.x + threadIdx.x, tile_data[tid], kInput);)
  WS_T(c.store(Space::Shared, 1, tid, tile_data[tid]); c.work();)
  __syncthreads();
  for (int s = 1; s < tile_size; s *= 2) {
    int index = 2 * s * tid;
    WS_T(c.next(); auto sh = c.before(index < tile_size, tile_data, index, index + s);)
    if (index < tile_size)
      tile_data[index] += tile_data[index + s];
    WS_T(WS_AT(tiled_2_tree); if (index < tile_size) c.after(sh, tile_data[index]);)  // index may lie past the tile
    __syncthreads();
  }
  if (tid == 0)
    dst[blockIdx.x] = tile_data[0];
  WS_T(WS_AT(tiled_2_commit); c.next(); if (tid == 0) c.load(Space::Shared, 0, 0, tile_data[0]);)
  WS_T(if (tid == 0) c.store(Space::Global, 1, blockIdx.x, dst[blockIdx.x], kPartials);)
  WS_T(if (tid == 0) c.work();)
}

// ---------------------------------------------------------------------------------------------
// amp.tiled_3
// "Parallel Reduction using C++ AMP", MSDN, section "reduction_tiled_3".
// Changed from tiled_2: sequential addressing. The stride starts at half the tile and halves;
// thread tid adds tile_data[tid + s], so a warp touches consecutive words: no bank conflicts.
// Erratum: the post's loop step reads `s /= 1`, which never ends; the text means s /= 2.

template <typename T>
__global__ void tiled_3(const T* src, T* dst) {
  T* tile_data = dynamic_shared<T>();
  int tile_size = blockDim.x;
  int tid = threadIdx.x;
  tile_data[tid] = src[blockIdx.x * blockDim.x + threadIdx.x];
  WS_T(Cursor c; WS_AT(tiled_3_load); c.next();)
  WS_T(c.load(Space::Global, 0, blockIdx.x * blockDim.x + threadIdx.x, tile_data[tid], kInput);)
  WS_T(c.store(Space::Shared, 1, tid, tile_data[tid]); c.work();)
  __syncthreads();
  for (int s = tile_size / 2; s > 0; s /= 2) {  // the post: s /= 1 (erratum)
    WS_T(c.next(); auto sh = c.before(tid < s, tile_data, tid, tid + s);)
    if (tid < s)
      tile_data[tid] += tile_data[tid + s];
    WS_T(WS_AT(tiled_3_tree); c.after(sh, tile_data[tid]);)
    __syncthreads();
  }
  if (tid == 0)
    dst[blockIdx.x] = tile_data[0];
  WS_T(WS_AT(tiled_3_commit); c.next(); if (tid == 0) c.load(Space::Shared, 0, 0, tile_data[0]);)
  WS_T(if (tid == 0) c.store(Space::Global, 1, blockIdx.x, dst[blockIdx.x], kPartials);)
  WS_T(if (tid == 0) c.work();)
}

// ---------------------------------------------------------------------------------------------
// amp.tiled_4
// "Parallel Reduction using C++ AMP", MSDN, section "reduction_tiled_4".
// Changed from tiled_3: half as many threads. Each tile covers 2 * tile_size elements and every
// thread reads two of them, adds them and stores the sum in shared memory, so no thread idles in
// the first step. The tree is tiled_3's. Reads stay below grid * 2 * tile_size, in the padding.

template <typename T>
__global__ void tiled_4(const T* src, T* dst) {
  T* tile_data = dynamic_shared<T>();
  int tile_size = blockDim.x;
  int tid = threadIdx.x;
  unsigned int rel_idx = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  tile_data[tid] = src[rel_idx] + src[rel_idx + tile_size];
  WS_T(Cursor c; WS_AT(tiled_4_load); c.next(); c.load(Space::Global, 0, rel_idx, src[rel_idx], kInput);)
  WS_T(c.load(Space::Global, 1, rel_idx + tile_size, src[rel_idx + tile_size], kInput);)
  WS_T(c.reg(OpKind::Add, rel_idx + tile_size, tile_data[tid]); c.store(Space::Shared, 2, tid, tile_data[tid]);)
  WS_T(c.work();)
  __syncthreads();
  for (int s = tile_size / 2; s > 0; s /= 2) {
    WS_T(c.next(); auto sh = c.before(tid < s, tile_data, tid, tid + s);)
    if (tid < s)
      tile_data[tid] += tile_data[tid + s];
    WS_T(WS_AT(tiled_4_tree); c.after(sh, tile_data[tid]);)
    __syncthreads();
  }
  if (tid == 0)
    dst[blockIdx.x] = tile_data[0];
  WS_T(WS_AT(tiled_4_commit); c.next(); if (tid == 0) c.load(Space::Shared, 0, 0, tile_data[0]);)
  WS_T(if (tid == 0) c.store(Space::Global, 1, blockIdx.x, dst[blockIdx.x], kPartials);)
  WS_T(if (tid == 0) c.work();)
}

// ---------------------------------------------------------------------------------------------
// amp.cascade
// "Parallel Reduction using C++ AMP", MSDN, section "reduction_cascade".
// Changed from tiled_4: a fixed number of tiles (the grid) and a single dispatch. Each thread
// walks the whole input with a stride of tiles * tile_size, adding each element into its own
// shared slot, then the tile reduces the slots with tiled_3/4's tree. One partial per tile is
// written and the host adds them up. The grid and tile size trade threads against serial work.

template <typename T>
__global__ void cascade(const T* a, T* partial, unsigned int n) {
  T* tile_data = dynamic_shared<T>();
  int tile_size = blockDim.x;
  int tid = threadIdx.x;
  tile_data[tid] = 0;
  WS_T(Cursor c; WS_AT(cascade_zero); c.next(); c.store(Space::Shared, 0, tid, 0); c.work();)
  WS_T(const int passes = c.passes(n, (long long)gridDim.x * blockDim.x);)
  for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    WS_T(c.next(); const double before = tile_data[tid];)
    tile_data[tid] += a[i];
    WS_T(WS_AT(cascade_add); c.cascade_add(i, a[i], tid, before, tile_data[tid]);)
  }
  WS_T(c.set(passes);)  // threads with fewer iterations catch up with thread 0
  __syncthreads();
  for (int s = tile_size / 2; s > 0; s /= 2) {
    WS_T(c.next(); auto sh = c.before(tid < s, tile_data, tid, tid + s);)
    if (tid < s)
      tile_data[tid] += tile_data[tid + s];
    WS_T(WS_AT(cascade_tree); c.after(sh, tile_data[tid]);)
    __syncthreads();
  }
  if (tid == 0)
    partial[blockIdx.x] = tile_data[0];
  WS_T(WS_AT(cascade_commit); c.next(); if (tid == 0) c.load(Space::Shared, 0, 0, tile_data[0]);)
  WS_T(if (tid == 0) c.store(Space::Global, 1, blockIdx.x, partial[blockIdx.x], kPartials);)
  WS_T(if (tid == 0) c.work();)
}

// ---------------------------------------------------------------------------------------------
// Host launchers of the tiled kernels

template <typename T>
using TileKernel = void (*)(const T*, T*);

/// Tiled passes as the post runs them: two arrays used alternately (here the two halves of
/// scratch; the first pass reads a.data), one partial per tile, repeated until no more partials
/// are left than the tile size; those go to the host. Each destination's tail is zeroed up to the
/// next pass's window, since the kernels load their whole window unguarded (memsets do not count
/// as launches).
template <typename T>
ReduceOutcome run_tiled(const ReduceArgs& a, const char* id, int items, TileKernel<T> kernel) {
  const std::int64_t window = std::int64_t(a.block) * items;
  if (a.grid != ceil_div(a.n, window))
    throw std::runtime_error(std::string(id) + ": grid " + std::to_string(a.grid) + " does not match ceil(n / " +
                             std::to_string(window) + ") = " + std::to_string(ceil_div(a.n, window)));
  const std::int64_t half = a.scratch_elems / 2;
  if (round_up_to(a.grid, window) > half)
    throw std::runtime_error(std::string(id) + ": scratch of " + std::to_string(a.scratch_elems) +
                             " elements is too small for " + std::to_string(a.grid) + " tile sums");
  T* halves[2] = {static_cast<T*>(a.scratch), static_cast<T*>(a.scratch) + half};
  const T* src = static_cast<const T*>(a.data);
  std::int64_t m = a.n;
  std::int64_t grid = a.grid;
  int h = 0, launches = 0;
  do {
    T* dst = halves[h];
    const std::int64_t sums = grid;                          // one per tile
    if (sums > a.block && round_up_to(sums, window) > sums)  // another pass follows: pad its input
      WS_CUDA(cudaMemsetAsync(dst + sums, 0, std::size_t(round_up_to(sums, window) - sums) * sizeof(T), a.stream));
    kernel<<<unsigned(grid), a.block, std::size_t(a.block) * sizeof(T), a.stream>>>(src, dst);
    WS_LAUNCHED();
    ++launches;
    src = dst;
    h ^= 1;
    m = sums;
    grid = ceil_div(m, window);
  } while (m > a.block);
  return ReduceOutcome{src, m, launches};
}

/// reduction_tiled_1: modulo-selected threads; tiled passes until <= tile partials are left.
template <typename T>
ReduceOutcome run_tiled_1(const ReduceArgs& a) { return run_tiled<T>(a, "amp.tiled_1", 1, tiled_1<T>); }
/// reduction_tiled_2: consecutive active threads; tiled passes until <= tile partials are left.
template <typename T>
ReduceOutcome run_tiled_2(const ReduceArgs& a) { return run_tiled<T>(a, "amp.tiled_2", 1, tiled_2<T>); }
/// reduction_tiled_3: sequential addressing; tiled passes until <= tile partials are left.
template <typename T>
ReduceOutcome run_tiled_3(const ReduceArgs& a) { return run_tiled<T>(a, "amp.tiled_3", 1, tiled_3<T>); }
/// reduction_tiled_4: two loads per thread; tiled passes until <= tile partials are left.
template <typename T>
ReduceOutcome run_tiled_4(const ReduceArgs& a) { return run_tiled<T>(a, "amp.tiled_4", 2, tiled_4<T>); }

/// reduction_cascade: one dispatch of a.grid tiles striding over the input; returns a.grid partials.
template <typename T>
ReduceOutcome run_cascade(const ReduceArgs& a) {
  if (a.grid < 1 || a.grid > a.scratch_elems)
    throw std::runtime_error("amp.cascade: grid " + std::to_string(a.grid) + " does not fit the scratch of " +
                             std::to_string(a.scratch_elems) + " elements");
  // The 32-bit index plus one stride of the whole grid must stay below 2^32.
  if (a.grid * a.block + a.n > (std::int64_t(1) << 32) - 1)
    throw std::runtime_error("amp.cascade: grid " + std::to_string(a.grid) + " overflows the kernel's 32-bit indices");
  T* partial = static_cast<T*>(a.scratch);
  cascade<T><<<unsigned(a.grid), a.block, std::size_t(a.block) * sizeof(T), a.stream>>>(
      static_cast<const T*>(a.data), partial, static_cast<unsigned int>(a.n));
  WS_LAUNCHED();
  return ReduceOutcome{partial, a.grid, 1};
}

}  // namespace

std::vector<LauncherEntry> amp_launchers() {
  return {
      {"amp.simple_1", by_type<run_simple_1<std::int32_t>, run_simple_1<float>>},
      {"amp.simple_2", by_type<run_simple_2<std::int32_t>, run_simple_2<float>>},
      {"amp.tiled_1", by_type<run_tiled_1<std::int32_t>, run_tiled_1<float>>},
      {"amp.tiled_2", by_type<run_tiled_2<std::int32_t>, run_tiled_2<float>>},
      {"amp.tiled_3", by_type<run_tiled_3<std::int32_t>, run_tiled_3<float>>},
      {"amp.tiled_4", by_type<run_tiled_4<std::int32_t>, run_tiled_4<float>>},
      {"amp.cascade", by_type<run_cascade<std::int32_t>, run_cascade<float>>},
  };
}

WS_TRACE_ARM_FUNCTION(amp_arm)
WS_TRACE_NS_END
}  // namespace ws::kernels
