#include "formats/jfr/samples.h"

#include <algorithm>
#include <bit>

#include "fg/string_pool.h"

namespace fg::formats::jfr {

namespace {

// The fields of a DecodedEvent that a Wide sample keeps, from one to the other.
template <typename To, typename From>
void copy_kept(To& to, const From& from) {
  to.type = from.type;
  to.has_state = from.has_state;
  to.outside_tlab = from.outside_tlab;
  to.events = from.events;
  to.stack = from.stack;
  to.thread = from.thread;
  to.state = from.state;
  to.cls = from.cls;
  to.samples = from.samples;
  to.values[0] = from.values[0];
  to.values[1] = from.values[1];
}

}  // namespace

ChunkSamples::Narrow ChunkSamples::to_narrow(const DecodedEvent& e) {
  Narrow x;
  x.stack = e.stack;
  x.thread = e.thread;
  x.value = e.values[0];
  x.events = e.events;
  x.state = static_cast<std::uint16_t>(e.state);
  x.type = e.type;
  x.flags = e.has_state ? kHasState : 0;
  return x;
}

ChunkSamples::Wide ChunkSamples::to_wide(const DecodedEvent& e) {
  Wide x;
  copy_kept(x, e);
  x.in_slots = false;
  return x;
}

ChunkSamples::Wide ChunkSamples::to_wide(const Narrow& n) {
  Wide x = to_wide(out(n));
  x.in_slots = in_slots(n);
  return x;
}

DecodedEvent ChunkSamples::out(const Narrow& x) {
  DecodedEvent e{};
  e.type = x.type;
  e.has_state = (x.flags & kHasState) != 0;
  e.node = U64Map::kMissing;
  e.events = x.events;
  e.stack = x.stack;
  e.thread = x.thread;
  e.state = x.state;
  e.samples = static_cast<std::uint64_t>(x.value < 0 ? 0 : x.value);
  e.values[0] = x.value;
  return e;
}

DecodedEvent ChunkSamples::out(const Wide& x) {
  DecodedEvent e{};
  copy_kept(e, x);
  e.node = U64Map::kMissing;
  return e;
}

template <typename Entry>
Entry& ChunkSamples::Blocks<Entry>::room(std::size_t i) {
  const std::size_t block = i >> kBlockBits;
  if (block == blocks_.size()) blocks_.emplace_back();
  if (block == 0) {
    if (i >= first_capacity_) grow_first(i);
  } else if (!blocks_[block]) {
    blocks_[block] = allocate(kBlockEntries);
  }
  return at(i);
}

template <typename Entry>
void ChunkSamples::Blocks<Entry>::grow_first(std::size_t i) {
  std::size_t capacity = std::max(kFirstEntries, 2 * first_capacity_);
  while (capacity <= i) capacity *= 2;
  Block grown = allocate(std::min(capacity, kBlockEntries));
  if (blocks_[0]) std::copy_n(blocks_[0].get(), std::min(i, first_capacity_), grown.get());
  blocks_[0] = std::move(grown);
  first_capacity_ = std::min(capacity, kBlockEntries);
}

void ChunkSamples::add_slow(const DecodedEvent& e) {
  if (!wide_ && !narrow(e)) widen();
  if (wide_)
    add_slow(wide_blocks_, e);
  else
    add_slow(narrow_blocks_, e);
}

template <typename Entry>
void ChunkSamples::add_slow(Blocks<Entry>& blocks, const DecodedEvent& e) {
  const auto push = [&](bool indexed) {
    Entry& x = blocks.room(size_++);
    if constexpr (std::is_same_v<Entry, Narrow>)
      x = to_narrow(e);
    else
      x = to_wide(e);
    if (indexed) set_in_slots(x);
  };
  if (e.negative()) return push(false);
  if (e.stack < kMostDirect) {
    if (e.stack >= direct_.size()) direct_.resize(std::max<std::size_t>(e.stack + 1, 2 * direct_.size()), 0);
    std::uint32_t& d = direct_[e.stack];
    if (d == 0) {
      push(false);
      d = static_cast<std::uint32_t>(size_);
      return;
    }
    if (Entry& x = blocks.at(d - 1); same_sample(x, e)) {
      if (!fold(x, e)) push(false);
      return;
    }
  }
  if (2 * (indexed_ + 1) > slots_.size()) grow();
  const std::uint64_t h = e.hash(e.stack);
  const std::uint64_t tag = h << 32;
  for (std::size_t i = h >> shift_;; i = (i + 1) & (slots_.size() - 1)) {
    const std::uint64_t slot = slots_[i];
    if (slot == 0) {
      push(true);
      slots_[i] = tag | size_;
      ++indexed_;
      return;
    }
    if ((slot & ~kIndexMask) != tag) continue;
    Entry& x = blocks.at((slot & kIndexMask) - 1);
    if (!same_sample(x, e)) continue;
    if (!fold(x, e)) push(false);
    return;
  }
}

void ChunkSamples::widen() {
  for (std::size_t i = 0; i < size_; ++i) wide_blocks_.room(i) = to_wide(narrow_blocks_.at(i));
  narrow_blocks_.release_all();
  wide_ = true;
}

void ChunkSamples::grow() {
  const std::size_t size = std::max<std::size_t>(slots_.size() * 2, 1 << 12);
  slots_.assign(size, 0);
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(size));
  for (std::size_t s = 0; s < size_; ++s) {
    if (wide_ ? !in_slots(wide_blocks_.at(s)) : !in_slots(narrow_blocks_.at(s))) continue;
    const DecodedEvent e = at(s);
    const std::uint64_t h = e.hash(e.stack);
    std::size_t i = h >> shift_;
    while (slots_[i] != 0) i = (i + 1) & (size - 1);
    slots_[i] = h << 32 | (s + 1);
  }
}

void ChunkSamples::clear() {
  size_ = 0;
  std::fill(slots_.begin(), slots_.end(), 0);
  std::fill(direct_.begin(), direct_.end(), 0);
  indexed_ = 0;  // wide_ stays: the next chunk's events are likely alike
}

void ChunkSamples::release_before(std::size_t end) {
  constexpr std::size_t kKept = std::size_t{1} << 20;  // bytes of an index
  if (slots_.size() * sizeof(slots_[0]) > kKept) BigVector<std::uint64_t>().swap(slots_);
  if (direct_.size() * sizeof(direct_[0]) > kKept) BigVector<std::uint32_t>().swap(direct_);
  if (wide_)
    wide_blocks_.release_before(end);
  else
    narrow_blocks_.release_before(end);
}

}  // namespace fg::formats::jfr
