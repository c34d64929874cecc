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

/// The order flamegraph.pl gives sibling frames: bytewise by the name with
/// its collapsed-stack annotation, where a name that is a prefix of another
/// compares as if followed by ';' (the separator that follows it in a folded
/// line). Frames with the same text (other line or address) keep id order.
bool frame_before(const Profile& profile, FrameId a, FrameId b);

class CallTree {
 public:
  /// Builds the tree from every sample of `profile` (labels and timestamps
  /// merged away). `profile` must outlive the tree.
  explicit CallTree(const Profile& profile);

  const Profile& profile() const { return *profile_; }
  std::size_t size() const { return child_begin_.size() - 1; }
  std::size_t value_count() const { return columns_; }

  StackId parent(StackId node) const { return profile_->stack(node).parent; }
  FrameId frame(StackId node) const { return profile_->stack(node).frame; }
  std::uint32_t depth(StackId node) const { return profile_->stack(node).depth; }
  /// Children in frame_before() order. A node's list is sorted the first
  /// time it is asked for (most views visit few nodes), so a CallTree must
  /// not be shared between threads.
  std::span<const StackId> children(StackId node) const;
  std::int64_t self(StackId node, std::size_t column) const { return self_[node * columns_ + column]; }
  std::int64_t total(StackId node, std::size_t column) const { return total_[node * columns_ + column]; }

 private:
  const Profile* profile_;
  std::size_t columns_;
  std::vector<std::uint32_t> child_begin_;
  mutable std::vector<StackId> children_;
  mutable std::vector<bool> sorted_;
  std::vector<std::int64_t> self_;
  std::vector<std::int64_t> total_;
};

}  // namespace fg
