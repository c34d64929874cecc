// Turning one chunk's constant-pool references into the profile's stacks,
// frames and labels, named as async-profiler's converter names them
// (naming.h). Pool keys mean something only inside their chunk, so a
// resolver lives for one chunk and caches what it made by key: each stack
// trace, method frame, class name and thread becomes model ids once.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fg/builder.h"
#include "fg/detail/u64_map.h"
#include "fg/string_pool.h"
#include "formats/jfr/constant_pools.h"
#include "formats/jfr/naming.h"

namespace fg::formats::jfr {

/// Model ids (stacks, frames, label sets) by a pair of pool keys: one
/// U64Map probe when the pair packs into 64 bits (`second` below 2^kBits,
/// `first` below 2^(64-kBits)), as pool keys almost always do; a hash map
/// for the rest.
template <typename IdType, int kBits>
class PairIds {
 public:
  /// The id stored for the pair, or kNoId<IdType>.
  IdType find(std::uint64_t first, std::uint64_t second) const {
    if (packs(first, second)) return IdType{fast_.find(first << kBits | second)};
    auto it = slow_.find({first, second});
    return it == slow_.end() ? kNoId<IdType> : it->second;
  }
  /// Stores `id` for the pair unless it has one.
  void insert(std::uint64_t first, std::uint64_t second, IdType id) {
    if (packs(first, second))
      fast_.insert(first << kBits | second, id.index());
    else
      slow_.emplace(std::pair{first, second}, id);
  }

 private:
  static bool packs(std::uint64_t first, std::uint64_t second) {
    return second < (std::uint64_t{1} << kBits) && first < (std::uint64_t{1} << (64 - kBits));
  }
  struct Hash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const {
      const std::uint64_t h = k.first * 0x9E3779B97F4A7C15ull ^ k.second * 0xC2B2AE3D27D4EB4Full;
      return static_cast<std::size_t>(h ^ (h >> 31));
    }
  };
  U64Map fast_;
  std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, IdType, Hash> slow_;
};

/// A node of a chunk's trace tree whose stack is to be made, its parent's
/// first (ChunkResolver::make()).
struct NewNode {
  std::uint32_t node, parent, frame;
};

/// The parse stage's half of resolving stack traces: for each event's
/// trace, its leaf node in the tree, and the nodes on its path that no
/// earlier event's path held, root first. The resolve stage makes their
/// stacks from that list (ChunkResolver::make()), in the order it would
/// have found them itself walking up from each leaf, and so without the
/// walk's cache misses on a thread already busy with the builder's tables.
/// Counts the stack traces used that the recorder marked truncated.
class NodeLister {
 public:
  /// For one chunk's complete tree, which must outlive the lister.
  explicit NodeLister(const TraceTree& tree);
  /// The leaf node of the trace at `position` (StackTracePool::position()),
  /// U64Map::kMissing for U64Map::kMissing; with `list`, the new nodes of
  /// its path are appended to `out`, and their count returned in `listed`.
  std::uint32_t leaf(std::uint32_t position, bool list, std::vector<NewNode>& out, std::uint32_t& listed);
  /// Cache hints for a coming leaf(position): prefetch() some events
  /// ahead, then prefetch_path() fewer, once the trace is in cache.
  void prefetch(std::uint32_t position) const {
    if (position != U64Map::kMissing) tree_.prefetch(position);
  }
  void prefetch_path(std::uint32_t position) const {
    if (position == U64Map::kMissing) return;
    const std::uint32_t n = tree_.at(position).node;
    tree_.prefetch_node(n);
    if (n >= 8) tree_.prefetch_node(n - 8);
  }
  std::uint64_t truncated_traces() const { return truncated_; }

 private:
  const TraceTree& tree_;
  std::vector<bool> used_;     // by trace position
  std::vector<bool> claimed_;  // by node: listed before
  std::vector<std::uint32_t> path_;
  std::uint64_t truncated_ = 0;
};

class ChunkResolver {
 public:
  /// What stack() returns for a trace key the pools do not hold.
  static constexpr StackId kNoStack{U64Map::kMissing - 1};

  /// `builder`, `pools`, `tree` (the chunk's stack traces) and `naming`
  /// must outlive the resolver. With `threads`, each stack starts at a
  /// `[name tid=N]` frame. With `stand_ins` (not with `threads`), the
  /// frames of a method in every Java tier are one: its JIT frame, marked
  /// in *stand_ins (by frame id) to be given its kind at the end, as
  /// merge_compilation_kinds() would; tier() and node_stack() tell the
  /// weight of each tier where.
  ChunkResolver(ProfileBuilder& builder, const Pools& pools, const TraceTree& tree,
                const NamingOptions& naming, bool threads, std::vector<bool>* stand_ins = nullptr);

  /// Before make(): the stacks of a hand-off's `count` listed nodes that
  /// the builder holds already, found in as many rounds as the longest
  /// chain of nodes listed below one another (each round's lookups fetched
  /// a few ahead, where make() waits on each one's parent). Makes nothing.
  void find_made(const NewNode* nodes, std::size_t count);
  /// Makes the stacks of `count` nodes NodeLister listed (not with threads)
  /// that find_made() did not find, in order.
  void make(const NewNode* nodes, std::size_t count) {
    for (const NewNode* n = nodes; n != nodes + count; ++n)
      if (node_stacks_[n->node] == kNoId<StackId>)
        node_stacks_[n->node] = builder_.stack(parent_stack(n->parent), frame_of(n->frame));
  }
  /// The stack of the trace whose leaf is `node` (NodeLister::leaf()),
  /// below the frame of `thread` with threads; kNoStack for
  /// U64Map::kMissing (key 0, none, or a key the pools do not hold).
  /// Without threads, the nodes on its path must have been made.
  StackId stack(std::uint32_t node, std::uint64_t thread) {
    if (node == U64Map::kMissing) return kNoStack;
    if (!threads_) return node == 0 ? kRootStack : node_stacks_[node];
    return thread_stack(node, thread);
  }
  /// A cache hint for a coming stack(node, ...).
  void prefetch(std::uint32_t node) const {
    if (node != U64Map::kMissing && !threads_) __builtin_prefetch(&node_stacks_[node]);
  }
  /// The frame of an allocated or locked class (Class pool key): dotted,
  /// kind kKernel (`_[k]`) when `outside_tlab`, else kInlined (`_[i]`);
  /// "null" for a key the pool does not hold.
  FrameId class_frame(std::uint64_t cls, bool outside_tlab);
  /// The labels of an event: thread (name), thread_id (pool key) and, when
  /// `with_state`, state (the ThreadState name).
  LabelSetId labels(std::uint64_t thread, bool with_state, std::uint64_t state);
  /// The stack made for node `node` of the tree (not with threads), or
  /// kNoId<StackId> when no trace through it was resolved.
  StackId node_stack(std::uint32_t node) const { return node_stacks_[node]; }
  /// The kind the recording gives entry `i` of the pools' frames, once a
  /// stack through it was made.
  FrameKind tier(std::uint32_t i) const { return kinds_by_index_[i]; }

 private:
  StackId parent_stack(std::uint32_t parent) const { return parent == 0 ? kRootStack : node_stacks_[parent]; }
  // The frame of entry `i` of the pools' frames.
  FrameId frame_of(std::uint32_t i) {
    const FrameId id = frames_by_index_[i];
    return id != kNoId<FrameId> ? id : frame_of_slow(i);
  }
  FrameId frame_of_slow(std::uint32_t i);
  FrameId make_frame(const FrameRef& f, FrameKind kind);
  // With threads: the stack of `leaf`'s path below the frame of `thread`.
  StackId thread_stack(std::uint32_t leaf, std::uint64_t thread);

  struct FrameKey {
    std::uint64_t method, type;
    std::int32_t line, bci;
    bool operator==(const FrameKey&) const = default;
  };
  struct FrameKeyHash {
    std::size_t operator()(const FrameKey& k) const;
  };

  ProfileBuilder& builder_;
  const Pools& pools_;
  const TraceTree& tree_;
  const NamingOptions& naming_;
  bool threads_;
  std::vector<bool>* stand_ins_;
  bool kernel_known_;  // FrameType has Kernel: then Native means C code (async-profiler)
  // Frames by their index in the pools, made on first use (frame_of_slow);
  // with --lines/--bci, by FrameKey too.
  std::vector<FrameId> frames_by_index_;
  std::vector<FrameKind> kinds_by_index_;  // set with frames_by_index_
  std::unordered_map<FrameKey, FrameId, FrameKeyHash> frames_;
  PairIds<StackId, 24> stacks_;     // by (leaf node, thread), with threads
  BigVector<StackId> node_stacks_;  // by trace node, without threads; kNoId until made
  // find_made()'s: each listed node's round, by node (the first is 0), and the nodes by round.
  std::vector<std::uint8_t> rounds_;
  std::vector<std::uint32_t> round_starts_;
  std::vector<const NewNode*> by_round_;
  std::vector<std::uint32_t> path_;  // thread_stack()'s nodes
  // The last lookup: events of one thread come in runs.
  struct Last {
    std::uint64_t first = 0, second = 0;
    LabelSetId id = kNoId<LabelSetId>;  // kNoId: none yet
    bool is(std::uint64_t a, std::uint64_t b) const {
      return id != kNoId<LabelSetId> && a == first && b == second;
    }
  };
  Last last_labels_;
  PairIds<LabelSetId, 16> labels_;    // by (thread, state + 1, or 0 without a state)
  PairIds<FrameId, 1> class_frames_;  // by (class, outside a TLAB)
};

}  // namespace fg::formats::jfr
