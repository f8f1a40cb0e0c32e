#include "parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace ws {

namespace {
std::atomic<int> g_threads{0};
}  // namespace

int host_threads() {
  const int set = g_threads.load();
  if (set > 0) return set;
#ifdef WS_NO_THREADS
  return 1;  // the browser build: no threads to hand chunks to
#endif
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? int(hw) : 1;
}

void set_host_threads(int threads) { g_threads.store(threads > 0 ? threads : 0); }

void parallel_chunks(std::int64_t n, std::int64_t chunk,
                     const std::function<void(std::int64_t, std::int64_t, std::int64_t)>& fn) {
  if (n <= 0) return;
  if (chunk < 1) chunk = 1;
  const std::int64_t chunks = chunk_count(n, chunk);
  const int workers = int(std::min<std::int64_t>(host_threads(), chunks));
  if (workers <= 1) {
    for (std::int64_t k = 0; k < chunks; ++k) fn(k * chunk, std::min(n, (k + 1) * chunk), k);
    return;
  }
  std::atomic<std::int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first;
  std::mutex first_mutex;
  auto work = [&] {
    for (;;) {
      const std::int64_t k = next.fetch_add(1);
      if (k >= chunks || failed.load()) return;
      try {
        fn(k * chunk, std::min(n, (k + 1) * chunk), k);
      } catch (...) {
        std::lock_guard<std::mutex> lock(first_mutex);
        if (!first) first = std::current_exception();
        failed.store(true);
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(std::size_t(workers - 1));
  for (int t = 1; t < workers; ++t) {
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {  // no more threads to be had: the ones running finish the chunks
      break;
    }
  }
  work();
  for (auto& t : pool) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace ws
