// The CS121 reduction lesson: the max and sum kernels of "GPUs and CUDA 3: Intrinsics" (CS121 Parallel
// Computing, Fall 2022), "GPUs and CUDA 3: Intrinsics", CS121, Fall 2022, in teaching order, each
// followed by its host launcher. Indexing, synchronization and launch shapes are the slides'.
//
// The max kernels are int only (atomicMax has no float form); the sum kernels are templated on the
// element type T (int or float). Unguarded loads stay below grid * blockDim.x = round_up(n, blockDim.x)
// <= capacity (power-of-two blocks), where the input is padded with the op's identity (INT_MIN for max).
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/trace_record.cuh"
#include "reduction/reduce_launch.hpp"

namespace ws::kernels {
WS_TRACE_NS_BEGIN
namespace {
WS_T(namespace ws_points = ::ws::trace_points::cs121;)

int as_int(std::int64_t n) { return static_cast<int>(n); }  // n <= 2^30
dim3 grid_of(const ReduceArgs& a) { return dim3(static_cast<unsigned int>(a.grid)); }

// Picks the int or float instantiation of a launcher by the run's element type.
template <ReduceLauncher ForInt, ReduceLauncher ForFloat>
ReduceOutcome by_type(const ReduceArgs& a) {
  return a.type == DType::Int32 ? ForInt(a) : ForFloat(a);
}

/// Max variants are int32 only; the launch rules reject float32 before this, so this is a safety net.
void require_int32(const ReduceArgs& a, const char* id) {
  if (a.type != DType::Int32) throw std::runtime_error(std::string(id) + " takes int32 only (atomicMax on int)");
}

// Number of local maxes of "Improving performance" (the slide's num_locals parameter).
constexpr int kNumLocals = 256;

// Not on a slide: sets *global_max and local_max[0 .. num_locals) to INT_MIN, the identity of max
// (a byte-wise cudaMemset cannot write 0x80000000). One block of max(1, num_locals) threads.
__global__ void init_max(int* global_max, int* local_max, int num_locals) {
  int i = threadIdx.x;
  if (i == 0) *global_max = INT_MIN;
  if (i < num_locals) local_max[i] = INT_MIN;
}

// ---------------------------------------------------------------------------------------------------
// cs121.atomic_max. Seed 003, slide "Finding max of array" (the slide names the kernel `max`).
// One thread per element, each doing atomicMax on the single global maximum. Correct whatever the
// order (max is commutative and the atomic makes each update indivisible), but every thread of the
// grid contends for one address ("Atomics performance": the updates are serialized).
__global__ void max_global(const int* vals, int* global_max) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  int val = vals[i];  // unguarded as on the slide: the padding past n holds INT_MIN
  WS_T(Cursor c; WS_AT(max_global_load); c.next(); c.load(Space::Global, 0, i, val, kInput); c.work();)
  WS_T(WS_AT_NEXT(max_global_atomic); c.next(); c.atomic(Space::Global, 0, 0, val, kAccumulator); c.work();)
  atomicMax(global_max, val);
}

/// cs121.atomic_max: one global atomicMax per element.
ReduceOutcome run_atomic_max(const ReduceArgs& a) {
  require_int32(a, "cs121.atomic_max");
  int* global_max = static_cast<int*>(a.result);
  init_max<<<1, 1, 0, a.stream>>>(global_max, nullptr, 0);
  WS_LAUNCHED();
  max_global<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const int*>(a.data), global_max);
  WS_LAUNCHED();
  return {global_max, 1, 2};
}

// ---------------------------------------------------------------------------------------------------
// cs121.local_max. Seed 003, slide "Improving performance" (the first of the two slides with that
// title, the one about max).
// Changed from atomic_max: the single maximum is split into num_locals local maxes in global memory;
// thread i first maxes into local_max[i % num_locals], and only when that raised the local max does it
// try the global one. Contention is spread over num_locals addresses, and the global max is touched
// rarely once the local maxes are high. (The slide's `atomicMax(&global_max, val)` takes the address of
// the pointer parameter: a typo for `global_max`.)
__global__ void max_local(const int* vals, int* global_max, int* local_max, int num_locals) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  int val = vals[i];  // unguarded as on the slide (padding: INT_MIN)
  WS_T(Cursor c; WS_AT(max_local_load); c.next(); c.load(Space::Global, 0, i, val, kInput); c.work();)
  int local_i = i % num_locals;
  int old_max = atomicMax(&local_max[local_i], val);
  WS_T(WS_AT(max_local_atomic); c.next(); c.atomic(Space::Global, 0, local_i, val, kPartials); c.work();)
  WS_T(WS_AT_NEXT(max_local_global); c.next();)
  WS_T(if (old_max < val) c.atomic(Space::Global, 0, 0, val, kAccumulator);)
  WS_T(if (old_max < val) c.work();)
  if (old_max < val) {
    atomicMax(global_max, val);
  }
}

/// cs121.local_max: atomicMax into one of 256 local maxes, then into the global max only when that one grew.
ReduceOutcome run_local_max(const ReduceArgs& a) {
  require_int32(a, "cs121.local_max");
  int* global_max = static_cast<int*>(a.result);
  int* local_max = static_cast<int*>(a.scratch);  // kNumLocals ints (scratch holds far more)
  init_max<<<1, kNumLocals, 0, a.stream>>>(global_max, local_max, kNumLocals);
  WS_LAUNCHED();
  max_local<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const int*>(a.data), global_max, local_max,
                                                  kNumLocals);
  WS_LAUNCHED();
  return {global_max, 1, 2};
}

// ---------------------------------------------------------------------------------------------------
// Seed 003, slide "Shuffle warp reduce" (the code is the linked NVIDIA post's warpReduceSum, with the
// CUDA 9 `_sync` form of the shuffle): each step every lane adds the value `offset` lanes above it;
// after five steps lane 0 holds the warp's sum. Registers only, no shared memory, no barrier.
template <typename T>
__inline__ __device__ T warpReduceSum(T val WS_T(, Cursor& c)) {
  WS_T(const int lane = threadIdx.x % warpSize;)
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    WS_T(c.next(); const T got = __shfl_down_sync(0xffffffff, val, offset);)
    val += __shfl_down_sync(0xffffffff, val, offset);
    WS_T(WS_AT(warp_shfl); c.shuffle(lane + offset < warpSize ? lane + offset : lane, got);)
    WS_T(c.reg(OpKind::Add, -1, val); c.work();)
  }
  return val;
}

// Seed 003, slide "Block reduce": each warp reduces its 32 values with shuffles, lane 0 of each warp
// parks the warp's sum in shared[wid], and the first warp reduces those (at most 32) partial sums.
// Thread 0 returns the block's sum. Needs a whole number of warps (full-mask shuffles).
template <typename T>
__inline__ __device__ T blockReduceSum(T val WS_T(, Cursor& c)) {
  static __shared__ T shared[32];  // shared mem for 32 partial sums
  int lane = threadIdx.x % warpSize;
  int wid = threadIdx.x / warpSize;

  val = warpReduceSum(val WS_T(, c));  // each warp performs a partial reduction
  if (lane == 0) shared[wid] = val;    // write the reduced value to shared memory
  WS_T(WS_AT(block_store); c.next();)
  WS_T(if (lane == 0) c.store(Space::Shared, 0, wid, shared[wid]);)
  WS_T(if (lane == 0) c.work();)
  __syncthreads();  // wait for all partial reductions

  // read from shared memory only if that warp existed
  val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : T(0);
  WS_T(WS_AT(block_load); c.next();)
  WS_T(if (threadIdx.x < blockDim.x / warpSize) c.load(Space::Shared, 0, lane, val);)
  WS_T(if (threadIdx.x < blockDim.x / warpSize) c.work();)
  if (wid == 0) val = warpReduceSum(val WS_T(, c));  // final reduce within the first warp
  WS_T(if (wid != 0) c.set(c.step + 5);)             // the other warps skip its five steps (offsets 16 .. 1)
  return val;
}

// ---------------------------------------------------------------------------------------------------
// cs121.block_reduce. Seed 003, slide "Block reduce".
// Changed from local_max (a sum now, and no atomics inside the block): one element per thread
// (guarded), the block's values are summed by blockReduceSum with warp shuffles and a 32-slot shared
// array, and thread 0 adds the block sum to the result with one atomicAdd.
template <typename T>
__global__ void block_reduce(const T* in, T* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T val = i < n ? in[i] : T(0);
  WS_T(Cursor c; WS_AT(block_reduce_load); c.next();)
  WS_T(if (i < n) c.load(Space::Global, 0, i, val, kInput);)
  WS_T(if (i < n) c.work();)
  val = blockReduceSum(val WS_T(, c));
  WS_T(WS_AT_NEXT(block_reduce_atomic); c.next();)
  WS_T(if (threadIdx.x == 0) c.atomic(Space::Global, 0, 0, val, kAccumulator);)
  WS_T(if (threadIdx.x == 0) c.work();)
  if (threadIdx.x == 0) atomicAdd(sum, val);
}

/// cs121.block_reduce: one element per thread, shuffle-based blockReduceSum, one atomicAdd per block.
template <typename T>
ReduceOutcome run_block_reduce(const ReduceArgs& a) {
  WS_CUDA(cudaMemsetAsync(a.result, 0, sizeof(T), a.stream));
  block_reduce<<<grid_of(a), a.block, 0, a.stream>>>(static_cast<const T*>(a.data), static_cast<T*>(a.result),
                                                     as_int(a.n));
  WS_LAUNCHED();
  return {a.result, 1, 1};
}

// ---------------------------------------------------------------------------------------------------
// cs121.device_reduce. Seed 003, slide "Reducing larger arrays".
// Changed from block_reduce: no atomics at all. Each thread first sums the input with a grid-size
// stride, each block reduces those sums with blockReduceSum and writes one partial to out[blockIdx.x];
// a second launch of one 1024-thread block reduces the (at most 1024) partials in place into out[0].
template <typename T>
__global__ void deviceReduceKernel(const T* in, T* out, int N) {
  T sum = 0;
  WS_T(Cursor c; const int passes = c.passes(N, (long long)blockDim.x * gridDim.x);)
  // reduce multiple elements per thread
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += blockDim.x * gridDim.x) {
    sum += in[i];
    WS_T(WS_AT(device_cascade); c.next(); c.load(Space::Global, 0, i, in[i], kInput); c.reg(OpKind::Add, i, sum);)
    WS_T(c.work();)
  }
  WS_T(c.set(passes - 1);)
  sum = blockReduceSum(sum WS_T(, c));
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
  WS_T(WS_AT(device_store); c.next();)
  WS_T(if (threadIdx.x == 0) c.store(Space::Global, 0, blockIdx.x, sum, kPartials);)
  WS_T(if (threadIdx.x == 0) c.work();)
}

/// cs121.device_reduce: grid-stride sums + blockReduceSum into per-block partials, then <<<1, 1024>>> folds them.
template <typename T>
ReduceOutcome run_device_reduce(const ReduceArgs& a) {
  // The slide computes blocks = min(ceil(N / threads), 1024); the launch rules cap the grid the same way.
  if (a.grid > 1024 || a.grid > a.scratch_elems)
    throw std::runtime_error("cs121.device_reduce: the second pass folds at most 1024 block sums, got a grid of " +
                             std::to_string(a.grid));
  const int blocks = static_cast<int>(a.grid);
  T* out = static_cast<T*>(a.scratch);
  deviceReduceKernel<<<blocks, a.block, 0, a.stream>>>(static_cast<const T*>(a.data), out, as_int(a.n));
  WS_LAUNCHED();
  deviceReduceKernel<<<1, 1024, 0, a.stream>>>(out, out, blocks);  // in place: reads finish before out[0] is written
  WS_LAUNCHED();
  return {out, 1, 2};
}

}  // namespace

std::vector<LauncherEntry> cs121_launchers() {
  return {
      {"cs121.atomic_max", run_atomic_max},
      {"cs121.local_max", run_local_max},
      {"cs121.block_reduce", by_type<run_block_reduce<int>, run_block_reduce<float>>},
      {"cs121.device_reduce", by_type<run_device_reduce<int>, run_device_reduce<float>>},
  };
}

WS_TRACE_ARM_FUNCTION(cs121_arm)
WS_TRACE_NS_END
}  // namespace ws::kernels
