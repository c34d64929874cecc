// The walk up every sample's stack that call graphs and their tags make:
// shared by call_graph.cpp and graph_trim.cpp, not part of the library's API.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "fg/profile.h"

namespace fg {

/// Calls visit(i, frames) for every sample i in [begin, end) that want(i)
/// accepts, in order, its frames leaf first. The paths of kLanes samples
/// are gathered together, a step of each in turn with the next node fetched
/// ahead: one sample's steps up the stack table wait on each other,
/// different samples' do not, so their cache misses overlap.
template <class Want, class Visit>
void each_sample_path(const Profile& p, std::size_t begin, std::size_t end, Want want, Visit visit) {
  constexpr std::size_t kLanes = 8;
  std::array<std::vector<FrameId>, kLanes> paths;
  std::array<StackId, kLanes> at;
  std::array<bool, kLanes> wanted;
  for (std::size_t first = begin; first < end; first += kLanes) {
    const std::size_t count = std::min(kLanes, end - first);
    for (std::size_t j = 0; j < count; ++j) {
      paths[j].clear();
      wanted[j] = want(first + j);
      at[j] = wanted[j] ? p.sample(first + j).stack : kRootStack;
    }
    for (bool more = true; more;) {
      more = false;
      for (std::size_t j = 0; j < count; ++j) {
        if (at[j] == kRootStack) continue;
        const StackNode node = p.stack(at[j]);
        paths[j].push_back(node.frame);
        at[j] = node.parent;
        p.prefetch_stack(at[j]);
        more |= at[j] != kRootStack;
      }
    }
    for (std::size_t j = 0; j < count; ++j)
      if (wanted[j]) visit(first + j, std::span<const FrameId>(paths[j]));
  }
}

}  // namespace fg
