// The call tree view: a node per distinct call path, with self and total
// values per column, children in a fixed order so every layout drawn from
// it is reproducible. Node ids are the profile's stack ids (node 0 is the
// root, which has no frame).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fg/profile.h"

namespace fg {

/// Ranks every frame of `profile` in the order flamegraph.pl gives sibling
/// frames: bytewise by the name with its collapsed-stack annotation, where a
/// name that is a prefix of another compares as if followed by ';' (the
/// separator that follows it in a folded line). rank[frame] is its position.
std::vector<std::uint32_t> frame_order(const Profile& profile);

class CallTree {
 public:
  /// Builds the tree from every sample of `profile` (labels and timestamps
  /// merged away).
  explicit CallTree(const Profile& profile);

  const Profile& profile() const { return *profile_; }
  std::size_t size() const { return child_begin_.size() - 1; }
  std::size_t value_count() const { return columns_; }

  StackId parent(StackId node) const { return profile_->stack(node).parent; }
  FrameId frame(StackId node) const { return profile_->stack(node).frame; }
  std::uint32_t depth(StackId node) const { return profile_->stack(node).depth; }
  /// Children in frame_order() order.
  std::span<const StackId> children(StackId node) const {
    return {children_.data() + child_begin_[node], child_begin_[node + 1] - child_begin_[node]};
  }
  std::int64_t self(StackId node, std::size_t column) const { return self_[node * columns_ + column]; }
  std::int64_t total(StackId node, std::size_t column) const { return total_[node * columns_ + column]; }

 private:
  const Profile* profile_;
  std::size_t columns_;
  std::vector<std::uint32_t> child_begin_;
  std::vector<StackId> children_;
  std::vector<std::int64_t> self_;
  std::vector<std::int64_t> total_;
};

}  // namespace fg
