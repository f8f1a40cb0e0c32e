// Host arrays of a run's size (inputs, references, outputs: up to 2^30 elements): std::vector with an
// allocator that makes a large array cost its first parallel write, not a serial zeroing pass.
//
// Why: std::vector<T>(n) writes n zeros on one thread before anyone fills the array, and every first
// write of a 4 KiB page is a page fault. For 2^28 doubles (2 GiB) that is about a second on the GPU
// machine (docs/device/h100-host-time.md), more than every other phase of a run together. Here a large
// block comes from mmap (the kernel hands out zero pages, faulted in by whichever thread writes them
// first), advised as transparent huge pages (2 MiB faults); elements are value-initialized by that zero
// fill, not by a loop, so `HostVector<double> v(n)` is all zeros and costs nothing until written.
#pragma once
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace ws {

/// Bytes from which a HostAllocator block comes from mmap with huge pages advised (smaller blocks:
/// operator new, then zeroed).
constexpr std::size_t kHostMapBytes = std::size_t(1) << 21;

/// Allocates `bytes` zero bytes: mmap'd and advised MADV_HUGEPAGE from kHostMapBytes on, else
/// operator new + memset. Throws std::bad_alloc when the system has no memory for it.
void* host_zeroed_alloc(std::size_t bytes);
/// Frees a block of host_zeroed_alloc(bytes) (the same `bytes`).
void host_zeroed_free(void* p, std::size_t bytes) noexcept;

/// std::allocator's interface over host_zeroed_alloc for arithmetic element types: a new block is
/// zero, so default construction writes nothing (value-initialization's zero is already there).
/// One caveat of skipping the write: elements re-grown inside the capacity after a shrink (resize
/// smaller, then larger, or clear() then resize) keep their old values; use assign(n, 0) there.
template <class T>
struct HostAllocator {
  static_assert(std::is_arithmetic<T>::value, "HostAllocator holds numbers only");
  using value_type = T;
  HostAllocator() noexcept = default;
  template <class U>
  HostAllocator(const HostAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_alloc();
    return static_cast<T*>(host_zeroed_alloc(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { host_zeroed_free(p, n * sizeof(T)); }
  /// Default construction: nothing to write (see above).
  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... A>
  void construct(U* p, A&&... a) {
    ::new (static_cast<void*>(p)) U(std::forward<A>(a)...);
  }
  template <class U>
  struct rebind {
    using other = HostAllocator<U>;
  };
};
template <class T, class U>
bool operator==(const HostAllocator<T>&, const HostAllocator<U>&) noexcept {
  return true;
}
template <class T, class U>
bool operator!=(const HostAllocator<T>&, const HostAllocator<U>&) noexcept {
  return false;
}

/// A run-sized host array (see the file comment): a std::vector over HostAllocator, which also takes
/// (copies) a plain std::vector, so small arrays built elsewhere (tests, files) assign to it directly.
template <class T>
class HostVector : public std::vector<T, HostAllocator<T>> {
  using Base = std::vector<T, HostAllocator<T>>;

 public:
  using Base::Base;
  HostVector() = default;
  HostVector(const std::vector<T>& v) : Base(v.begin(), v.end()) {}
  HostVector& operator=(const std::vector<T>& v) {
    this->assign(v.begin(), v.end());
    return *this;
  }
  HostVector& operator=(std::initializer_list<T> l) {
    this->assign(l);
    return *this;
  }
  /// A plain std::vector copy (for code that keeps small arrays in one).
  std::vector<T> to_vector() const { return std::vector<T>(this->begin(), this->end()); }
};
template <class T>
bool operator==(const HostVector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}
template <class T>
bool operator==(const std::vector<T>& a, const HostVector<T>& b) {
  return b == a;
}

/// A read-only view of contiguous numbers (C++17 has no std::span): what a reference or a check reads,
/// whichever allocator holds the array. It does not own the numbers: keep them alive while it is used.
template <class T>
class ConstSpan {
 public:
  ConstSpan(const T* data, std::size_t size) : data_(data), size_(size) {}
  template <class A>
  ConstSpan(const std::vector<T, A>& v) : data_(v.data()), size_(v.size()) {}
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& back() const { return data_[size_ - 1]; }

 private:
  const T* data_;
  std::size_t size_;
};

}  // namespace ws
