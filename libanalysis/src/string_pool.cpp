#include "fg/string_pool.h"

#include <cstring>

namespace fg {

std::uint64_t hash_bytes(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL ^ s.size();
  const char* p = s.data();
  std::size_t n = s.size();
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  std::uint64_t tail = 0;
  if (n > 0) std::memcpy(&tail, p, n);
  h = (h ^ tail) * 0x100000001b3ULL;
  return mix64(h);
}

U64Map::U64Map() : slots_(16, Slot{0, kMissing}), mask_(15) {}

std::uint32_t U64Map::find(std::uint64_t key) const {
  for (std::size_t i = mix64(key) & mask_;; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.value == kMissing) return kMissing;
    if (s.key == key) return s.value;
  }
}

std::uint32_t U64Map::insert(std::uint64_t key, std::uint32_t value) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  for (std::size_t i = mix64(key) & mask_;; i = (i + 1) & mask_) {
    Slot& s = slots_[i];
    if (s.value == kMissing) {
      s = Slot{key, value};
      ++size_;
      return value;
    }
    if (s.key == key) return s.value;
  }
}

void U64Map::grow() {
  std::vector<Slot> old(slots_.size() * 2, Slot{0, kMissing});
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.value == kMissing) continue;
    std::size_t i = mix64(s.key) & mask_;
    while (slots_[i].value != kMissing) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

StringPool::StringPool() : table_(64, Slot{0, U64Map::kMissing}), mask_(63) { intern(""); }

std::string_view StringPool::store(std::string_view s) {
  if (s.empty()) return {};
  if (s.size() > block_left_) {
    std::size_t size = s.size() > 16384 ? s.size() : 65536;
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
    block_pos_ = blocks_.back().get();
    block_left_ = size;
  }
  std::memcpy(block_pos_, s.data(), s.size());
  std::string_view v(block_pos_, s.size());
  block_pos_ += s.size();
  block_left_ -= s.size();
  return v;
}

StringId StringPool::find(std::string_view s) const {
  const std::uint64_t h = hash_bytes(s);
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  for (std::size_t i = h & mask_;; i = (i + 1) & mask_) {
    const Slot& slot = table_[i];
    if (slot.id == U64Map::kMissing) return U64Map::kMissing;
    if (slot.tag == tag && strings_[slot.id] == s) return slot.id;
  }
}

StringId StringPool::intern(std::string_view s, std::uint64_t h) {
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  std::size_t i = h & mask_;
  for (;; i = (i + 1) & mask_) {
    const Slot& slot = table_[i];
    if (slot.id == U64Map::kMissing) break;
    if (slot.tag == tag && strings_[slot.id] == s) return slot.id;
  }
  StringId id = static_cast<StringId>(strings_.size());
  strings_.push_back(store(s));
  hashes_.push_back(h);
  table_[i] = Slot{tag, id};
  if (strings_.size() * 2 > table_.size()) grow();
  return id;
}

void StringPool::grow() {
  std::vector<Slot> old(table_.size() * 2, Slot{0, U64Map::kMissing});
  old.swap(table_);
  mask_ = table_.size() - 1;
  for (const Slot& s : old) {
    if (s.id == U64Map::kMissing) continue;
    std::size_t i = hashes_[s.id] & mask_;
    while (table_[i].id != U64Map::kMissing) i = (i + 1) & mask_;
    table_[i] = s;
  }
}

}  // namespace fg
