// Stacks from a call graph. A DOT call graph keeps, per function, its flat
// and cum values and, per caller -> callee pair, the value through the
// call; it does not keep which stacks those values came from. fg's model is
// a profile of stacks, so the graph is unfolded into a tree: from each root,
// each node's value is split over its callees and itself in proportion to
// the edge weights and its flat value, and so on down.
//
// Exactness: for an acyclic graph whose numbers are consistent (each cum
// is flat plus the outgoing weights, and the incoming weights plus what
// enters at the root), every flat, cum and edge weight computed back from
// the stacks equals the graph's. Individual stacks are estimates: two
// stacks through one node always split below it in the same proportion.
// Recursive edges (a node calling a node already on the path, itself
// included) are not unfolded: their values stay with the caller's other
// callees and its flat value, so a recursive graph's numbers come back only
// approximately. A cycle of functions calling each other is entered from
// outside by the edges that come from outside it, and from the root at one
// of its functions only (jeprof counts the edges inside a cycle once per
// call, so they do not say what enters it). In a diff graph (values of
// both signs) the shares are signed, which keeps the graph's values as
// above; where a node's terms nearly cancel (their sum under 1% of their
// magnitudes) they are split by magnitude instead.
//
// Bounds: a path never repeats a node, so it is at most as deep as the
// graph has nodes; the number of stacks (tree nodes) is capped (see
// unfold_limit); amounts under a hundredth of the printed digits' step are
// not unfolded further but kept as the caller's value; the walk uses no
// recursion.
#pragma once

#include <cstddef>
#include <vector>

#include "fg/builder.h"
#include "formats/jeprof_dot/jeprof_graph.h"

namespace fg::formats::jeprof_dot {

struct UnfoldResult {
  std::size_t stacks = 0;            ///< tree nodes made
  std::size_t recursive_edges = 0;   ///< edges not unfolded because they close a cycle on some path
  bool truncated = false;            ///< the limit was reached: deeper values were kept by the caller
  std::vector<FrameId> node_frames;  ///< the frame made for each node of the graph, in its order
};

/// The most tree nodes unfolding makes for `graph`: 64 per node and edge,
/// plus 10,000, so that a hostile graph cannot explode (a chain of
/// diamonds has 2^n paths) while real jeprof graphs unfold whole.
std::size_t unfold_limit(const JeprofGraph& graph);

/// Adds the unfolded stacks of `graph` to `builder` as samples of its
/// first value column, values rounded to integers with the rounding error
/// carried from sample to sample (totals stay within 1/2). Frames are the
/// nodes' rebuilt names; each function's system name is the name as the
/// DOT writes it. Stops making new stacks after `max_stacks`. Throws
/// Error when signed shares grow values beyond 2^62.
UnfoldResult unfold(const JeprofGraph& graph, ProfileBuilder& builder, std::size_t max_stacks);

}  // namespace fg::formats::jeprof_dot
