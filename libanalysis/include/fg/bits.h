// Bit counting for the rank lookups of the stack table and the call tree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

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

/// A set of the numbers below a bound, as bits, that gives its members
/// dense slots in their order: a table of rows for the members only, read
/// by number. set() every member, then count_members() once, then slot().
class RankedBits {
 public:
  RankedBits() = default;
  explicit RankedBits(std::size_t bound) : bits_((bound + 63) / 64) {}
  void set(std::uint32_t i) { bits_[i >> 6] |= std::uint64_t(1) << (i & 63); }
  bool test(std::uint32_t i) const { return bits_[i >> 6] >> (i & 63) & 1; }
  /// Counts the members (which set() may not change after).
  std::uint32_t count_members() {
    before_.resize(bits_.size());
    std::uint32_t count = 0;
    for (std::size_t w = 0; w < bits_.size(); ++w) {
      before_[w] = count;
      count += bit_count(bits_[w]);
    }
    return count;
  }
  /// The members below `i`: the slot of `i` when it is one.
  std::uint32_t slot(std::uint32_t i) const {
    return before_[i >> 6] + bit_count(bits_[i >> 6] & ((std::uint64_t(1) << (i & 63)) - 1));
  }

 private:
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint32_t> before_;  // per word of bits_
};

}  // namespace fg
