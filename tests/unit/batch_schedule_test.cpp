// fg-report's two parts of a batch (#35): balanced by bytes, ordered so
// that the largest inputs of the two parts do not run at once.
#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <vector>

#include "formats/batch_report.h"

using fg::formats::report_parts;
using Parts = std::array<std::vector<std::size_t>, 2>;

TEST_CASE("report_parts: equal bytes, largest first to the lighter part") {
  // Largest first: 1 (50) to part 0 (both empty); 2 (30) and 3 (30) to
  // part 1 (0, then 30 < 50); 0 (10) to part 0 (50 < 60); 4 (5) to part 0
  // (60 = 60 and 2 inputs each: part 0).
  const std::vector<std::uintmax_t> sizes{10, 50, 30, 30, 5};
  const Parts parts = report_parts({0, 1, 2, 3, 4}, sizes);
  CHECK(parts[0] == std::vector<std::size_t>{1, 0, 4});  // largest first
  CHECK(parts[1] == std::vector<std::size_t>{3, 2});     // smallest first: its largest runs last
}

TEST_CASE("report_parts: the two largest inputs fall in different parts and run apart") {
  // Index parity would put both 100s in part 0; by size they are split, and
  // part 1's runs last while part 0's runs first. The 1s alternate (equal
  // bytes: the part of fewer inputs, else part 0).
  const std::vector<std::uintmax_t> sizes{100, 1, 100, 1, 1, 1};
  const Parts parts = report_parts({0, 1, 2, 3, 4, 5}, sizes);
  CHECK(parts[0] == std::vector<std::size_t>{0, 1, 4});
  CHECK(parts[1] == std::vector<std::size_t>{5, 3, 2});
}

TEST_CASE("report_parts: a shard's inputs only, and unknown sizes (0) alternate") {
  const std::vector<std::uintmax_t> sizes{7, 0, 9, 0, 0};
  CHECK(report_parts({1, 3}, sizes) == Parts{std::vector<std::size_t>{1}, std::vector<std::size_t>{3}});
  CHECK(report_parts({1, 3, 4}, sizes) == Parts{std::vector<std::size_t>{1, 4}, std::vector<std::size_t>{3}});
  CHECK(report_parts({}, sizes) == Parts{});
}
