// One value column of a profile's samples summed over its stack tree, for
// call graphs: what a walk up every sample's stack counts (a node once per
// sample however often it recurs there; an edge likewise) is counted here
// in passes over the stacks, so that the cost is the tree's size, not the
// sum of the samples' path lengths (a chain 20,000 deep with a sample at
// every node: 20,000 stacks, 2e8 steps up them). Not part of the
// library's API: call_graph.cpp's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fg/profile.h"

namespace fg {

class StackSums {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  /// Sums column `column` of the samples with a value there (samples of
  /// value 0 count for nothing, not even as having been seen).
  StackSums(const Profile& p, std::size_t column);

  std::size_t stack_count() const { return parent_.size(); }
  StackId parent(StackId s) const { return parent_[s.index()]; }
  /// Whether a valued sample's stack runs through `s` (or ends there).
  bool live(StackId s) const { return count_[s.index()] > 0; }
  /// The summed values of the valued samples in the subtree of `s`.
  std::int64_t total(StackId s) const { return total_[s.index()]; }

  /// Counts keys as a walk up every valued sample's stack would meet
  /// them: `keys[s]` is what stack `s` steps on (a node, an edge) or
  /// kNone, for live stacks other than the root. Gives per key the summed
  /// values of the samples whose stack holds it, each sample once; with
  /// `first_met`, per key the order a walk over the samples in order,
  /// each from its leaf up, meets the keys first (0 for the first met;
  /// kNone for keys no valued sample holds) and per stack whether it is,
  /// for some valued sample, the first occurrence of its key the walk up
  /// that sample's stack meets (`met`).
  std::vector<std::int64_t> count(const std::vector<std::uint32_t>& keys, std::size_t key_count,
                                  std::vector<std::uint32_t>* first_met = nullptr,
                                  std::vector<bool>* met = nullptr) const;

 private:
  // The live stacks but the root, parents before children.
  std::vector<StackId> preorder() const;
  std::vector<StackId> parent_;
  std::vector<std::int64_t> total_;
  std::vector<std::uint32_t> count_;  // valued samples in the subtree
  std::vector<std::uint32_t> first_;  // the first valued sample in the subtree, kNone for none
};

}  // namespace fg
