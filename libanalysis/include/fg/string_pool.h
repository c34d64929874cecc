// Interned strings: the pool behind every name of a profile (StringId).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "fg/big_table.h"
#include "fg/ids.h"

namespace fg {

/// Hash of a byte string (FNV-style over 8-byte words, then mixed).
std::uint64_t hash_bytes(std::string_view s);

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
    if (id != kNoSlot) __builtin_prefetch(&strings_[id]);
  }
  void prefetch_bytes(std::uint64_t hash) const {
    const std::uint32_t id = table_[hash & mask_].id;
    if (id != kNoSlot) __builtin_prefetch(strings_[id].data());
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
    std::uint32_t id;  // the string's index, or kNoSlot
  };
  static constexpr std::uint32_t kNoSlot = 0xffffffffu;  // an empty slot's id
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
