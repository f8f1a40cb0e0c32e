// The EPITA reduction lesson: every kernel of "GPU Computing: Reduction Pattern" (Carlinet, Chazalon,
// Fall 2023, after Mark Harris), "Reduction Pattern", Carlinet and Chazalon, Fall 2023, in teaching order,
// each followed by its host launcher. The kernels keep the slides' indexing, synchronization and
// launch shape, including the two bugs the lesson is about (the racy `*sum +=` and reduce1 without
// __syncthreads) and reduce8's overlapping windows (see the seeds' README errata).
//
// Every kernel is templated on the element type T (int or float: the slides use int). Loads the
// slides leave unguarded stay below round_up(n, blockDim.x * items) <= capacity, where the input is
// padded with 0; each kernel says why next to the load.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/dynamic_shared.cuh"
#include "common/trace_record.cuh"
#include "reduction/reduce_launch.hpp"
#include "reduction/tuned.cuh"

namespace ws::kernels {
WS_TRACE_NS_BEGIN
namespace {
WS_T(namespace ws_points = ::ws::trace_points::epita;)

int as_int(std::int64_t n) { return static_cast<int>(n); }  // n <= 2^30: the slides' int sizes
dim3 grid_of(const ReduceArgs& a) { return dim3(static_cast<unsigned int>(a.grid)); }

template <typename T>
void zero_sum(const ReduceArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.result, 0, sizeof(T), a.stream));  // all-zero bits: 0 and 0.0f
}

// Grid-stride kernels index with 32-bit ints as the slides do: with at most 2^30 threads in the grid,
// the first index and the index after one stride both stay below 2^31.
void require_int_grid(const ReduceArgs& a, const char* id) {
  if (a.grid * a.block > kMaxN)
    throw std::runtime_error(std::string(id) + ": grid * block = " + std::to_string(a.grid * a.block) +
                             " threads would overflow the slide's int indices (at most 2^30)");
}

// Picks the int or float instantiation of a launcher by the run's element type.
template <ReduceLauncher ForInt, ReduceLauncher ForFloat>
ReduceOutcome by_type(const ReduceArgs& a) {
  return a.type == DType::Int32 ? ForInt(a) : ForFloat(a);
}

// ---------------------------------------------------------------------------------------------------
// epita.race. Seed 000, slides "Sequential computation of a global sum" / "Data Race".
// The first attempt: one thread per element, every thread does a plain read-add-write on the single
// global sum. The reads and writes of different threads interleave, so most additions are lost.
template <typename T>
__global__ void reduce_race(const T* buffer, int size, T* sum) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < size) {
    *sum += buffer[x];  // data race: read, add and write are three separate steps
    WS_T(Cursor c; WS_AT(race_add);)
  }
}

/// epita.race: one thread per element, unsynchronized `*sum += x` (wrong on purpose).
template <typename T>
ReduceOutcome run_race(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce_race<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                    static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce0. Seed 000, slide "Reduction Pattern Corrected" (accumulation in global memory).
// Changed from race: the read-add-write becomes one atomicAdd, so the result is right, but every
// thread of the grid queues on the same address and the additions are serialized.
template <typename T>
__global__ void reduce0(const T* buffer, int size, T* sum) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  WS_T(Cursor c; WS_AT_NEXT(reduce0_add); c.next();)
  WS_T(if (x < size) c.load(Space::Global, 0, x, buffer[x], kInput);)
  WS_T(if (x < size) c.work();)
  WS_T(c.next();)
  WS_T(if (x < size) c.atomic(Space::Global, 0, 0, buffer[x], kAccumulator);)
  WS_T(if (x < size) c.work();)
  if (x < size) atomicAdd(sum, buffer[x]);
}

/// epita.reduce0: one global atomicAdd per element.
template <typename T>
ReduceOutcome run_reduce0(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce0<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce1_nosync. Seed 000, slide "Output Privatization" ("Is this correct? No! we need
// synchronization").
// Changed from reduce0: each block first sums into its own shared `local_sum` (fast shared atomics,
// contention only inside the block) and thread 0 commits it with one global atomicAdd. Without a
// barrier, threads may add before thread 0 has zeroed local_sum, and thread 0 may commit before the
// others have added: the answer is wrong, which is the point of the slide.
template <typename T>
__global__ void reduce1_nosync(const T* buffer, int size, T* sum) {
  __shared__ T local_sum;
  if (threadIdx.x == 0) local_sum = 0;  // no barrier after the initialization...
  WS_T(Cursor c; WS_AT(nosync_zero);)
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < size) atomicAdd(&local_sum, buffer[x]);
  WS_T(WS_AT(nosync_add);)
  if (threadIdx.x == 0) atomicAdd(sum, local_sum);  // ...nor before the commit
  WS_T(WS_AT(nosync_commit);)
}

/// epita.reduce1_nosync: shared local_sum per block, missing both __syncthreads (wrong on purpose).
template <typename T>
ReduceOutcome run_reduce1_nosync(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce1_nosync<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                       static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce1. Seed 000, slide "Reduction Pattern V2: Output privatization (with syncs)".
// Changed from reduce1_nosync: a __syncthreads after the initialization and another before the
// commit make it correct. The sum inside a block is still a chain of serialized shared atomics.
template <typename T>
__global__ void reduce1(const T* buffer, int size, T* sum) {
  __shared__ T local_sum;
  if (threadIdx.x == 0) local_sum = 0;
  WS_T(Cursor c; WS_AT(reduce1_zero); c.next();)
  WS_T(if (threadIdx.x == 0) c.store(Space::Shared, 0, 0, 0);)
  WS_T(if (threadIdx.x == 0) c.work();)
  __syncthreads();  // everyone sees local_sum = 0 before adding
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  WS_T(WS_AT_NEXT(reduce1_add);)
  WS_T(if (x < size) c.load(Space::Global, 1, x, buffer[x], kInput);)
  WS_T(if (x < size) c.work();)
  WS_T(c.next();)
  WS_T(if (x < size) c.atomic(Space::Shared, 0, 0, buffer[x]);)
  WS_T(if (x < size) c.work();)
  if (x < size) atomicAdd(&local_sum, buffer[x]);
  __syncthreads();  // every addition is done before thread 0 commits
  WS_T(WS_AT_NEXT(reduce1_commit); c.next(); if (threadIdx.x == 0) c.commit(local_sum);)
  if (threadIdx.x == 0) atomicAdd(sum, local_sum);
}

/// epita.reduce1: shared local_sum per block with both barriers, one global atomicAdd per block.
template <typename T>
ReduceOutcome run_reduce1(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce1<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce2. Seed 000, slide "Reduction Pattern: tree reduction without atomics".
// Changed from reduce1: no atomics inside the block any more. Each thread copies one element to
// shared memory and the block folds the array as a tree: at stride s, threads whose tid is a multiple
// of 2s add the neighbour s to the right. Active threads are scattered across all warps (divergence,
// "SP starvation"), which is what reduce3 fixes.
template <typename T>
__global__ void reduce2(const T* buffer, int size, T* sum) {
  T* partialSum = dynamic_shared<T>();  // len = blockDim.x
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  partialSum[tid] = buffer[i];  // unguarded as on the slide: i < grid * blockDim.x = round_up(size, blockDim.x)
  WS_T(Cursor c; WS_AT(reduce2_load); c.next(); c.load(Space::Global, 0, i, partialSum[tid], kInput);)
  WS_T(c.store(Space::Shared, 1, tid, partialSum[tid]); c.work();)
  __syncthreads();

  for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
    WS_T(c.next(); auto sh = c.before(tid % (2 * stride) == 0, partialSum, tid, tid + stride);)
    if (tid % (2 * stride) == 0) partialSum[tid] += partialSum[tid + stride];
    WS_T(WS_AT(reduce2_tree); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  WS_T(WS_AT_NEXT(reduce2_commit); c.next(); if (tid == 0) c.commit(partialSum[0]);)
  if (tid == 0) atomicAdd(sum, partialSum[0]);
}

/// epita.reduce2: interleaved tree (`tid % (2*stride)`) in shared memory, one atomicAdd per block.
template <typename T>
ReduceOutcome run_reduce2(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce2<<<grid_of(a), a.block, a.block * sizeof(T), a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                                  static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce3. Seed 000, slide "Efficient Reduction Trees" (resource efficient version).
// Changed from reduce2: sequential addressing. The stride starts at blockDim.x / 2 and halves, and the
// threads tid < stride do the work, so active threads are packed into the first warps: whole warps
// retire early and only the last five steps (stride < 32) diverge.
template <typename T>
__global__ void reduce3(const T* buffer, int size, T* sum) {
  T* partialSum = dynamic_shared<T>();  // len = blockDim.x
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  partialSum[tid] = buffer[i];  // loading unchanged from reduce2 (unguarded, padding holds 0)
  WS_T(Cursor c; WS_AT(reduce3_load); c.next(); c.load(Space::Global, 0, i, partialSum[tid], kInput);)
  WS_T(c.store(Space::Shared, 1, tid, partialSum[tid]); c.work();)
  __syncthreads();

  for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    WS_T(c.next(); auto sh = c.before(tid < stride, partialSum, tid, tid + stride);)
    if (tid < stride) partialSum[tid] += partialSum[tid + stride];
    WS_T(WS_AT(reduce3_tree); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  WS_T(WS_AT_NEXT(reduce3_commit); c.next(); if (tid == 0) c.commit(partialSum[0]);)
  if (tid == 0) atomicAdd(sum, partialSum[0]);
}

/// epita.reduce3: sequential-addressing tree in shared memory, one atomicAdd per block.
template <typename T>
ReduceOutcome run_reduce3(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce3<<<grid_of(a), a.block, a.block * sizeof(T), a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                                  static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce4. Seed 000, slide "Double loading" (section "Avoiding idle threads").
// Changed from reduce3: half of reduce3's threads idle in the first step, so each block now covers
// 2 * blockDim.x elements. Every thread stores two elements (guarded by `x < size`) into a shared
// array twice as long, and the tree starts at stride = blockDim.x. Half as many blocks, but twice the
// shared memory, and the idle threads come back one step later ("it just postpones the problem").
template <typename T>
__global__ void reduce4(const T* buffer, int size, T* sum) {
  T* partialSum = dynamic_shared<T>();  // len = blockDim.x * 2
  int t = threadIdx.x;
  int start = 2 * blockIdx.x * blockDim.x;
  int x = start + t;
  partialSum[t] = (x < size) ? buffer[x] : T(0);
  WS_T(Cursor c; WS_AT(reduce4_load_low); c.next(); if (x < size) c.load(Space::Global, 0, x, buffer[x], kInput);)
  WS_T(c.store(Space::Shared, 1, t, partialSum[t]);)
  x += blockDim.x;
  partialSum[t + blockDim.x] = (x < size) ? buffer[x] : T(0);
  WS_T(WS_AT(reduce4_load_high); if (x < size) c.load(Space::Global, 2, x, buffer[x], kInput);)
  WS_T(c.store(Space::Shared, 3, t + blockDim.x, partialSum[t + blockDim.x]); c.work();)
  __syncthreads();

  unsigned int tid = t;  // the tree is reduce3's (which names the thread index tid)
  for (unsigned int stride = blockDim.x; stride >= 1; stride /= 2) {
    WS_T(c.next(); auto sh = c.before(tid < stride, partialSum, tid, tid + stride);)
    if (tid < stride) partialSum[tid] += partialSum[tid + stride];
    WS_T(WS_AT(reduce4_tree); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  WS_T(WS_AT_NEXT(reduce4_commit); c.next(); if (tid == 0) c.commit(partialSum[0]);)
  if (tid == 0) atomicAdd(sum, partialSum[0]);
}

/// epita.reduce4: two elements stored per thread, tree over 2 * block values from stride = block.
template <typename T>
ReduceOutcome run_reduce4(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce4<<<grid_of(a), a.block, 2 * a.block * sizeof(T), a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                                      static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.add_twice. Seed 000, slide "Performance summary", row "Tree red., NO thread div., add twice"
// (not shown on a slide; written after Harris's "first add during global load").
// Changed from reduce4: instead of storing both elements, each thread adds them while loading, so the
// shared array is back to blockDim.x values and no thread is idle in the first tree step.
template <typename T>
__global__ void reduce_add_twice(const T* buffer, int size, T* sum) {
  T* partialSum = dynamic_shared<T>();  // len = blockDim.x
  unsigned int tid = threadIdx.x;
  unsigned int x = blockIdx.x * (2 * blockDim.x) + tid;
  // Unguarded as in Harris's kernel: x + blockDim.x < grid * 2 * blockDim.x = round_up(size, 2 * blockDim.x).
  partialSum[tid] = buffer[x] + buffer[x + blockDim.x];
  WS_T(Cursor c; WS_AT(add_twice_load); c.next(); c.load(Space::Global, 0, x, buffer[x], kInput);)
  WS_T(c.load(Space::Global, 1, x + blockDim.x, buffer[x + blockDim.x], kInput);)
  WS_T(c.reg(OpKind::Add, x + blockDim.x, partialSum[tid]); c.store(Space::Shared, 2, tid, partialSum[tid]); c.work();)
  __syncthreads();

  for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    WS_T(c.next(); auto sh = c.before(tid < stride, partialSum, tid, tid + stride);)
    if (tid < stride) partialSum[tid] += partialSum[tid + stride];
    WS_T(WS_AT(add_twice_tree); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  WS_T(WS_AT_NEXT(add_twice_commit); c.next(); if (tid == 0) c.commit(partialSum[0]);)
  if (tid == 0) atomicAdd(sum, partialSum[0]);
}

/// epita.add_twice: first addition during the load, then the sequential-addressing tree.
template <typename T>
ReduceOutcome run_add_twice(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce_add_twice<<<grid_of(a), a.block, a.block * sizeof(T), a.stream>>>(static_cast<const T*>(a.data),
                                                                           as_int(a.n), static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce5. Seed 000, slide "Algorithm Cascading".
// Changed from add_twice: the number of elements per thread is no longer fixed. A grid sized to fill
// the GPU walks the input with a grid-size stride, each thread accumulating its share in its own
// partialSum slot (no barrier needed), then the block runs reduce3's tree once. Almost all the work
// becomes a map; only one tree and one atomicAdd per block remain.
template <typename T>
__global__ void reduce5(const T* buffer, int size, T* sum) {
  T* partialSum = dynamic_shared<T>();  // len = blockDim.x
  int t = threadIdx.x;
  int x = blockIdx.x * blockDim.x + t;
  int gridSize = blockDim.x * gridDim.x;
  partialSum[t] = 0;  // private to the thread: no need to sync
  WS_T(Cursor c; WS_AT(reduce5_zero); c.next(); c.store(Space::Shared, 0, t, 0); c.work();)
  WS_T(const int passes = c.passes(size, gridSize);)
  while (x < size) {  // the work per thread adjusts to the grid
    WS_T(c.next(); const double before = partialSum[t];)
    partialSum[t] += buffer[x];
    WS_T(WS_AT(reduce5_cascade); c.cascade_add(x, buffer[x], t, before, partialSum[t]);)
    x += gridSize;
  }
  WS_T(c.set(passes);)
  __syncthreads();

  unsigned int tid = t;
  for (unsigned int stride = blockDim.x / 2; stride >= 1; stride /= 2) {
    WS_T(c.next(); auto sh = c.before(tid < stride, partialSum, tid, tid + stride);)
    if (tid < stride) partialSum[tid] += partialSum[tid + stride];
    WS_T(WS_AT(reduce5_tree); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  WS_T(WS_AT_NEXT(reduce5_commit); c.next(); if (tid == 0) c.commit(partialSum[0]);)
  if (tid == 0) atomicAdd(sum, partialSum[0]);
}

/// epita.reduce5: grid-stride accumulation per thread, then one sequential-addressing tree per block.
template <typename T>
ReduceOutcome run_reduce5(const ReduceArgs& a) {
  require_int_grid(a, "epita.reduce5");
  zero_sum<T>(a);
  reduce5<<<grid_of(a), a.block, a.block * sizeof(T), a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                                  static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// The slide's last-warp unroll (seed 000, slide "Loop unrolling"; the call site names it warpReduce4,
// a typo). Once 64 values are left, the first warp finishes without __syncthreads, reading and
// writing through a volatile pointer so every step goes to shared memory.
// Caution (seeds README errata): this relies on the 32 threads of the warp running in lock-step. Since
// Volta, independent thread scheduling makes it a race in principle; __syncwarp() between the steps or
// a shuffle reduction is the safe form.
template <typename T>
__device__ void warpReduce(volatile T* partialSum, unsigned int tid WS_T(, Cursor& c)) {
  WS_T(c.next(); auto sh = c.before(true, partialSum, tid, tid + 32);)
  partialSum[tid] += partialSum[tid + 32];
  WS_T(WS_AT(warp_32); c.after(sh, partialSum[tid]); c.next(); sh = c.before(true, partialSum, tid, tid + 16);)
  partialSum[tid] += partialSum[tid + 16];
  WS_T(WS_AT(warp_16); c.after(sh, partialSum[tid]); c.next(); sh = c.before(true, partialSum, tid, tid + 8);)
  partialSum[tid] += partialSum[tid + 8];
  WS_T(WS_AT(warp_8); c.after(sh, partialSum[tid]); c.next(); sh = c.before(true, partialSum, tid, tid + 4);)
  partialSum[tid] += partialSum[tid + 4];
  WS_T(WS_AT(warp_4); c.after(sh, partialSum[tid]); c.next(); sh = c.before(true, partialSum, tid, tid + 2);)
  partialSum[tid] += partialSum[tid + 2];
  WS_T(WS_AT(warp_2); c.after(sh, partialSum[tid]); c.next(); sh = c.before(true, partialSum, tid, tid + 1);)
  partialSum[tid] += partialSum[tid + 1];
  WS_T(WS_AT(warp_1); c.after(sh, partialSum[tid]);)
}

// epita.reduce6. Seed 000, slide "Loop unrolling".
// Changed from reduce5: the tree stops its loop while more than 64 values are left (s > 32); the last
// six steps are done by the first warp alone in warpReduce, without loop overhead or barriers.
template <typename T>
__global__ void reduce6(const T* buffer, int size, T* sum) {
  T* partialSum = dynamic_shared<T>();  // len = blockDim.x
  int t = threadIdx.x;
  int x = blockIdx.x * blockDim.x + t;
  int gridSize = blockDim.x * gridDim.x;
  partialSum[t] = 0;  // loading + linear reduction: reduce5's cascading
  WS_T(Cursor c; WS_AT(reduce6_zero); c.next(); c.store(Space::Shared, 0, t, 0); c.work();)
  WS_T(const int passes = c.passes(size, gridSize);)
  while (x < size) {
    WS_T(c.next(); const double before = partialSum[t];)
    partialSum[t] += buffer[x];
    WS_T(WS_AT(reduce6_cascade); c.cascade_add(x, buffer[x], t, before, partialSum[t]);)
    x += gridSize;
  }
  WS_T(c.set(passes);)
  __syncthreads();

  unsigned int tid = t;
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    WS_T(c.next(); auto sh = c.before(tid < s, partialSum, tid, tid + s);)
    if (tid < s) partialSum[tid] += partialSum[tid + s];
    WS_T(WS_AT(reduce6_tree); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  if (tid < 32) warpReduce(partialSum, tid WS_T(, c));
  WS_T(WS_AT_NEXT(reduce6_commit); c.next(); if (tid == 0) c.commit(partialSum[0]);)
  if (tid == 0) atomicAdd(sum, partialSum[0]);
}

/// epita.reduce6: cascading, tree loop down to 64 values, then the volatile last-warp unroll.
template <typename T>
ReduceOutcome run_reduce6(const ReduceArgs& a) {
  require_int_grid(a, "epita.reduce6");
  zero_sum<T>(a);
  reduce6<<<grid_of(a), a.block, a.block * sizeof(T), a.stream>>>(static_cast<const T*>(a.data), as_int(a.n),
                                                                  static_cast<T*>(a.result));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.full_unroll. Seed 000, slide "Loop unrolling" ("Unroll all tree reduction loops (need to know
// block size)", "Unroll the sequential reduction loop") and the "Performance summary" row "cascading,
// full unroll" (not shown on a slide; written after Harris's templated kernel).
// Changed from reduce6: the block size is a template parameter, so the tree loop disappears: each step
// is an `if` on a compile-time constant that the compiler keeps or deletes. The cascading loop is
// unrolled four times. The last warp is reduce6's warpReduce (same caution).
template <unsigned int BlockSize, typename T>
__global__ void reduce_full_unroll(const T* buffer, int size, T* sum) {
  T* partialSum = dynamic_shared<T>();  // len = BlockSize
  int t = threadIdx.x;
  int x = blockIdx.x * BlockSize + t;
  int gridSize = BlockSize * gridDim.x;
  partialSum[t] = 0;
  WS_T(Cursor c; WS_AT(full_unroll_zero); c.next(); c.store(Space::Shared, 0, t, 0); c.work();)
  WS_T(const int passes = c.passes(size, gridSize);)
#pragma unroll 4
  for (; x < size; x += gridSize) {  // reduce5's while loop, unrolled
    WS_T(c.next(); const double before = partialSum[t];)
    partialSum[t] += buffer[x];
    WS_T(WS_AT(full_unroll_cascade); c.cascade_add(x, buffer[x], t, before, partialSum[t]);)
  }
  WS_T(c.set(passes);)
  __syncthreads();

  unsigned int tid = t;
  WS_T(Cursor::Shadow sh;)
  if (BlockSize >= 1024) {
    WS_T(c.next(); sh = c.before(tid < 512, partialSum, tid, tid + 512);)
    if (tid < 512) partialSum[tid] += partialSum[tid + 512];
    WS_T(WS_AT(full_unroll_512); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  if (BlockSize >= 512) {
    WS_T(c.next(); sh = c.before(tid < 256, partialSum, tid, tid + 256);)
    if (tid < 256) partialSum[tid] += partialSum[tid + 256];
    WS_T(WS_AT(full_unroll_256); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  if (BlockSize >= 256) {
    WS_T(c.next(); sh = c.before(tid < 128, partialSum, tid, tid + 128);)
    if (tid < 128) partialSum[tid] += partialSum[tid + 128];
    WS_T(WS_AT(full_unroll_128); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  if (BlockSize >= 128) {
    WS_T(c.next(); sh = c.before(tid < 64, partialSum, tid, tid + 64);)
    if (tid < 64) partialSum[tid] += partialSum[tid + 64];
    WS_T(WS_AT(full_unroll_64); c.after(sh, partialSum[tid]);)
    __syncthreads();
  }
  if (tid < 32) warpReduce(partialSum, tid WS_T(, c));
  WS_T(WS_AT_NEXT(full_unroll_commit); c.next(); if (tid == 0) c.commit(partialSum[0]);)
  if (tid == 0) atomicAdd(sum, partialSum[0]);
}

template <unsigned int BlockSize, typename T>
void enqueue_full_unroll(const ReduceArgs& a) {
  reduce_full_unroll<BlockSize><<<grid_of(a), BlockSize, BlockSize * sizeof(T), a.stream>>>(
      static_cast<const T*>(a.data), as_int(a.n), static_cast<T*>(a.result));
  WS_LAUNCHED();
}

/// epita.full_unroll: reduce6 with the block size as a template parameter (64..1024) and every loop unrolled.
template <typename T>
ReduceOutcome run_full_unroll(const ReduceArgs& a) {
  require_int_grid(a, "epita.full_unroll");
  zero_sum<T>(a);
  switch (a.block) {
    case 64: enqueue_full_unroll<64, T>(a); break;
    case 128: enqueue_full_unroll<128, T>(a); break;
    case 256: enqueue_full_unroll<256, T>(a); break;
    case 512: enqueue_full_unroll<512, T>(a); break;
    case 1024: enqueue_full_unroll<1024, T>(a); break;
    default:
      throw std::runtime_error("epita.full_unroll: block size " + std::to_string(a.block) +
                               " has no instantiation (powers of two 64..1024)");
  }
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce7. Seed 000, the reduce7 code after "Performance summary" (row "Cascading and global
// atomic add").
// Changed from full_unroll: no shared memory and no tree at all. Each thread cascades into a register
// and adds its private total to the global sum with one atomicAdd; with a one-wave grid that is few
// enough atomics that they hide behind the loads.
template <typename T>
__global__ void reduce7(T* sum, const T* buffer, int size) {
  T private_acc = 0;
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + tid;
  unsigned int gridSize = blockDim.x * gridDim.x;
  WS_T(Cursor c; const int passes = c.passes(size, gridSize);)
  while (i < size) {  // cascading
    private_acc += buffer[i];
    WS_T(WS_AT(reduce7_cascade); c.next(); c.load(Space::Global, 0, i, buffer[i], kInput);)
    WS_T(c.reg(OpKind::Add, i, private_acc); c.work();)
    i += gridSize;
  }
  WS_T(WS_AT_NEXT(reduce7_atomic); c.set(passes - 1); c.next();)
  WS_T(c.atomic(Space::Global, 0, 0, private_acc, kAccumulator); c.work();)
  atomicAdd(sum, private_acc);
}

/// epita.reduce7: grid-stride accumulation in a register, one global atomicAdd per thread.
template <typename T>
ReduceOutcome run_reduce7(const ReduceArgs& a) {
  require_int_grid(a, "epita.reduce7");
  zero_sum<T>(a);
  reduce7<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<T*>(a.result), static_cast<const T*>(a.data),
                                                as_int(a.n));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce8. Seed 000, the reduce8 code after "Performance summary" (row "Cascading, warp tree
// red., avoid idle warps"), kept EXACTLY as the slide writes it, bug included.
// Changed from reduce7: blocks of 32 threads, each thread summing 32 elements 32 apart (coalesced: the
// warp reads 32 consecutive values per step), a shared atomicAdd per thread and one global atomicAdd
// per block; the launch is ceil(size / 1024) blocks.
// The bug (seeds README errata): i = blockIdx.x * blockDim.x + tid moves each block by only 32
// elements although it reads a 1024-element window [32 b, 32 b + 1024). Windows overlap 32-fold and
// everything past about size / 32 is never read: the result is wrong, and the "bandwidth" counted on
// the whole input is impossible. `size` is unused, as on the slide.
template <typename T>
__global__ void reduce8(T* sum, const T* buffer, int size) {
  // Launch with 32 threads per block, ceil(size / 1024) blocks.
  __shared__ T block_sum;
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;  // the slide's bug: should step by 1024 per block
  if (tid == 0) block_sum = 0;
  WS_T(Cursor c; WS_AT(reduce8_zero); c.next();)
  WS_T(if (tid == 0) c.store(Space::Shared, 0, 0, 0);)
  WS_T(if (tid == 0) c.work();)
  __syncthreads();
  T thread_sum = 0;  // cascading, unrolled by the compiler
  // Highest index read: 32 (grid - 1) + 31 + 31 * 32 < size / 32 + 1024, far inside the padded input.
  for (int k = 0; k < 32; ++k) {
    thread_sum += buffer[i + k * 32];
    WS_T(WS_AT(reduce8_cascade); c.next(); c.load(Space::Global, 0, i + k * 32, buffer[i + k * 32], kInput);)
    WS_T(c.reg(OpKind::Add, i + k * 32, thread_sum); c.work();)
  }
  WS_T(WS_AT_NEXT(reduce8_atomic); c.next(); c.atomic(Space::Shared, 0, 0, thread_sum); c.work();)
  atomicAdd(&block_sum, thread_sum);  // block
  __syncthreads();
  WS_T(WS_AT_NEXT(reduce8_commit); c.next(); if (tid == 0) c.commit(block_sum);)
  if (tid == 0) atomicAdd(sum, block_sum);
}

/// epita.reduce8: the slide's 32-thread, 32-items-per-thread kernel with its overlapping windows (wrong on purpose).
template <typename T>
ReduceOutcome run_reduce8(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce8<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<T*>(a.result), static_cast<const T*>(a.data),
                                                as_int(a.n));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.reduce8_fixed. Seed 000, reduce8 after "Performance summary" with the indexing corrected.
// Changed from reduce8: block b starts at 1024 b (blockDim.x * 32 elements per block), so the windows
// [1024 b, 1024 b + 1024) tile the input exactly once. Everything else (32 threads, 32 coalesced loads
// per thread, shared then global atomicAdd) is the slide's.
template <typename T>
__global__ void reduce8_fixed(T* sum, const T* buffer, int size) {
  __shared__ T block_sum;
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x * 32 + threadIdx.x;  // the fix: 32 items per thread
  if (tid == 0) block_sum = 0;
  WS_T(Cursor c; WS_AT(reduce8_fixed_zero); c.next();)
  WS_T(if (tid == 0) c.store(Space::Shared, 0, 0, 0);)
  WS_T(if (tid == 0) c.work();)
  __syncthreads();
  T thread_sum = 0;
  // Unguarded like the slide: i + 31 * 32 < grid * 1024 = round_up(size, 1024), padded with 0.
  for (int k = 0; k < 32; ++k) {
    thread_sum += buffer[i + k * 32];
    WS_T(WS_AT(reduce8_fixed_cascade); c.next(); c.load(Space::Global, 0, i + k * 32, buffer[i + k * 32], kInput);)
    WS_T(c.reg(OpKind::Add, i + k * 32, thread_sum); c.work();)
  }
  WS_T(WS_AT_NEXT(reduce8_fixed_atomic); c.next(); c.atomic(Space::Shared, 0, 0, thread_sum); c.work();)
  atomicAdd(&block_sum, thread_sum);
  __syncthreads();
  WS_T(WS_AT_NEXT(reduce8_fixed_commit); c.next(); if (tid == 0) c.commit(block_sum);)
  if (tid == 0) atomicAdd(sum, block_sum);
}

/// epita.reduce8_fixed: reduce8 with block b covering [1024 b, 1024 b + 1024).
template <typename T>
ReduceOutcome run_reduce8_fixed(const ReduceArgs& a) {
  zero_sum<T>(a);
  reduce8_fixed<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<T*>(a.result), static_cast<const T*>(a.data),
                                                      as_int(a.n));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// epita.tuned. Beyond the slides: warpscope's own reduction, after the lesson, to show what is left
// between full_unroll and a library (cub.reduce) and how to close it. Not from the seed. The kernel and
// what it changes from full_unroll: reduction/tuned.cuh.
constexpr int kTunedUnroll = 4;                                            // 16-byte loads in flight per thread
constexpr tuned::Schedule kTunedSchedule = tuned::Schedule::DynamicTiles;  // same bits every run
constexpr tuned::Load kTunedLoad = tuned::Load::Plain;
__device__ tuned::Counters tuned_counters;  // zero between launches: the last block resets it

/// epita.tuned: one launch; blocks take tiles from a counter, one partial per tile, the last block folds them.
template <typename T>
ReduceOutcome run_tuned(const ReduceArgs& a) {
  if (a.block % 32 != 0) throw std::runtime_error("epita.tuned: the block must be a whole number of warps");
  const long long n4 = (a.n + 3) / 4;  // capacity is a multiple of kPadGranule, so the last vector is inside it
  const long long tiles = (n4 + a.block * kTunedUnroll - 1) / (a.block * kTunedUnroll);
  if (tiles > a.scratch_elems) throw std::runtime_error("epita.tuned: more tiles than partial slots");
  void* counters = nullptr;  // asked each launch: a context made after a fault has its own address
  WS_CUDA(cudaGetSymbolAddress(&counters, tuned_counters));
  tuned::reduce_tuned<T, kTunedUnroll, kTunedSchedule, kTunedLoad><<<grid_of(a), a.block, 0, a.stream>>>(
      static_cast<const T*>(a.data), n4, static_cast<T*>(a.scratch), static_cast<T*>(a.result),
      static_cast<tuned::Counters*>(counters));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

}  // namespace

std::vector<LauncherEntry> epita_launchers() {
  return {
      {"epita.race", by_type<run_race<int>, run_race<float>>},
      {"epita.reduce0", by_type<run_reduce0<int>, run_reduce0<float>>},
      {"epita.reduce1_nosync", by_type<run_reduce1_nosync<int>, run_reduce1_nosync<float>>},
      {"epita.reduce1", by_type<run_reduce1<int>, run_reduce1<float>>},
      {"epita.reduce2", by_type<run_reduce2<int>, run_reduce2<float>>},
      {"epita.reduce3", by_type<run_reduce3<int>, run_reduce3<float>>},
      {"epita.reduce4", by_type<run_reduce4<int>, run_reduce4<float>>},
      {"epita.add_twice", by_type<run_add_twice<int>, run_add_twice<float>>},
      {"epita.reduce5", by_type<run_reduce5<int>, run_reduce5<float>>},
      {"epita.reduce6", by_type<run_reduce6<int>, run_reduce6<float>>},
      {"epita.full_unroll", by_type<run_full_unroll<int>, run_full_unroll<float>>},
      {"epita.reduce7", by_type<run_reduce7<int>, run_reduce7<float>>},
      {"epita.reduce8", by_type<run_reduce8<int>, run_reduce8<float>>},
      {"epita.reduce8_fixed", by_type<run_reduce8_fixed<int>, run_reduce8_fixed<float>>},
      {"epita.tuned", by_type<run_tuned<int>, run_tuned<float>>},
  };
}

WS_TRACE_ARM_FUNCTION(epita_arm)
WS_TRACE_NS_END
}  // namespace ws::kernels
