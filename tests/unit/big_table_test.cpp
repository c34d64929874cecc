#include "fg/big_table.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <new>
#include <numeric>
#include <stdexcept>

#include "formats/common/huge_pages.h"

using namespace fg;

namespace {
bool huge_aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % formats::kHugePage == 0; }

// A BigTableMemory that counts what it hands out, over the heap.
std::size_t counted_allocations = 0, counted_bytes_out = 0;
void* counting_allocate(std::size_t bytes) {
  ++counted_allocations;
  counted_bytes_out += bytes;
  return ::operator new(bytes);
}
void counting_deallocate(void* p, std::size_t bytes) noexcept {
  counted_bytes_out -= bytes;
  ::operator delete(p);  // unsized: clang has no sized delete without -fsized-deallocation
}

// Installs `memory` for the scope, then the heap again.
struct Installed {
  explicit Installed(BigTableMemory memory) { set_big_table_memory(memory); }
  ~Installed() { set_big_table_memory(heap_big_table_memory()); }
};

// Fills, grows and shrinks a table past kBigTableLeast, checking its values.
void exercise(BigVector<std::uint64_t>& v) {
  std::iota(v.begin(), v.end(), std::uint64_t{7});
  const std::size_t was = v.size();
  // Growing copies into a new table whose end is written as well: memory
  // cut short would fault here.
  v.resize(v.size() * 3 + 12345, 1);
  CHECK(v[0] == 7);
  CHECK(v[was - 1] == was + 6);
  CHECK(v[was] == 1);
  v.back() = 99;
  CHECK(v.back() == 99);
}
}  // namespace

TEST_CASE("a big table from the default memory, the heap, keeps its values as it grows") {
  BigVector<std::uint64_t> v(std::size_t{1} << 20);  // 8 MiB: past kBigTableLeast
  exercise(v);
  BigVector<std::uint32_t> small(1000, 3);
  CHECK(small[999] == 3);
  small.push_back(4);
  CHECK(small.back() == 4);
  BigTableAllocator<std::uint64_t> a;
  CHECK_THROWS_AS(a.allocate(SIZE_MAX / 4), std::bad_alloc);
  CHECK_THROWS_AS(a.allocate(SIZE_MAX / sizeof(std::uint64_t)), std::bad_alloc);
}

TEST_CASE("installed memory serves tables of kBigTableLeast bytes and more, and only those") {
  counted_allocations = counted_bytes_out = 0;
  {
    Installed counting({counting_allocate, counting_deallocate});
    {
      BigVector<std::uint8_t> below(kBigTableLeast - 1);
      CHECK(counted_allocations == 0);
      BigVector<std::uint8_t> at(kBigTableLeast);
      CHECK(counted_allocations == 1);
      CHECK(counted_bytes_out == kBigTableLeast);
      // Not while a table of this memory is out: it would go back to the wrong one.
      CHECK_THROWS_AS(set_big_table_memory(heap_big_table_memory()), std::logic_error);
      BigVector<std::uint64_t> v(std::size_t{1} << 20);
      exercise(v);
      CHECK(counted_allocations == 3);  // `at`, v, and v grown
    }
    CHECK(counted_bytes_out == 0);  // all given back, with the sizes they were made with
  }
  BigVector<std::uint8_t> after(kBigTableLeast);  // the heap again
  CHECK(counted_allocations == 3);
}

TEST_CASE("huge-page memory starts tables on a huge-page boundary and keeps their values") {
  void* p = formats::huge_page_allocate(3 * formats::kHugePage + 1);
  CHECK(huge_aligned(p));
  static_cast<char*>(p)[4 * formats::kHugePage - 1] = 1;  // rounded up to whole huge pages
  formats::huge_page_deallocate(p, 3 * formats::kHugePage + 1);
  CHECK_THROWS_AS(formats::huge_page_allocate(SIZE_MAX / 2 + 1), std::bad_alloc);

  Installed huge(formats::huge_page_memory());
  BigVector<std::uint64_t> v(std::size_t{1} << 20);
  CHECK(huge_aligned(v.data()));
  exercise(v);
  CHECK(huge_aligned(v.data()));
  // Let go of, then made again of the same size, as a chunk's tables are.
  BigVector<std::uint64_t>().swap(v);
  CHECK(v.capacity() == 0);
  BigVector<std::uint64_t> w(std::size_t{1} << 20, 5);
  CHECK(huge_aligned(w.data()));
  CHECK(w[12345] == 5);
}
