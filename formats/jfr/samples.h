// A chunk's selected events as the samples they make, folded in the parse
// stage: the events of one type, stack trace, thread and thread state (and
// class, for allocations and locks) make one sample, whose values are their
// sums. The resolve stage then adds each sample of a chunk once: a
// recording's millions of events make some hundreds of thousands.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "fg/big_table.h"
#include "formats/jfr/events.h"

namespace fg::formats::jfr {

/// For DecodedEvent and ChunkSamples' wide samples, which keep the same
/// fields of a sample: whether `a` and `b` have the same labels and class frame
/// (all but the trace).
template <typename A, typename B>
bool same_labels(const A& a, const B& b) {
  return a.thread == b.thread && a.state == b.state && a.cls == b.cls && a.type == b.type &&
         a.has_state == b.has_state && a.outside_tlab == b.outside_tlab;
}
/// The same: adds `from`'s values and counts to `to`'s; false (and nothing
/// added) when a sum would overflow.
template <typename To, typename From>
bool fold_sums(To& to, const From& from) {
  std::int64_t v0, v1;
  if (__builtin_add_overflow(to.values[0], from.values[0], &v0) ||
      __builtin_add_overflow(to.values[1], from.values[1], &v1))
    return false;
  to.values[0] = v0;
  to.values[1] = v1;
  to.events += from.events;
  to.samples += from.samples;
  return true;
}

/// A selected event, or the sample of several (time and state filters
/// applied). With --leak each event stays its own, with its time and address.
struct DecodedEvent {
  EventType type;
  bool has_state;
  bool outside_tlab;        ///< an allocation outside a TLAB (its class frame is `_[k]`)
  std::uint32_t node;       ///< the trace's leaf node (NodeLister::leaf()); kMissing: none
  std::uint32_t new_nodes;  ///< of the hand-off's list, made before this event's stack
  std::uint32_t events;     ///< folded into this one
  std::uint64_t stack;      ///< StackTrace pool key; 0: none
  std::uint64_t thread, state, cls;
  std::uint64_t samples;   ///< the events' samples fields, negative ones as 0
  std::int64_t values[2];  ///< the sample's, summed
  std::int64_t ticks, ns;  ///< with --leak
  std::uint64_t address;   ///< with --leak

  /// A hash of the trace `trace` (a pool key or a tree node) and the labels.
  std::uint64_t hash(std::uint64_t trace) const {
    return (trace * 0x9E3779B97F4A7C15ull ^ thread * 0xC2B2AE3D27D4EB4Full ^
            (state + cls * 0x165667B19E3779F9ull) ^ static_cast<std::uint64_t>(type) << 1) *
           0x94D049BB133111EBull;
  }
  /// Whether a value is negative (a corrupt field): such a sample is never
  /// summed with another, so that the profile's check of its values'
  /// magnitude sees each as it is.
  bool negative() const { return values[0] < 0 || values[1] < 0; }
};

/// The samples of a chunk's events (or of a stretch of them), each
/// once, in the order of its first event: the resolve stage makes the same
/// stacks, labels and samples in the same order as event by event. A sample
/// whose values are negative, or whose sum would overflow, stays an entry
/// of its own.
///
/// Samples of CPU and wall events (no class, one value, the samples count)
/// take half a cache line each; once an event needs more (an allocation or
/// lock, a state key past 16 bits), every sample so far is widened to a
/// whole line, and so are all later ones (those of later chunks too:
/// chunks are alike). A recording's million samples are met at random, so
/// their room is the fold's cache misses.
class ChunkSamples {
 public:
  std::size_t size() const { return size_; }
  /// Sample `i` (node kMissing, no new nodes).
  DecodedEvent at(std::size_t i) const { return wide_ ? out(wide_blocks_.at(i)) : out(narrow_blocks_.at(i)); }
  /// Folds `e` (not one of --leak's) into the sample of its kind, or adds one.
  void add(const DecodedEvent& e) {
    // Inline, the common case: the first sample of the trace key is e's kind.
    if (e.stack < direct_.size() && !e.negative())
      if (const std::uint32_t d = direct_[e.stack]; d != 0) {
        if (wide_) {
          if (Wide& x = wide_blocks_.at(d - 1); same_sample(x, e) && fold(x, e)) return;
        } else if (narrow(e)) {
          if (Narrow& x = narrow_blocks_.at(d - 1); same_sample(x, e) && fold(x, e)) return;
        }
      }
    add_slow(e);
  }
  /// Cache hints for a coming add(e): prefetch() some events ahead, then
  /// prefetch_sample() fewer, once what prefetch() fetched is in cache.
  void prefetch(const DecodedEvent& e) const {
    if (e.stack < direct_.size())
      __builtin_prefetch(&direct_[e.stack]);
    else if (!slots_.empty())
      __builtin_prefetch(&slots_[e.hash(e.stack) >> shift_]);
  }
  void prefetch_sample(const DecodedEvent& e) const {
    std::size_t i = 0;  // index + 1
    if (e.stack < direct_.size()) {
      i = direct_[e.stack];
    } else if (!slots_.empty()) {
      const std::uint64_t h = e.hash(e.stack);
      const std::uint64_t slot = slots_[h >> shift_];
      if (slot != 0 && (slot & ~kIndexMask) == h << 32) i = slot & kIndexMask;
    }
    if (i == 0) return;
    if (wide_)
      __builtin_prefetch(&wide_blocks_.at(i - 1));
    else
      __builtin_prefetch(&narrow_blocks_.at(i - 1));
  }
  /// Forgets every sample, keeping the room.
  void clear();
  /// Lets go of most of the room of the samples before `end`, and of
  /// large indexes: the samples from `end` on can still be read, and none
  /// added until clear(). What a small chunk takes is kept for the next.
  void release_before(std::size_t end);

 private:
  static constexpr std::uint8_t kHasState = 1, kInSlots = 2;  // Narrow::flags
  // A sample of CPU or wall events: no class, one value, whose samples
  // count it is (never negative: a negative value is its own sample).
  struct alignas(32) Narrow {
    std::uint64_t stack, thread;
    std::int64_t value;
    std::uint32_t events;
    std::uint16_t state;
    EventType type;
    std::uint8_t flags;
  };
  // Any sample: a DecodedEvent without what only --leak and the resolving
  // side use (two thirds of its size).
  struct alignas(64) Wide {
    EventType type;
    bool has_state, outside_tlab;
    bool in_slots;  // found through slots_
    std::uint32_t events;
    std::uint64_t stack, thread, state, cls;
    std::uint64_t samples;
    std::int64_t values[2];
  };
  static_assert(sizeof(Narrow) == 32 && sizeof(Wide) == 64, "half a cache line, and one");
  static bool narrow(const DecodedEvent& e) {
    return e.cls == 0 && e.values[1] == 0 && !e.outside_tlab && e.state <= 0xFFFF &&
           e.samples == static_cast<std::uint64_t>(e.values[0] < 0 ? 0 : e.values[0]);
  }
  static bool same_sample(const Narrow& x, const DecodedEvent& e) {
    return x.stack == e.stack && x.thread == e.thread && x.state == e.state && x.type == e.type &&
           ((x.flags & kHasState) != 0) == e.has_state;  // e is narrow(): no class, not outside a TLAB
  }
  static bool same_sample(const Wide& x, const DecodedEvent& e) {
    return x.stack == e.stack && same_labels(x, e);
  }
  // Whether a sample is found through slots_, and marking it so.
  static bool in_slots(const Narrow& x) { return (x.flags & kInSlots) != 0; }
  static bool in_slots(const Wide& x) { return x.in_slots; }
  static void set_in_slots(Narrow& x) { x.flags |= kInSlots; }
  static void set_in_slots(Wide& x) { x.in_slots = true; }
  // Adds e's sums to x's; false (and nothing added) when one would overflow.
  static bool fold(Narrow& x, const DecodedEvent& e) {
    std::int64_t v;
    if (__builtin_add_overflow(x.value, e.values[0], &v)) return false;
    x.value = v;
    x.events += e.events;
    return true;
  }
  static bool fold(Wide& x, const DecodedEvent& e) { return fold_sums(x, e); }
  static Narrow to_narrow(const DecodedEvent& e);
  static Wide to_wide(const DecodedEvent& e);
  static Wide to_wide(const Narrow& x);
  static DecodedEvent out(const Narrow& x);
  static DecodedEvent out(const Wide& x);

  // Entries live in blocks that never move: a table grown by copying would
  // hold both copies at once, at the chunk's peak of memory. A block is
  // 4 MiB, the least BigTableAllocator takes from the installed memory
  // (huge pages in the tools). The first block alone grows, by doubling
  // from kFirstEntries, so that a small recording's few samples take a few
  // KiB rather than a block (a huge page, cleared, in the tools).
  template <typename Entry>
  class Blocks {
   public:
    static constexpr unsigned kBlockBits = std::countr_zero(kBigTableLeast / sizeof(Entry));
    static_assert(sizeof(Entry) << kBlockBits == kBigTableLeast);
    static constexpr std::size_t kBlockEntries = std::size_t{1} << kBlockBits;
    static constexpr std::size_t kFirstEntries = 64;

    Entry& at(std::size_t i) { return blocks_[i >> kBlockBits][i & (kBlockEntries - 1)]; }
    const Entry& at(std::size_t i) const { return blocks_[i >> kBlockBits][i & (kBlockEntries - 1)]; }
    // Entry `i`'s room, the next one (entries are made in order from 0),
    // made when new.
    Entry& room(std::size_t i);
    // Lets go of the blocks wholly before entry `end`, but the first.
    void release_before(std::size_t end) {
      for (std::size_t b = 1; b < (end >> kBlockBits) && b < blocks_.size(); ++b) blocks_[b].reset();
    }
    void release_all() {
      blocks_.clear();
      first_capacity_ = 0;
    }

   private:
    struct Free {
      std::size_t entries = kBlockEntries;
      void operator()(Entry* b) const { BigTableAllocator<Entry>().deallocate(b, entries); }
    };
    using Block = std::unique_ptr<Entry[], Free>;
    static Block allocate(std::size_t entries) {
      return Block(BigTableAllocator<Entry>().allocate(entries), Free{entries});
    }
    // The first block, with room for entry `i` and the `i` entries before it kept.
    void grow_first(std::size_t i);
    std::vector<Block> blocks_;
    std::size_t first_capacity_ = 0;  // entries of blocks_[0]
  };
  template <typename Entry>
  void add_slow(Blocks<Entry>& blocks, const DecodedEvent& e);
  void add_slow(const DecodedEvent& e);
  // Every sample so far made Wide, for an event that a Narrow cannot hold.
  void widen();
  void grow();

  // The first sample of each trace key below kMostDirect, by key (index +
  // 1; 0: none): recorders number their traces from 1 up, and where labels
  // are not kept most traces make one sample. 16 MiB at most.
  static constexpr std::uint64_t kMostDirect = std::uint64_t{1} << 22;
  BigVector<std::uint32_t> direct_;
  // The other samples, open addressing: a slot holds the low half of the
  // sample's hash above its index + 1; 0: empty.
  static constexpr std::uint64_t kIndexMask = 0xFFFFFFFF;
  BigVector<std::uint64_t> slots_;
  unsigned shift_ = 64;      // slots are found by the top bits of the hash
  std::size_t indexed_ = 0;  // samples in slots_
  bool wide_ = false;
  Blocks<Narrow> narrow_blocks_;
  Blocks<Wide> wide_blocks_;
  std::size_t size_ = 0;
};

}  // namespace fg::formats::jfr
