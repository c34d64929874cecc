// Bit counting for the rank lookups of the stack table and the call tree.
#pragma once

#include <cstdint>

namespace fg {

/// The number of set bits of `x`. Inline arithmetic: std::popcount is a
/// library call on the baseline x86-64 that Debian builds for (no POPCNT
/// instruction), and these counts sit on the hottest paths.
inline std::uint32_t bit_count(std::uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<std::uint32_t>((x * 0x0101010101010101ull) >> 56);
}

}  // namespace fg
