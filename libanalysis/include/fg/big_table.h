// Memory for large tables read at random (hash indexes, tables by key):
// in 2 MiB pages where the kernel has them (transparent huge pages, asked
// for with madvise), so that a lookup's cache miss does not also miss the
// TLB. A table of 100 MB spans 25,000 small pages, far more than the TLB
// holds, and under a hypervisor each TLB miss walks two sets of page tables.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace fg {

template <typename T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t kHuge = std::size_t{2} << 20;  // bytes of a huge page
  static constexpr std::size_t kLeast = 2 * kHuge;            // smaller tables come from the heap

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(std::size_t n) {
    // Past half the address space the rounding below would wrap: no table is that large.
    if (n > SIZE_MAX / 2 / sizeof(T)) throw std::bad_alloc();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kLeast) return std::allocator<T>().allocate(n);
    const std::size_t len = rounded(bytes);
    // Mapped with a huge page's room to spare, then cut to a boundary.
    void* p = ::mmap(nullptr, len + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t aligned = (at + kHuge - 1) & ~(kHuge - 1);
    if (aligned > at) ::munmap(p, aligned - at);
    if (const std::size_t tail = at + kHuge - aligned; tail > 0)
      ::munmap(reinterpret_cast<void*>(aligned + len), tail);
    ::madvise(reinterpret_cast<void*>(aligned), len, MADV_HUGEPAGE);  // a hint: small pages if it fails
    return reinterpret_cast<T*>(aligned);
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kLeast)
      std::allocator<T>().deallocate(p, n);
    else
      ::munmap(p, rounded(bytes));
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const {
    return true;
  }

 private:
  static std::size_t rounded(std::size_t bytes) { return (bytes + kHuge - 1) & ~(kHuge - 1); }
};

/// A vector for a large table read at random.
template <typename T>
using BigVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace fg
