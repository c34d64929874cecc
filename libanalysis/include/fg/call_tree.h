// The call tree view: a node per distinct call path, with self and total
// values per column, children in a fixed order so every layout drawn from
// it is reproducible. Node ids are the profile's stack ids (node 0 is the
// root, which has no frame).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fg/profile.h"
#include "fg/string_pool.h"

namespace fg {

/// The order flamegraph.pl gives sibling frames: bytewise by the name with
/// its collapsed-stack annotation, where a name that is a prefix of another
/// compares as if followed by ';' (the separator that follows it in a folded
/// line). Frames with the same text (other line or address) keep id order.
bool frame_before(const Profile& profile, FrameId a, FrameId b);

struct CallTreeOptions {
  /// When set, nodes whose total in this column is below min_total (and
  /// everything under them) are not kept: they still appear in their
  /// parent's children (a narrow frame still takes its place), but their own
  /// children are not indexed. A view that draws only what is wide enough
  /// then pays for a tree of millions of nodes with their totals alone.
  std::optional<std::size_t> prune_column;
  double min_total = 0;
};

class CallTree {
 public:
  /// Builds the tree from every sample of `profile` (labels and timestamps
  /// merged away). `profile` must outlive the tree.
  explicit CallTree(const Profile& profile, const CallTreeOptions& options = {});

  const Profile& profile() const { return *profile_; }
  std::size_t value_count() const { return columns_; }

  StackId parent(StackId node) const { return profile_->stack(node).parent; }
  FrameId frame(StackId node) const { return profile_->stack(node).frame; }
  /// Frames on the node's path (walks to the root).
  std::uint32_t depth(StackId node) const { return static_cast<std::uint32_t>(profile_->depth(node)); }
  /// False for nodes pruned away (see CallTreeOptions).
  bool kept(StackId node) const;
  /// The children in frame_before() order. A node's list is sorted the first
  /// time it is asked for (most views visit few nodes), so a CallTree must
  /// not be shared between threads. Empty for a node not kept.
  std::span<const StackId> children(StackId node) const;
  /// The node's own value: its total less its children's totals.
  std::int64_t self(StackId node, std::size_t column) const;
  std::int64_t total(StackId node, std::size_t column) const {
    const std::size_t i = node * columns_ + column;
    return narrow_ ? total32_[i] : total_[i];
  }

 private:
  // Position of a kept node in the children index: its id, unless few
  // nodes are kept (then its number among them).
  std::uint32_t slot(StackId node) const { return by_id_ ? node : index_.find(node); }

  template <typename T>
  void sum_totals(std::vector<T>& totals) const;

  const Profile* profile_;
  std::size_t columns_;
  // Every node's totals, in 32 bits when every value of the profile
  // together fits (sample counts, most often): no total can be larger.
  bool narrow_ = false;
  std::vector<std::int32_t> total32_;
  std::vector<std::int64_t> total_;
  bool pruned_ = false;
  std::vector<bool> kept_;               // every node, when pruned
  bool by_id_ = true;                    // slots are node ids
  U64Map index_;                         // kept node -> slot, when not by id
  std::vector<std::uint32_t> child_begin_;  // per slot
  mutable std::vector<StackId> children_;
  mutable std::vector<bool> sorted_;     // per slot
};

}  // namespace fg
