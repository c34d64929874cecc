// The walk up every sample's stack that call graphs and their tags make,
// and its split over two threads: shared by call_graph.cpp and
// graph_trim.cpp, not part of the library's API.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "fg/bulk_builder.h"
#include "fg/parallel.h"
#include "fg/profile.h"

namespace fg {

/// Calls visit(i, frames) for every sample i in [begin, end) that want(i)
/// accepts, in order, its frames leaf first. Most steps up a stack go to
/// the node made just before (a path's nodes are made one after another),
/// so a walk reads memory mostly in order; only the start of each walk, a
/// sample's leaf anywhere in the table, is fetched a few samples ahead.
/// (Walking several samples in step, a frame of each in turn, made the
/// walk half as slow again: the bookkeeping cost more than the overlap of
/// misses that are rare.)
template <class Want, class Visit>
void each_sample_path(const Profile& p, std::size_t begin, std::size_t end, Want want, Visit visit) {
  constexpr std::size_t kAhead = 4;
  std::vector<FrameId> path;
  for (std::size_t i = begin; i < end; ++i) {
    if (i + kAhead < end) bulk::prefetch_stack(p, p.sample(i + kAhead).stack);
    if (!want(i)) continue;
    path.clear();
    for (StackId s = p.sample(i).stack; s != kRootStack;) {
      const StackNode node = p.stack(s);
      path.push_back(node.frame);
      s = node.parent;
    }
    visit(i, std::span<const FrameId>(path));
  }
}

// Runs walk(begin, end, part) over the samples in parts, in sample order:
// two parts on two threads when the samples are worth a thread (the walks
// up millions of stacks are most of a call graph's cost), else one. Parts
// only read the profile; each keeps its own sums.
template <class Walk>
std::size_t in_parts(std::size_t samples, Walk walk) {
  const Work work{.items = samples};
  if (!worth_a_thread(work)) {
    walk(std::size_t(0), samples, std::size_t(0));
    return 1;
  }
  const std::size_t half = samples / 2;
  run_beside(
      work, [&] { walk(half, samples, std::size_t(1)); },
      [&] { walk(std::size_t(0), half, std::size_t(0)); });
  return 2;
}

}  // namespace fg
