#include "fg/big_table.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <new>
#include <numeric>

using namespace fg;

namespace {
constexpr std::size_t kHuge = HugePageAllocator<std::uint64_t>::kHuge;

bool huge_aligned(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kHuge == 0; }
}  // namespace

TEST_CASE("a big table starts on a huge-page boundary and keeps its values as it grows") {
  // 8 MiB: mapped; its start is where a 2 MiB page can begin.
  BigVector<std::uint64_t> v(std::size_t{1} << 20);
  CHECK(huge_aligned(v.data()));
  std::iota(v.begin(), v.end(), std::uint64_t{7});
  // Growing copies into a new mapping of 3 huge pages and more, whose ends
  // are written as well: a mapping cut short would fault here.
  v.resize(v.size() * 3 + 12345, 1);
  CHECK(huge_aligned(v.data()));
  CHECK(v[0] == 7);
  CHECK(v[(std::size_t{1} << 20) - 1] == (std::uint64_t{1} << 20) + 6);
  CHECK(v[std::size_t{1} << 20] == 1);
  v.back() = 99;
  CHECK(v.back() == 99);
  // Let go of, then made again of the same size, as a chunk's tables are.
  BigVector<std::uint64_t>().swap(v);
  CHECK(v.capacity() == 0);
  BigVector<std::uint64_t> w(std::size_t{1} << 20, 5);
  CHECK(w[12345] == 5);
}

TEST_CASE("a small table comes from the heap, and a size past the address space is refused") {
  BigVector<std::uint32_t> small(1000, 3);
  CHECK(small[999] == 3);
  small.push_back(4);
  CHECK(small.back() == 4);
  HugePageAllocator<std::uint64_t> a;
  CHECK_THROWS_AS(a.allocate(SIZE_MAX / 4), std::bad_alloc);
  // A size whose rounding up to huge pages would wrap to a small mapping.
  CHECK_THROWS_AS(a.allocate(SIZE_MAX / sizeof(std::uint64_t)), std::bad_alloc);
}
