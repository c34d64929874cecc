#include "formats/common/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace fg::formats {

namespace {
std::size_t rounded(std::size_t bytes) { return (bytes + kHugePage - 1) & ~(kHugePage - 1); }
}  // namespace

void* huge_page_allocate(std::size_t bytes) {
  // Past half the address space the rounding below would wrap: no table is that large.
  if (bytes > SIZE_MAX / 2) throw std::bad_alloc();
  const std::size_t len = rounded(bytes);
  // Mapped with a huge page's room to spare, then cut to a boundary.
  void* p = ::mmap(nullptr, len + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t aligned = (at + kHugePage - 1) & ~(kHugePage - 1);
  if (aligned > at) ::munmap(p, aligned - at);
  if (const std::size_t tail = at + kHugePage - aligned; tail > 0)
    ::munmap(reinterpret_cast<void*>(aligned + len), tail);
  ::madvise(reinterpret_cast<void*>(aligned), len, MADV_HUGEPAGE);  // a hint: small pages if it fails
  return reinterpret_cast<void*>(aligned);
}

void huge_page_deallocate(void* p, std::size_t bytes) noexcept { ::munmap(p, rounded(bytes)); }

void use_huge_pages() { set_big_table_memory(huge_page_memory()); }

}  // namespace fg::formats
