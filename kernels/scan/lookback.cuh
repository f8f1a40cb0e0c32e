// The decoupled look-back of a single-pass scan (Merrill and Garland 2016): the tile status words, their
// publish and peek, and warp 0's walk back over the statuses of the preceding tiles. Included by the
// product's kernel (decoupled_lookback.cu) and by the A/B harness's candidates (bench/scan_ab.cu), so
// both look back with the same code; the harness's counting build passes its counters as the Count hook.
#pragma once
#include <cuda/atomic>

namespace ws::kernels {

// Tile status words: the flag in the high 32 bits, the value's bits in the low 32, so one 64-bit store
// publishes both and a reader can never see a flag without its value.
constexpr unsigned long long kInvalid = 0, kAggregate = 1ull << 32, kPrefix = 2ull << 32;
constexpr unsigned long long kFlagMask = 0xffffffff00000000ull;

/// The 32 bits a status word carries for a value of T (int or float), and back.
__device__ inline unsigned bits_of(int v) { return static_cast<unsigned>(v); }
__device__ inline unsigned bits_of(float v) { return __float_as_uint(v); }
template <typename T>
__device__ T from_bits(unsigned b);
template <>
__device__ inline int from_bits<int>(unsigned b) {
  return static_cast<int>(b);
}
template <>
__device__ inline float from_bits<float>(unsigned b) {
  return __uint_as_float(b);
}

/// A tile's status word as a device-scope atomic: its relaxed 64-bit loads and stores are single accesses.
using StatusRef = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

/// Stores tile `tile`'s status: `flag` (kAggregate or kPrefix) with the value's `bits`, in one 64-bit store.
__device__ inline void publish(unsigned long long* status, unsigned tile, unsigned long long flag,
                               unsigned bits) {
  StatusRef(status[tile]).store(flag | bits, cuda::memory_order_relaxed);
}
/// Reads tile `tile`'s status word.
__device__ inline unsigned long long peek(unsigned long long* status, long long tile) {
  return StatusRef(status[tile]).load(cuda::memory_order_relaxed);
}

/// The Count hook of look_back_windows that counts nothing (the product's): both calls compile away.
struct NoLookbackCount {
  __device__ void window() const {}  ///< a window of 32 statuses is about to be read
  __device__ void repoll() const {}  ///< the window is read again: a lane found an INVALID status
};

/// Warp 0's look-back for tile `tile` > 0, called by all 32 lanes of the warp: one window of 32 preceding
/// tiles at a time (lane l reads tile - 1 - l, then tile - 33 - l, ...), each read again until no lane
/// finds INVALID; the window's values are summed up to the nearest tile that holds a PREFIX, where the
/// walk stops. Returns the sum (the tile's exclusive prefix) in every lane.
template <typename T, class Count = NoLookbackCount>
__device__ inline T look_back_windows(unsigned long long* status, unsigned tile, Count count = {}) {
  const unsigned full = 0xffffffffu;
  const int lane = threadIdx.x & 31;
  T exclusive_prefix = T(0);
  long long start = static_cast<long long>(tile) - 1;
  while (true) {
    const long long p = start - lane;
    unsigned long long st;
    count.window();
    bool again = false;
    do {
      if (again) count.repoll();
      again = true;
      st = p >= 0 ? peek(status, p) : kPrefix;  // never summed: tile 0 always holds a PREFIX first
    } while (__any_sync(full, (st & kFlagMask) == kInvalid));
    const unsigned prefix_lanes = __ballot_sync(full, (st & kFlagMask) == kPrefix);
    const int stop = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;  // nearest tile with a PREFIX
    T val = lane <= stop ? from_bits<T>(static_cast<unsigned>(st)) : T(0);
#pragma unroll
    for (int off = 16; off > 0; off /= 2) val = val + __shfl_down_sync(full, val, off);
    exclusive_prefix = __shfl_sync(full, val, 0) + exclusive_prefix;
    if (prefix_lanes) break;
    start -= 32;
  }
  return exclusive_prefix;
}

}  // namespace ws::kernels
