#include "fg/big_table.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <stdexcept>

namespace fg {

namespace {

// std::allocator, not ::operator delete(p, bytes): sized deallocation is
// off by default in clang 14 (the sanitizer and fuzz build).
void* heap_allocate(std::size_t bytes) { return std::allocator<std::byte>{}.allocate(bytes); }
void heap_deallocate(void* p, std::size_t bytes) noexcept {
  std::allocator<std::byte>{}.deallocate(static_cast<std::byte*>(p), bytes);
}

// Set before reading starts and only read afterwards (tables of several
// threads are allocated while it holds still); the count of tables out
// guards the switch, so it is atomic.
BigTableMemory installed{heap_allocate, heap_deallocate};
std::atomic<std::size_t> tables_out{0};

}  // namespace

BigTableMemory heap_big_table_memory() { return {heap_allocate, heap_deallocate}; }

void set_big_table_memory(BigTableMemory memory) {
  if (tables_out.load() != 0)
    throw std::logic_error("set_big_table_memory: big tables of the memory before are still allocated");
  installed = memory;
}

namespace detail {

void* allocate_big_table(std::size_t bytes) {
  void* p = installed.allocate(bytes);
  tables_out.fetch_add(1, std::memory_order_relaxed);
  return p;
}

void deallocate_big_table(void* p, std::size_t bytes) noexcept {
  tables_out.fetch_sub(1, std::memory_order_relaxed);
  installed.deallocate(p, bytes);
}

}  // namespace detail

}  // namespace fg
