#include "host_vector.hpp"

#include <sys/mman.h>

#include <cstring>

namespace ws {

void* host_zeroed_alloc(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (bytes < kHostMapBytes) {
    void* p = ::operator new(bytes);
    std::memset(p, 0, bytes);
    return p;
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  // Advice only: where transparent huge pages are off, the block still works with 4 KiB pages.
  (void)madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

void host_zeroed_free(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (bytes == 0) bytes = 1;
  if (bytes < kHostMapBytes) {
    ::operator delete(p);
    return;
  }
  munmap(p, bytes);
}

}  // namespace ws
