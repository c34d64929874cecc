#include "formats/jfr/samples.h"

#include <algorithm>
#include <bit>

#include "fg/string_pool.h"

namespace fg::formats::jfr {

namespace {

// The fields of a DecodedEvent that a ChunkSamples entry keeps, from one to the other.
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

DecodedEvent ChunkSamples::at(std::size_t i) const {
  DecodedEvent e{};
  copy_kept(e, entry(i));
  e.node = U64Map::kMissing;
  return e;
}

ChunkSamples::Entry& ChunkSamples::push(const DecodedEvent& e) {
  const std::size_t block = size_ >> kBlockBits;
  if (block == blocks_.size()) blocks_.emplace_back();
  if (!blocks_[block]) blocks_[block].reset(HugePageAllocator<Entry>().allocate(std::size_t{1} << kBlockBits));
  Entry& x = entry(size_++);
  copy_kept(x, e);
  x.in_slots = false;
  return x;
}

void ChunkSamples::add_slow(const DecodedEvent& e) {
  if (e.negative()) {
    push(e);
    return;
  }
  if (e.stack < kMostDirect) {
    if (e.stack >= direct_.size()) direct_.resize(std::max<std::size_t>(e.stack + 1, 2 * direct_.size()), 0);
    std::uint32_t& d = direct_[e.stack];
    if (d == 0) {
      push(e);
      d = static_cast<std::uint32_t>(size_);
      return;
    }
    if (Entry& x = entry(d - 1); same_sample(x, e)) {
      if (!fold_sums(x, e)) push(e);
      return;
    }
  }
  if (2 * (indexed_ + 1) > slots_.size()) grow();
  const std::uint64_t h = e.hash(e.stack);
  const std::uint64_t tag = h << 32;
  for (std::size_t i = h >> shift_;; i = (i + 1) & (slots_.size() - 1)) {
    const std::uint64_t slot = slots_[i];
    if (slot == 0) {
      push(e).in_slots = true;
      slots_[i] = tag | size_;
      ++indexed_;
      return;
    }
    if ((slot & ~kIndexMask) != tag) continue;
    Entry& x = entry((slot & kIndexMask) - 1);
    if (!same_sample(x, e)) continue;
    if (!fold_sums(x, e)) push(e);
    return;
  }
}

void ChunkSamples::grow() {
  const std::size_t size = std::max<std::size_t>(slots_.size() * 2, 1 << 12);
  slots_.assign(size, 0);
  shift_ = 64 - static_cast<unsigned>(std::countr_zero(size));
  for (std::size_t s = 0; s < size_; ++s) {
    if (!entry(s).in_slots) continue;
    const std::uint64_t h = at(s).hash(entry(s).stack);
    std::size_t i = h >> shift_;
    while (slots_[i] != 0) i = (i + 1) & (size - 1);
    slots_[i] = h << 32 | (s + 1);
  }
}

void ChunkSamples::clear() {
  size_ = 0;
  std::fill(slots_.begin(), slots_.end(), 0);
  std::fill(direct_.begin(), direct_.end(), 0);
  indexed_ = 0;
}

void ChunkSamples::release_before(std::size_t end) {
  constexpr std::size_t kKept = std::size_t{1} << 20;  // bytes of an index
  if (slots_.size() * sizeof(slots_[0]) > kKept) BigVector<std::uint64_t>().swap(slots_);
  if (direct_.size() * sizeof(direct_[0]) > kKept) BigVector<std::uint32_t>().swap(direct_);
  for (std::size_t b = 1; b < (end >> kBlockBits) && b < blocks_.size(); ++b) blocks_[b].reset();
}

}  // namespace fg::formats::jfr
