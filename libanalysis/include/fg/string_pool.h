// Interned strings and small open-addressing hash maps: the building blocks
// that keep the model's ids dense and its lookups cheap.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "fg/big_table.h"
#include "fg/ids.h"

namespace fg {

/// A 64-bit mixing hash (the splitmix64 finaliser).
inline std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// Hash of a byte string (FNV-style over 8-byte words, then mixed).
std::uint64_t hash_bytes(std::string_view s);

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

/// Owns interned strings; views returned by view() stay valid for the
/// pool's lifetime, including after the pool is moved.
class StringPool {
 public:
  StringPool();
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;
  StringPool(const StringPool&) = delete;
  StringPool& operator=(const StringPool&) = delete;

  StringId intern(std::string_view s) { return intern(s, hash_bytes(s)); }
  /// intern() with hash_bytes(s) already computed.
  StringId intern(std::string_view s, std::uint64_t hash);
  /// Cache hints for a coming intern(s, hash), in three steps that each
  /// depend on memory the step before brought in: the table slot, the
  /// string's entry, its bytes. Interning a batch of strings runs each step
  /// over the whole batch first, so their cache misses overlap.
  void prefetch_slot(std::uint64_t hash) const { __builtin_prefetch(&table_[hash & mask_]); }
  void prefetch_entry(std::uint64_t hash) const {
    const std::uint32_t id = table_[hash & mask_].id;
    if (id != U64Map::kMissing) __builtin_prefetch(&strings_[id]);
  }
  void prefetch_bytes(std::uint64_t hash) const {
    const std::uint32_t id = table_[hash & mask_].id;
    if (id != U64Map::kMissing) __builtin_prefetch(strings_[id].data());
  }
  /// The id of s, or kNoId<StringId> when s was never interned.
  StringId find(std::string_view s) const;
  std::string_view view(StringId id) const { return strings_[id.index()]; }
  std::size_t size() const { return strings_.size(); }

 private:
  // 8-byte slots (the hash's high half as a tag, and the id) keep the
  // table small enough to stay in cache; the bytes are compared only when
  // the tag matches.
  struct Slot {
    std::uint32_t tag;
    std::uint32_t id;  // the string's index, or U64Map::kMissing
  };
  std::string_view store(std::string_view s);
  void grow();
  std::vector<std::string_view> strings_;
  std::vector<std::uint64_t> hashes_;  // hash_bytes(strings_[i]), for growing the table
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* block_pos_ = nullptr;
  std::size_t block_left_ = 0;
  BigVector<Slot> table_;
  std::size_t mask_;
};

}  // namespace fg
