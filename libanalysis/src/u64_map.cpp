#include "fg/detail/u64_map.h"

#include <algorithm>

namespace fg {

U64Map::U64Map() : slots_(16, kEmpty), mask_(15) {}

std::uint32_t U64Map::insert(std::uint64_t key, std::uint32_t value) {
  if (full(size_ + 1)) grow();
  for (std::size_t i = mix64(key) & mask_;; i = (i + 1) & mask_) {
    Slot& s = slots_[i];
    if (s.value == kMissing) {
      s = Slot::of(key, value);
      ++size_;
      return value;
    }
    if (s.key() == key) return s.value;
  }
}

void U64Map::assign(std::uint64_t key, std::uint32_t value) {
  if (full(size_ + 1)) grow();
  for (std::size_t i = mix64(key) & mask_;; i = (i + 1) & mask_) {
    Slot& s = slots_[i];
    if (s.value == kMissing) ++size_;
    if (s.value == kMissing || s.key() == key) {
      s = Slot::of(key, value);
      return;
    }
  }
}

void U64Map::reserve(std::size_t n) {
  while (full(n)) grow();
}

void U64Map::clear() {
  std::fill(slots_.begin(), slots_.end(), kEmpty);
  size_ = 0;
}

void U64Map::grow() {
  BigVector<Slot> old(slots_.size() * 2, kEmpty);
  old.swap(slots_);
  mask_ = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.value == kMissing) continue;
    std::size_t i = mix64(s.key()) & mask_;
    while (slots_[i].value != kMissing) i = (i + 1) & mask_;
    slots_[i] = s;
  }
}

}  // namespace fg
