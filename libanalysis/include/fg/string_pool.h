// Interned strings: the pool behind every name of a profile (StringId).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "fg/big_table.h"
#include "fg/ids.h"

namespace fg {

namespace bulk {
struct Access;  // fg/bulk_builder.h: the cache hints of a coming intern()
}  // namespace bulk

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
  /// The id of s, or kNoId<StringId> when s was never interned.
  StringId find(std::string_view s) const;
  std::string_view view(StringId id) const { return strings_[id.index()]; }
  std::size_t size() const { return strings_.size(); }

 private:
  friend struct bulk::Access;
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
