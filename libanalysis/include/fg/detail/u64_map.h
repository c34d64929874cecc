// Internal: the open-addressing hash map behind the builder's indexes, for
// libanalysis and the fast readers' own tables. Not part of the model's
// API (fg/profile.h, fg/builder.h); a reader using the simple paths never
// needs it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fg/big_table.h"

namespace fg {

/// A 64-bit mixing hash (the splitmix64 finaliser).
inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Open-addressing map from 64-bit keys to 32-bit values with linear probing.
/// Grows at 3/4 load. kMissing is returned by find() for absent keys.
class U64Map {
 public:
  static constexpr std::uint32_t kMissing = 0xffffffffu;
  U64Map();
  std::uint32_t find(std::uint64_t key) const {  // inline: readers call it per event
    for (std::size_t i = mix64(key) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.value == kMissing) return kMissing;
      if (s.key() == key) return s.value;
    }
  }
  /// A cache hint for a coming find() or insert() of key.
  void prefetch(std::uint64_t key) const { __builtin_prefetch(&slots_[mix64(key) & mask_]); }
  /// Returns the value stored for key, inserting `value` first if absent.
  std::uint32_t insert(std::uint64_t key, std::uint32_t value);
  /// Stores `value` for key, replacing what was stored.
  void assign(std::uint64_t key, std::uint32_t value);
  /// Makes room for `n` keys, so inserting them does not grow the table.
  void reserve(std::size_t n);
  /// Forgets every key, keeping the room.
  void clear();
  std::size_t size() const { return size_; }

 private:
  // 12 bytes, not 16: the key in two halves, so that no padding follows
  // the value (maps of millions of stacks).
  struct Slot {
    std::uint32_t key_low;
    std::uint32_t key_high;
    std::uint32_t value;
    std::uint64_t key() const { return std::uint64_t(key_high) << 32 | key_low; }
    static Slot of(std::uint64_t key, std::uint32_t value) {
      return Slot{static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32), value};
    }
  };
  static constexpr Slot kEmpty{0, 0, kMissing};
  // Past 3/4 load: at 1/2 a map of millions of stacks would take twice the
  // room, for some two probes fewer, in the same cache line or the next.
  bool full(std::size_t n) const { return n * 4 > slots_.size() * 3; }
  void grow();
  BigVector<Slot> slots_;
  std::size_t mask_;
  std::size_t size_ = 0;
};

}  // namespace fg
