// A call graph trimmed for drawing, as go tool pprof trims it for -dot:
// nodes whose cum is under the node fraction are dropped, the rest ordered
// by how much they tell (pprof's entropy order), the top --node-count kept
// (each node's tag boxes counted against the limit), edges redrawn among the
// kept nodes (a "residual" edge where dropped nodes lay between), edges
// under the edge fraction dropped, and residual edges removed where another
// path already connects their ends.
//
// Tags are pprof's "nodelets": per node, the samples' string labels joined
// ("key:value" lines, sorted) and their "bytes" numeric label, with flat
// and cum values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fg/call_graph.h"

namespace fg {

/// Tag boxes drawn per node (and counted against --node-count), as pprof's
/// maxNodelets.
inline constexpr std::size_t kMaxTagBoxes = 4;

struct GraphTag {
  std::string name;  ///< "k:v" lines joined by '\n', or the value with its unit
  std::int64_t flat = 0, cum = 0;
  std::int64_t value = 0;  ///< numeric tags: the label's value
  std::string unit;        ///< numeric tags: its unit
};

struct NodeTags {
  std::vector<GraphTag> labels;  ///< string label sets
  /// Numeric tags under each string label set ("" for samples without).
  std::vector<std::pair<std::string, std::vector<GraphTag>>> numeric;
};

struct TrimOptions {
  std::size_t node_count = 80;  ///< 0: no limit
  double node_fraction = 0.005;
  double edge_fraction = 0.001;
};

struct TrimmedGraph {
  CallGraph graph;                   ///< the whole graph; nodes below index it
  std::vector<std::uint32_t> nodes;  ///< kept nodes, in pprof's order
  std::vector<CallGraphEdge> edges;  ///< among kept nodes, in pprof's drawing order
  std::vector<NodeTags> tags;        ///< per graph node (empty for dropped ones)
  std::int64_t node_cutoff = 0, edge_cutoff = 0;
  std::size_t dropped_nodes = 0;  ///< under the node fraction
  std::size_t dropped_edges = 0;  ///< under the edge fraction
  std::size_t candidates = 0;     ///< nodes left after the fraction, before --node-count
};

/// Trims the call graph of one column of `profile` as pprof does for -dot.
TrimmedGraph trim_call_graph(const Profile& profile, const CallGraphOptions& graph_options,
                             const TrimOptions& options);
/// trim_call_graph() of `graph`, which is build_call_graph(profile,
/// graph_options) made beforehand (CallGraphCache::take()).
TrimmedGraph trim_call_graph(const Profile& profile, CallGraph graph, const CallGraphOptions& graph_options,
                             const TrimOptions& options);

/// What a layout engine (Graphviz's dot) is given at most: its work grows
/// with the edges and the ranks they span, so a dense graph is laid out
/// with the heaviest of its edges only.
struct LayoutBudget {
  std::size_t nodes = 2000;  ///< nodes and tag boxes, whatever --node-count asks
  std::size_t edges = 150;   ///< edges in all, beyond those that keep each node reachable
  std::size_t degree = 8;    ///< edges into or out of one node, as jeprof's --maxdegree
};

/// When `t` has more than `budget.edges` edges, leaves the lighter ones out
/// as jeprof does for its --maxdegree: in the order of `t.edges` (heaviest
/// first), each node's first edge in stays, so that every node stays
/// reachable (a forest, which dot lays out in tight ranks); then the
/// heaviest others while fewer than `budget.edges` stay and neither end
/// has `budget.degree` edges. The kept edges keep their order. Returns how
/// many were left out.
std::size_t bound_for_layout(TrimmedGraph& t, const LayoutBudget& budget = {});

}  // namespace fg
