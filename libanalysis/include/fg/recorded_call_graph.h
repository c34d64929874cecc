// The edges a source recorded when it has a graph and no stacks, as
// jeprof's DOT: kept beside the profile's reconstructed stacks so that call
// graph views draw the recorded numbers exactly. Only graph-shaped readers
// and the call graph view need it; the model itself (fg/profile.h) names it
// without showing it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fg/ids.h"

namespace fg {

/// A call graph as a graph-shaped input recorded it (jeprof's DOT): each
/// function's flat and cum and each caller -> callee weight, for one value
/// column. Such an input holds no stacks, so its profile's stacks are
/// reconstructed from the graph and cannot give all of the graph's numbers
/// back (recursion, values lost to rounding); the graph is kept beside them
/// so that call graph views draw the recorded numbers exactly. A transform
/// that makes a new profile (filter, merge, diff) does not carry it over:
/// its result's graph is computed from its stacks.
struct RecordedCallGraph {
  struct Node {
    FrameId frame{};  ///< the frame standing for the node in the profile
    std::int64_t flat = 0, cum = 0;
  };
  struct Edge {
    std::uint32_t caller = 0, callee = 0;  ///< indices into nodes
    std::int64_t weight = 0;
  };
  std::size_t column = 0;  ///< the value column the numbers are of
  std::int64_t total = 0;  ///< what the recording's percentages are of
  std::vector<Node> nodes;
  std::vector<Edge> edges;
};

}  // namespace fg
