// Host-side parallel loops for inputs, CPU references and checks: fixed chunks handed to std::threads.
// The chunks depend only on n and the chunk size, never on the thread count, so a loop that combines
// per-chunk results in chunk order gives the same bits with 1 thread or 64.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace ws {

/// Elements per chunk of the host loops that stream over an input (2^16: small enough to balance
/// 16 threads at 2^20 elements, large enough that a chunk costs far more than handing it out).
constexpr std::int64_t kHostChunk = std::int64_t(1) << 16;

/// Threads the host loops use: the count set with set_host_threads(), else the hardware's (at least 1).
int host_threads();

/// Sets the thread count of the host loops; 0 restores the hardware's. Tests compare 1 and N threads.
void set_host_threads(int threads);

/// Calls fn(begin, end, chunk_index) for the chunks [k * chunk, min(n, (k + 1) * chunk)) of [0, n), on
/// up to host_threads() threads (the calling thread is one of them); returns when all are done. Chunks
/// run in any order and concurrently: fn may write only what belongs to its chunk. The first exception
/// a chunk throws is rethrown here once every thread has stopped. n <= 0 calls nothing; chunk >= 1.
void parallel_chunks(std::int64_t n, std::int64_t chunk,
                     const std::function<void(std::int64_t begin, std::int64_t end, std::int64_t index)>& fn);

/// dst[i] = double(src[i]) for i < count, on the host threads (outputs widened to RunResult::output).
template <class T>
void widen_to_double(const T* src, std::int64_t count, double* dst) {
  parallel_chunks(count, 4 * kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
    for (std::int64_t i = b; i < e; ++i) dst[i] = double(src[i]);
  });
}

/// The smallest i in [0, n) with bad(i) true, or -1: the first mismatch of a check, found on the host
/// threads (chunks after a chunk that found one stop early; the answer is the same for any thread count).
template <class Bad>
std::int64_t parallel_find_first(std::int64_t n, const Bad& bad) {
  std::atomic<std::int64_t> first{n};
  parallel_chunks(n, 4 * kHostChunk, [&](std::int64_t b, std::int64_t e, std::int64_t) {
    for (std::int64_t i = b; i < e && i < first.load(std::memory_order_relaxed); ++i) {
      if (!bad(i)) continue;
      std::int64_t cur = first.load();
      while (i < cur && !first.compare_exchange_weak(cur, i)) {}
      return;
    }
  });
  const std::int64_t f = first.load();
  return f < n ? f : -1;
}

/// Number of chunks parallel_chunks makes of n elements.
inline std::int64_t chunk_count(std::int64_t n, std::int64_t chunk) { return n <= 0 ? 0 : (n + chunk - 1) / chunk; }

/// reduce(begin, end) of every chunk on the host threads, then combine(acc, part) in chunk order from
/// `init`: the same result for any thread count (float sums included: the order is fixed by n and chunk).
template <class T, class Reduce, class Combine>
T chunked_reduce(std::int64_t n, std::int64_t chunk, T init, const Reduce& reduce, const Combine& combine) {
  std::vector<T> part(std::size_t(chunk_count(n, chunk)), init);
  parallel_chunks(n, chunk,
                  [&](std::int64_t b, std::int64_t e, std::int64_t k) { part[std::size_t(k)] = reduce(b, e); });
  T acc = init;
  for (const T& p : part) acc = combine(acc, p);
  return acc;
}

}  // namespace ws
