#include "fg/string_pool.h"

#include <algorithm>
#include <cstring>

#include "fg/detail/u64_map.h"

namespace fg {

namespace {
std::uint64_t load64(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
std::uint64_t load32(const char* p) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}
// a == b for strings of equal length, without a call for short ones.
bool same_bytes(const char* a, const char* b, std::size_t n) {
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8)
      if (load64(a + i) != load64(b + i)) return false;
    return load64(a + n - 8) == load64(b + n - 8);
  }
  if (n >= 4) return load32(a) == load32(b) && load32(a + n - 4) == load32(b + n - 4);
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

bool equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && same_bytes(a.data(), b.data(), a.size());
}

}  // namespace

std::uint64_t hash_bytes(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  std::uint64_t h = 0xcbf29ce484222325ULL ^ (n * 0x9e3779b97f4a7c15ULL);
  std::uint64_t tail;
  if (n >= 8) {
    std::size_t i = 0;
    for (; i + 8 < n; i += 8) {
      h = (h ^ load64(p + i)) * 0x100000001b3ULL;
      h ^= h >> 29;
    }
    tail = load64(p + n - 8);  // the last 8 bytes, overlapping the loop's
  } else if (n >= 4) {
    tail = load32(p) << 32 | load32(p + n - 4);
  } else if (n > 0) {
    tail = std::uint64_t(static_cast<unsigned char>(p[0])) << 16 |
           std::uint64_t(static_cast<unsigned char>(p[n / 2])) << 8 | static_cast<unsigned char>(p[n - 1]);
  } else {
    tail = 0;
  }
  h = (h ^ tail) * 0x100000001b3ULL;
  return mix64(h);
}

StringPool::StringPool() : table_(64, Slot{0, kNoSlot}), mask_(63) { intern(""); }

std::string_view StringPool::store(std::string_view s) {
  if (s.empty()) return {};
  if (s.size() > block_left_) {
    // Blocks double from 4 KiB to 64 KiB: a small profile (most of them,
    // and every fuzzing run) costs no 64 KiB block, a large one a few
    // more allocations than before.
    const std::size_t next =
        std::min<std::size_t>(std::size_t{4096} << std::min<std::size_t>(blocks_.size(), 4), 65536);
    std::size_t size = s.size() > next / 4 ? std::max(s.size(), next) : next;
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
    if (slot.id == kNoSlot) return kNoId<StringId>;
    if (slot.tag == tag && equal(strings_[slot.id], s)) return StringId{slot.id};
  }
}

StringId StringPool::intern(std::string_view s, std::uint64_t h) {
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  std::size_t i = h & mask_;
  for (;; i = (i + 1) & mask_) {
    const Slot& slot = table_[i];
    if (slot.id == kNoSlot) break;
    if (slot.tag == tag && equal(strings_[slot.id], s)) return StringId{slot.id};
  }
  const auto id = static_cast<std::uint32_t>(strings_.size());
  strings_.push_back(store(s));
  hashes_.push_back(h);
  table_[i] = Slot{tag, id};
  if (strings_.size() * 2 > table_.size()) grow();
  return StringId{id};
}

void StringPool::grow() {
  BigVector<Slot> old(table_.size() * 2, Slot{0, kNoSlot});
  old.swap(table_);
  mask_ = table_.size() - 1;
  for (const Slot& s : old) {
    if (s.id == kNoSlot) continue;
    std::size_t i = hashes_[s.id] & mask_;
    while (table_[i].id != kNoSlot) i = (i + 1) & mask_;
    table_[i] = s;
  }
}

}  // namespace fg
