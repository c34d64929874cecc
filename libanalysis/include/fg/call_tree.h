// The call tree view: a node per distinct call path, with self and total
// values per column, children in a fixed order so every layout drawn from
// it is reproducible. Node ids are the profile's stack ids (node 0 is the
// root, which has no frame).
#pragma once

#include <cassert>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <vector>

#include "fg/bits.h"
#include "fg/detail/u64_map.h"
#include "fg/profile.h"
#include "fg/string_pool.h"

namespace fg {

/// The order flamegraph.pl gives sibling frames: bytewise by the name with
/// its collapsed-stack annotation, where a name that is a prefix of another
/// compares as if followed by ';' (the separator that follows it in a folded
/// line). Frames with the same text (other line or address) keep id order.
bool frame_before(const Profile& profile, FrameId a, FrameId b);

/// Every frame of a profile in frame_before() order, sorted once: a view
/// that orders many lists of siblings compares these ranks (integers)
/// instead of names.
class FrameOrder {
 public:
  explicit FrameOrder(const Profile& profile);
  /// Every frame, in frame_before() order.
  std::span<const FrameId> frames() const { return frames_; }
  /// The frame's place in frames(): rank(a) < rank(b) exactly when
  /// frame_before(a, b).
  std::uint32_t rank(FrameId f) const { return rank_[f.index()]; }

 private:
  std::vector<FrameId> frames_;
  std::vector<std::uint32_t> rank_;  // by frame
};

struct CallTreeOptions {
  /// When set, nodes whose total in this column is below min_total (and
  /// everything under them) are not kept: they still appear in their
  /// parent's children (a narrow frame still takes its place), but their own
  /// children are not indexed. A view that draws only what is wide enough
  /// then pays for a tree of millions of nodes with their totals alone.
  std::optional<std::size_t> prune_column;
  double min_total = 0;
  /// False: no totals are summed, and total() and self() are not to be
  /// called (pruning sums them all the same). For a view that takes what it
  /// needs from the samples itself: a million stacks' totals are some
  /// milliseconds of work on a second thread.
  bool totals = true;
};

/// A node's children: a list the tree holds, or the one child of a node on
/// a chain (see CallTree), which is held here. Valid while the tree is.
class ChildList {
 public:
  ChildList() = default;
  ChildList(std::span<const StackId> ids) : ids_(ids) {}
  static ChildList only(StackId child) {
    ChildList c;
    c.only_ = child;
    c.single_ = true;
    return c;
  }
  const StackId* begin() const { return single_ ? &only_ : ids_.data(); }
  const StackId* end() const { return begin() + size(); }
  std::reverse_iterator<const StackId*> rbegin() const { return std::reverse_iterator(end()); }
  std::reverse_iterator<const StackId*> rend() const { return std::reverse_iterator(begin()); }
  std::size_t size() const { return single_ ? 1 : ids_.size(); }
  bool empty() const { return size() == 0; }
  StackId operator[](std::size_t i) const { return begin()[i]; }
  StackId back() const { return end()[-1]; }

 private:
  std::span<const StackId> ids_;
  StackId only_{};
  bool single_ = false;
};

/// Deep recursion makes millions of nodes on chains: a node whose only
/// child is the next id and that has no sample of its own. Such a node
/// shares its totals with that child and has no children list, so the tree
/// stores totals and lists only for the other nodes (a bit per chain node).
class CallTree {
 public:
  /// Builds the tree from every sample of `profile` (labels and timestamps
  /// merged away). `profile` must outlive the tree.
  explicit CallTree(const Profile& profile, const CallTreeOptions& options = {});

  const Profile& profile() const { return *profile_; }
  std::size_t value_count() const { return columns_; }

  StackId parent(StackId node) const { return profile_->stack(node).parent; }
  FrameId frame(StackId node) const { return profile_->stack(node).frame; }
  /// Frames on the node's path. Walks to the root, O(depth): a view that
  /// needs every node's depth derives it from the parent's instead.
  std::uint32_t depth(StackId node) const { return static_cast<std::uint32_t>(profile_->depth(node)); }
  /// False for nodes pruned away (see CallTreeOptions).
  bool kept(StackId node) const { return !pruned_ || kept_[node.index()]; }
  /// The children in frame_before() order. A node's list is sorted the first
  /// time it is asked for (most views visit few nodes), so a CallTree must
  /// not be shared between threads. Empty for a node not kept.
  ChildList children(StackId node) const {
    if (!kept(node)) return {};
    if (!stored(node))
      return ChildList::only(StackId{node.index() + 1});  // on a chain: inline, asked for per node
    return stored_children(node);
  }
  /// children() in no set order (sorted only if children() sorted them
  /// before): for a view that orders them by its own key, without paying
  /// for the sort first.
  ChildList children_unsorted(StackId node) const {
    if (!kept(node)) return {};
    if (!stored(node)) return ChildList::only(StackId{node.index() + 1});
    return listed(slot(node));
  }
  /// The profile's frames in frame_before() order, made at the first call
  /// (or by children(), once its sorts have compared about as many
  /// frames as the profile has).
  const FrameOrder& frame_order() const;
  /// True for a node on a chain: its only child is node + 1 and it has no
  /// sample of its own (nor, then, any self value).
  bool on_chain(StackId node) const { return !stored(node); }
  /// For a node on a chain: the node its chain leads to, the first one
  /// after it that is not on a chain. Following only-children from `node`
  /// passes node + 1, node + 2, ... up to it: a walk can take the whole run
  /// in one step.
  StackId chain_end(StackId node) const;
  /// The node's own value: its total less its children's totals.
  std::int64_t self(StackId node, std::size_t column) const;
  std::int64_t total(StackId node, std::size_t column) const {
    assert(summed_);  // CallTreeOptions::totals
    const std::size_t i = std::size_t(rank(node)) * columns_ + column;
    return narrow_ ? total32_[i] : total_[i];
  }

 private:
  ChildList stored_children(StackId node) const;
  // The children list of the stored node in slot `k`, as it stands.
  std::span<const StackId> listed(std::uint32_t k) const {
    return std::span<const StackId>(children_.data() + child_begin_[k],
                                    child_begin_[k + 1] - child_begin_[k]);
  }
  bool stored(StackId node) const { return stored_[node.index() >> 6] >> (node.index() & 63) & 1; }
  // Stored nodes before `node`: the index of its totals, its own or (on a
  // chain) those of the first stored node after it, which is its chain's end.
  std::uint32_t rank(StackId node) const {
    const std::uint32_t i = node.index();
    const std::uint64_t below = stored_[i >> 6] & ((std::uint64_t(1) << (i & 63)) - 1);
    return stored_before_[i >> 6] + bit_count(below);
  }
  void mark_stored();
  // Position of a kept stored node in the children index: its rank, unless
  // few nodes are kept (then its number among them).
  std::uint32_t slot(StackId node) const { return by_rank_ ? rank(node) : index_.find(node.index()); }

  template <typename T>
  void sum_totals(BigVector<T>& totals) const;

  const Profile* profile_;
  std::size_t columns_;
  BigVector<std::uint64_t> stored_;         // a bit per node: not on a chain
  BigVector<std::uint32_t> stored_before_;  // per 64 nodes
  std::size_t stored_count_ = 0;
  bool summed_ = true;  // CallTreeOptions::totals, or pruned
  // Every stored node's totals, in 32 bits when every value of the profile
  // together fits (sample counts, most often): no total can be larger.
  bool narrow_ = false;
  BigVector<std::int32_t> total32_;
  BigVector<std::int64_t> total_;
  bool pruned_ = false;
  std::vector<bool> kept_;                // every node, when pruned
  bool by_rank_ = true;                   // slots are ranks
  U64Map index_;                          // kept node -> slot, when not by rank
  BigVector<std::uint32_t> child_begin_;  // per slot; lists of stored nodes only
  mutable BigVector<StackId> children_;
  mutable std::vector<bool> sorted_;  // per slot
  // Children sorted by name before the frames were ranked: a view that
  // visits few nodes of a large profile never pays for sorting every frame.
  mutable std::size_t sorted_by_name_ = 0;
  mutable std::optional<FrameOrder> frame_order_;
  mutable std::vector<std::uint64_t> keyed_;  // a list being sorted by rank
};

}  // namespace fg
