// The constant pools of a JFR chunk, from its checkpoint events. The chunk
// header points at the last checkpoint; each names the offset of the one
// before it (a negative delta, 0 for the first), so the reader walks the
// chain backwards. Several checkpoints can hold entries of the same pool
// (JDK recordings interleave them with events), so entries are merged, and
// an event may use an entry written after it: all pools are read before
// any event is resolved.
//
// Checkpoint layout: size, type 1, start, duration, delta, a one-byte type
// mask, pool count, then per pool: type id, entry count, entries (key, then
// the value encoded per the type's fields). Only the pools a profile needs
// are kept (threads, classes, methods, symbols, strings, stack traces and
// the FrameType / ThreadState enums); the others are skipped by their
// metadata, whatever their layout.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fg/big_table.h"
#include "fg/detail/u64_map.h"
#include "fg/string_pool.h"
#include "formats/jfr/cursor.h"
#include "formats/jfr/metadata.h"

namespace fg::formats::jfr {

struct ThreadRef {
  StringValue os_name;
  StringValue java_name;  ///< null for threads the JVM did not start (GC, VM, ...)
  std::int64_t os_thread_id = 0;
  std::int64_t java_thread_id = 0;
};

struct ClassRef {
  std::uint64_t name = 0;     ///< key into the Symbol pool
  std::uint64_t package = 0;  ///< key into the Package pool
};

struct MethodRef {
  std::uint64_t cls = 0;   ///< key into the Class pool
  std::uint64_t name = 0;  ///< key into the Symbol pool
};

/// One frame of a stack trace, as recorded.
struct FrameRef {
  std::uint64_t method = 0;  ///< key into the Method pool
  std::int32_t line = 0;     ///< -1 (0xFFFFFFFF) for native and hidden frames
  std::int32_t bci = 0;
  std::uint64_t type = 0;  ///< key into the FrameType pool
};

/// A node of the tree of a chunk's stack traces (TraceTree): a frame below
/// its caller's node. Node 0 is the root, above every frame.
struct TraceNode {
  std::uint32_t parent = 0;
  std::uint32_t frame = 0;  ///< index into Pools::frames
};

/// A stack trace: the node of its leaf frame (0 for no frames); its frames
/// are that node's and its ancestors'.
struct StackTraceRef {
  std::uint32_t node = 0;
  bool truncated = false;
};

/// Stack-trace pool keys and their positions: a chunk can hold hundreds of
/// thousands, numbered in the order first read. Recorders number their
/// traces from 1 up (with gaps), so keys below a bound that grows with the
/// pool's entry counts are found in a table by key, the others through an
/// open-addressing index. The traces themselves go to a TraceTree by
/// position.
class StackTracePool {
 public:
  /// The position of a key's trace (for TraceTree::at()), or U64Map::kMissing.
  std::uint32_t position(std::uint64_t key) const {
    if (key < direct_.size()) {
      const std::uint32_t p = direct_[key];
      if (p != U64Map::kMissing || index_.size() == 0) return p;
    }
    return index_.find(key);
  }
  void prefetch(std::uint64_t key) const {
    if (key < direct_.size())
      __builtin_prefetch(&direct_[key]);
    else
      index_.prefetch(key);
  }
  /// Before a pool of `count` entries: widens the keys kept by key.
  void expect(std::uint64_t count) { direct_limit_ = std::min(kMaxDirect, direct_limit_ + 4 * count + 1024); }
  /// The position of `key`, numbered next when new.
  std::uint32_t add(std::uint64_t key);
  std::size_t size() const { return size_; }
  /// Forgets every key, keeping the room (chunks are alike).
  void clear();

 private:
  // At most 64 MiB of table; with 4 keys per entry of at least 3 bytes in
  // the file, never more than some 6 times the pools' size.
  static constexpr std::uint64_t kMaxDirect = std::uint64_t{1} << 24;
  BigVector<std::uint32_t> direct_;  // position by key, for keys below its size; kMissing: none
  std::uint64_t direct_limit_ = 0;   // keys below it go to direct_
  U64Map index_;                     // the other keys (and any added before the limit rose past them)
  std::size_t size_ = 0;
};

/// Stack traces as read from a pool, not yet in a TraceTree: each with its
/// position (StackTracePool) and its frames, leaf first, as indices into
/// Pools::frames. Reading the pools and building the tree are the two
/// halves of a chunk's pool time; batches keep the memory of the frames small.
struct TraceBatch {
  struct Trace {
    std::uint32_t position = 0;
    std::uint32_t end = 0;  ///< its frames are frames[previous trace's end, end)
    bool truncated = false;
  };
  std::vector<Trace> traces;
  std::vector<std::uint32_t> frames;
  /// About how many tree nodes the pools begun in this batch will make (a
  /// hint, bounded by their size), so that the tree makes its room once.
  std::size_t expected_nodes = 0;
};

/// A chunk's stack traces as a tree from the root: traces share their
/// callers, so half a million traces of tens of millions of frames make
/// about a million nodes. A position given twice keeps its last trace.
///
/// A node is found by the hash of its whole path from the root (and its
/// frame, checked): a trace is placed by searching, from its leaf towards
/// its root, for the deepest of its paths already in the tree, in a few
/// lookups rather than one per frame. Two paths that differ yet share both
/// the 64-bit hash and the last frame would be taken for one node (their
/// callers' paths would then share a hash too: the hash of a path is a
/// chained multiply-and-mix of its frames, one to one for a given frame).
/// Among the pairs of a million nodes that end in the same frame, that is
/// well under one chance in a billion per chunk.
class TraceTree {
 public:
  void add(const TraceBatch& batch);
  const StackTraceRef& at(std::uint32_t position) const { return traces_[position]; }
  void prefetch(std::uint32_t position) const { __builtin_prefetch(&traces_[position]); }
  const TraceNode& node(std::uint32_t i) const { return nodes_[i]; }
  void prefetch_node(std::uint32_t i) const { __builtin_prefetch(&nodes_[i]); }
  std::size_t node_count() const { return nodes_.size(); }
  std::size_t trace_count() const { return traces_.size(); }
  /// Forgets every trace, keeping the room (chunks are alike).
  void clear();
  /// Lets go of the index of nodes by path when it takes `at_least` bytes
  /// or more, once every trace of the chunk is added: the nodes and traces
  /// stay, and the next add() (after clear()) makes it again. A smaller one
  /// is kept for the next chunk's room (chunks are alike): made again, it
  /// would grow by doubling through each chunk.
  static constexpr std::size_t kIndexWorthDropping = std::size_t{64} << 20;
  void drop_index(std::size_t at_least = kIndexWorthDropping);

 private:
  // The hash of a path: its caller's path's hash, and its frame.
  static std::uint64_t extend(std::uint64_t path, std::uint32_t frame) {
    std::uint64_t h = (path ^ frame) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
  }
  static constexpr std::uint64_t kRootPath = 0x2545F4914F6CDD1Dull;
  // The index of nodes by path: open addressing, linear probing.
  struct Slot {
    std::uint64_t path;
    std::uint32_t node;  // U64Map::kMissing: empty
    std::uint32_t frame;
  };
  static constexpr Slot kEmpty{0, U64Map::kMissing, 0};
  std::size_t slot_of(std::uint64_t path) const { return static_cast<std::size_t>(path >> shift_); }
  void prefetch_path(std::uint64_t path) const { __builtin_prefetch(&slots_[slot_of(path)]); }
  // The slot of (path, frame), or the empty slot where it would go.
  std::size_t probe(std::uint64_t path, std::uint32_t frame) const {
    std::size_t i = slot_of(path);
    for (; slots_[i].node != U64Map::kMissing; i = (i + 1) & (slots_.size() - 1))
      if (slots_[i].path == path && slots_[i].frame == frame) break;
    return i;
  }
  // The node of (path, frame), or U64Map::kMissing.
  std::uint32_t find(std::uint64_t path, std::uint32_t frame) const {
    return slots_[probe(path, frame)].node;
  }
  // The node of `path` (ending in `frame`, below `parent`), made when new.
  std::uint32_t node_of(std::uint64_t path, std::uint32_t parent, std::uint32_t frame);
  // Doubles the index `doublings` times.
  void grow(unsigned doublings);
  // add()'s paths_ for a batch.
  void hash_paths(const TraceBatch& batch);
  // Room for `nodes` nodes.
  void reserve(std::size_t nodes);

  // The index's first size, 2^kFirstSlotBits slots: reserve() grows it to
  // what a chunk's pools announce, so a small recording's stays small.
  static constexpr unsigned kFirstSlotBits = 6;
  BigVector<TraceNode> nodes_{TraceNode{}};
  BigVector<Slot> slots_ = BigVector<Slot>(std::size_t{1} << kFirstSlotBits, kEmpty);
  unsigned shift_ = 64 - kFirstSlotBits;  // slot_of() takes the top bits
  bool stale_ = false;                    // slots_ holds a cleared chunk's nodes
  std::vector<std::uint64_t> paths_;      // add()'s: the hash of each frame's path, by frame of the batch
  std::vector<std::uint8_t>
      roots_;  // add()'s: 1 at each trace's last frame (its root), by frame of the batch
  std::vector<std::uint32_t> leaves_;  // add()'s: the node of each trace of the batch
  BigVector<StackTraceRef> traces_;    // by position
};

/// The pools of one chunk.
struct Pools {
  std::unordered_map<std::uint64_t, ThreadRef> threads;
  std::unordered_map<std::uint64_t, ClassRef> classes;
  std::unordered_map<std::uint64_t, MethodRef> methods;
  std::unordered_map<std::uint64_t, StringValue> symbols;
  std::unordered_map<std::uint64_t, StringValue> strings;
  StackTracePool stack_traces;
  /// The distinct frames of the stack traces. Unless the reader was asked
  /// to keep lines, line and bci are 0 here, so a method's frames of one
  /// type are one entry.
  std::vector<FrameRef> frames;
  /// Enumerations (simple types with one string field), by type name:
  /// "jdk.types.FrameType", "jdk.types.ThreadState", ...
  std::unordered_map<std::string, std::unordered_map<std::uint64_t, StringValue>> enums;
  std::size_t checkpoints = 0;

  /// Forgets every entry, keeping the room (for the next chunk: chunks are alike).
  void clear();
  /// The index of `frames` while they are read: by method * 8 + type for
  /// small method keys, else method << 8 | type when lines are not kept
  /// (and the two fit), else by all four fields.
  struct FrameIndex {
    std::vector<std::uint32_t> dense;
    struct Hash {
      std::size_t operator()(const std::array<std::uint64_t, 3>& k) const;
    };
    U64Map packed;
    std::unordered_map<std::array<std::uint64_t, 3>, std::uint32_t, Hash> other;
  } frame_index;

  /// The text of a string value, following a String-pool reference; nullptr
  /// for null (or a reference to no entry).
  const std::string* text(const StringValue& v) const;
  /// The text of a Symbol-pool entry, or nullptr.
  const std::string* symbol(std::uint64_t key) const;
  /// The name of an enum entry, or nullptr.
  const std::string* enum_name(const std::string& type, std::uint64_t key) const;
  /// Whether the enum `type` has an entry called `name`.
  bool enum_has(const std::string& type, std::string_view name) const;
};

/// How read_constant_pools() decodes stack frames.
enum class FrameDecoding {
  kFast,   ///< the usual layout by batched readers, any other field by field
  kPlain,  ///< every frame field by field, by its fields' names (the meaning)
};

/// Reads every checkpoint of a chunk into `pools`, starting from the one at
/// `last_offset` (relative to the chunk) and following the deltas. `chunk`
/// covers the whole chunk. A delta that does not move backwards, or points
/// outside the chunk, is a ParseError (never an endless walk). With
/// `keep_lines`, frames keep their line and bci (else both are 0). `done`,
/// when given, is told of stretches of the file [begin, end) read and not
/// needed again, as a large pool is read (so that their pages can go).
/// `traces` is handed the stack traces in batches as they are read, in
/// order (pools.stack_traces numbers their keys), for a TraceTree: it
/// takes each, and may leave in its place an earlier one, whose room is
/// used again (its contents are cleared). Both `decoding`s give the same
/// pools.
void read_constant_pools(const Cursor& chunk, std::uint64_t last_offset, const ChunkMetadata& meta,
                         Pools& pools, bool keep_lines,
                         const std::function<void(std::uint64_t, std::uint64_t)>& done,
                         const std::function<void(TraceBatch&)>& traces,
                         FrameDecoding decoding = FrameDecoding::kFast);

/// The offset (relative to the chunk) of the first of a chunk's
/// checkpoints, walking their chain back from the one at `last_offset` as
/// read_constant_pools() does but reading only each one's header; nullopt
/// when the chain is damaged (read_constant_pools() then says where). The
/// events before it can be read while the pools are.
std::optional<std::uint64_t> first_checkpoint(const Cursor& chunk, std::uint64_t last_offset);

}  // namespace fg::formats::jfr
