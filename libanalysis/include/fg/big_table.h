// Internal: memory for large tables read at random (hash indexes, tables
// by key), for libanalysis and the fast readers. A table of kBigTableLeast
// bytes or more takes its memory from a pair of functions a program may
// install once at startup (set_big_table_memory()); the default, and every
// smaller table, is the heap. The tools install 2 MiB pages
// (formats/common/huge_pages.h), so that a lookup's cache miss does not also
// miss the TLB; libanalysis itself stays standard C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace fg {

/// Tables this large or larger come from the installed memory; smaller
/// ones from the heap (std::allocator), whatever is installed.
inline constexpr std::size_t kBigTableLeast = std::size_t{4} << 20;

/// Where tables of kBigTableLeast bytes or more get their memory:
/// allocate(bytes) returns memory aligned for any standard type, or throws
/// std::bad_alloc; deallocate(p, bytes) gets back what allocate(bytes)
/// returned, with the same size.
struct BigTableMemory {
  void* (*allocate)(std::size_t bytes);
  void (*deallocate)(void* p, std::size_t bytes) noexcept;
};

/// The heap (operator new and delete): the default.
BigTableMemory heap_big_table_memory();

/// Makes every big table allocated from now on take its memory from
/// `memory`. For a program's startup: throws std::logic_error while a big
/// table made with other memory is still allocated (it would be given back
/// to the wrong deallocate).
void set_big_table_memory(BigTableMemory memory);

namespace detail {
/// The installed memory's allocate and deallocate, counting what is out.
void* allocate_big_table(std::size_t bytes);
void deallocate_big_table(void* p, std::size_t bytes) noexcept;
}  // namespace detail

/// A std::allocator for big tables: the heap below kBigTableLeast bytes,
/// the installed BigTableMemory from there on. Stateless: one call through
/// a function pointer per allocation, none per element.
template <typename T>
struct BigTableAllocator {
  using value_type = T;

  BigTableAllocator() = default;
  template <typename U>
  BigTableAllocator(const BigTableAllocator<U>&) {}

  T* allocate(std::size_t n) {
    // Past half the address space no size is real, and rounding it up could wrap.
    if (n > SIZE_MAX / 2 / sizeof(T)) throw std::bad_alloc();
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kBigTableLeast) return std::allocator<T>().allocate(n);
    return static_cast<T*>(detail::allocate_big_table(bytes));
  }
  void deallocate(T* p, std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kBigTableLeast)
      std::allocator<T>().deallocate(p, n);
    else
      detail::deallocate_big_table(p, bytes);
  }
  template <typename U>
  bool operator==(const BigTableAllocator<U>&) const {
    return true;
  }
};

/// A vector for a large table read at random.
template <typename T>
using BigVector = std::vector<T, BigTableAllocator<T>>;

}  // namespace fg
