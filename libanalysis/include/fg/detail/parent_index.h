// Internal: how Profile stores the parent of each stack-tree node in some
// 4 bytes a node. Not part of the model's API: Profile::parent() is.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fg/big_table.h"
#include "fg/bits.h"
#include "fg/ids.h"

namespace fg::detail {

/// The parents of the nodes of a stack tree, node 0 (the root) first.
/// Profiles reach millions of distinct paths, and deep ones are mostly
/// chains: a new path is made frame after frame, each node the child of the
/// one made just before it. So a bit per node says "my parent is the node
/// before me"; the parents of the other nodes are kept in id order and found
/// by counting the clear bits before a node (a count per 64 nodes, then the
/// bits of the node's word).
class ParentIndex {
 public:
  /// The parent of node `id` (< size()).
  StackId parent(StackId id) const {
    const std::uint32_t i = id.index();
    const std::uint64_t word = parent_is_prev_[i >> 6], bit = std::uint64_t(1) << (i & 63);
    if (word & bit) return StackId{i - 1};
    return jump_parents_[jumps_before_[i >> 6] + bit_count(~word & (bit - 1))];
  }
  /// The number of nodes.
  std::size_t size() const { return size_; }

  /// Adds node size() with parent `parent` (< size(), or anything for the root).
  void push(StackId parent) {
    const std::size_t id = size_++;
    if (id % 64 == 0) start_word();
    if (id > 0 && parent.index() == id - 1)
      parent_is_prev_.back() |= std::uint64_t(1) << (id % 64);
    else
      jump_parents_.push_back(parent);
  }
  /// Adds `n` nodes, each the child of the node before it.
  void push_chain(std::size_t n) {
    const std::size_t begin = size_, end = begin + n;
    while (parent_is_prev_.size() * 64 < end) start_word();
    // Their bits, a word at a time.
    for (std::size_t id = begin; id < end;) {
      const std::size_t word = id / 64, upto = std::min(end, (word + 1) * 64);
      const std::size_t bits = upto - id;
      const std::uint64_t mask = (bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1)
                                 << (id % 64);
      parent_is_prev_[word] |= mask;
      id = upto;
    }
    size_ = end;
  }
  /// Capacity for `n` nodes (the jumps grow as they come).
  void reserve(std::size_t n) {
    parent_is_prev_.reserve(n / 64 + 1);
    jumps_before_.reserve(n / 64 + 1);
  }
  /// A cache hint for a coming parent(id).
  void prefetch(StackId id) const {
    __builtin_prefetch(&parent_is_prev_[id.index() >> 6]);
    __builtin_prefetch(&jumps_before_[id.index() >> 6]);
  }

 private:
  void start_word() {
    parent_is_prev_.push_back(0);
    jumps_before_.push_back(static_cast<std::uint32_t>(jump_parents_.size()));
  }
  BigVector<std::uint64_t> parent_is_prev_;  // a bit per node
  BigVector<std::uint32_t> jumps_before_;    // per 64 nodes: clear bits before them
  BigVector<StackId> jump_parents_;
  std::size_t size_ = 0;
};

}  // namespace fg::detail
