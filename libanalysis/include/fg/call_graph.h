// The call graph view, as pprof builds it: a node per function (or per
// function and line, or per address), with flat and cumulative values, and
// edges caller -> callee. Top tables and DOT call graphs draw from it.
//
// Semantics are pprof's: flat is the value of the samples whose leaf is the
// node; cum counts each sample once for every node on its stack, however
// often the node recurs there; an edge counts each sample once. Inlined and
// called occurrences of a function are one node, which pprof prints
// "name (inline)" when every occurrence was inlined and
// "name (partial-inline)" when some were.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fg/granularity.h"
#include "fg/profile.h"

namespace fg {

struct CallGraphNode {
  /// As pprof prints the node: "name" per function, "name file:line" per
  /// line, "0000000000401a2b name file:line" per address.
  std::string name;
  std::string function;         ///< the function's name alone
  std::string file;             ///< its source file, when known and shown at this granularity
  std::int64_t line = 0;        ///< its line, at line and address granularity
  std::uint64_t address = 0;    ///< its address, at address granularity
  bool inlined = false;         ///< every frame of this node was inlined into its caller
  bool partly_inlined = false;  ///< some of its frames were, some were not
  FrameId frame{};              ///< one frame of the node, for everything else about it
  std::int64_t flat = 0;
  std::int64_t cum = 0;
};

struct CallGraphEdge {
  std::uint32_t caller = 0, callee = 0;  ///< node indices
  std::int64_t weight = 0;
  bool inlined = false;   ///< the callee was inlined into the caller on every stack
  bool residual = false;  ///< kept_edges(): dropped nodes lay between the two on some stack
};

struct CallGraph {
  std::vector<CallGraphNode> nodes;
  std::vector<CallGraphEdge> edges;
  /// What percentages are of, as pprof's report total: the sum of |value|
  /// over all samples, or over the base samples of a -diff_base style
  /// profile (those labelled kDiffBaseLabel) when there are any.
  std::int64_t total = 0;
  std::int64_t flat_sum = 0;  ///< the nodes' flat values summed: pprof's base for the node and edge cut-offs
  /// The node of each frame of the profile; kNoNode for a frame that a
  /// recorded graph has no node for.
  std::vector<std::uint32_t> node_of_frame;
  /// Drawn from the profile's RecordedCallGraph rather than its stacks.
  bool recorded = false;
  /// The value column build_call_graph() counted (SIZE_MAX: none), and
  /// whether it summed it over the stack tree, the walks up the samples'
  /// stacks being long: kept_edges() on that column takes the same way
  /// without measuring the walks again.
  std::size_t walked_column = SIZE_MAX;
  bool walks_long = false;
};

inline constexpr std::uint32_t kNoNode = UINT32_MAX;

/// Sees sample `sample`'s frames, leaf first, in a walk over the samples
/// made in parts: `part` is 0 or 1, and the two parts may run at once on
/// two threads, each in sample order.
using SamplePathVisitor =
    std::function<void(std::size_t part, std::size_t sample, std::span<const FrameId> leaf_first)>;

/// The label key that marks the negated base samples of a delta profile
/// (pprof's own, so that pprof reads such profiles the same way).
inline constexpr const char* kDiffBaseLabel = "pprof::base";

struct CallGraphOptions {
  std::size_t column = 0;
  Granularity granularity = Granularity::kFunction;
  bool edges = true;  ///< false: leave CallGraph::edges empty (views that redraw them with kept_edges())
};

/// Builds the call graph of one value column of `profile`. When the
/// profile carries a RecordedCallGraph of that column and the granularity
/// is per function, the nodes, values and edges are the recorded ones (the
/// frames the recording did not name get no node); otherwise they are
/// computed from the samples.
CallGraph build_call_graph(const Profile& profile, const CallGraphOptions& options);

/// The call graphs of one profile, each built once for the views that draw
/// from it (fg-report writes a top table and a call graph of every column
/// and lists the top functions), by the options it was asked with. Not
/// for use by two threads at once.
class CallGraphCache {
 public:
  /// `profile` must outlive the cache.
  explicit CallGraphCache(const Profile& profile) : profile_(&profile) {}
  /// build_call_graph(profile, options), built at the first call with
  /// these options and kept; nullptr when `profile` is not the cache's (a
  /// view made of it). Valid until take() takes it.
  const CallGraph* find(const Profile& profile, const CallGraphOptions& options);
  /// build_call_graph(profile, options), moved out of the cache when it
  /// holds it (for the last view that needs it), else built.
  CallGraph take(const Profile& profile, const CallGraphOptions& options);

 private:
  struct Entry {
    CallGraphOptions options;
    std::unique_ptr<CallGraph> graph;
  };
  Entry* entry(const CallGraphOptions& options);
  const Profile* profile_;
  std::vector<Entry> graphs_;
};

/// The edges among the `kept` nodes only, as pprof redraws a graph after
/// dropping nodes: a kept node's nearest kept caller on each stack becomes
/// its caller (a residual edge when nodes were skipped between them), each
/// edge counted once per sample; then edges whose |weight| is under
/// `edge_fraction` of the total are dropped. For a recorded graph, the
/// recorded edges between kept nodes (a graph does not say which paths
/// ran through a dropped node). With `callees`, only the edges
/// into those nodes are counted (a view that needs no others saves the work).
/// With `also`, every path the walk makes is handed to it as well, so that
/// a caller needing the same walk does not make its own (a recorded graph
/// is not walked, nor one whose samples' stacks are far longer in all than
/// its stack tree, whose counts are summed over the tree: then it is not
/// called). Either way the edges come in the order a walk over the samples,
/// each from its leaf up, meets them first.
std::vector<CallGraphEdge> kept_edges(const Profile& profile, const CallGraph& graph, std::size_t column,
                                      const std::vector<bool>& kept, double edge_fraction,
                                      const std::vector<bool>* callees = nullptr,
                                      const SamplePathVisitor* also = nullptr);

/// The cut-off for `fraction` of `total`: |total| times `fraction`,
/// truncated (pprof's abs(int64(float64(total) * fraction))). `option`
/// names the fraction in the UsageError thrown unless 0 <= fraction <= 1
/// (NaN is not), so that the product always fits in 64 bits.
std::int64_t fraction_cutoff(std::int64_t total, double fraction, const char* option);

/// The smallest value a report shows of `nodes`: each node's |flat|, or its
/// |cum| when flat is 0; 0 when all are 0. pprof's selectOutputUnit chooses
/// the report's unit from it (units::output_unit).
std::int64_t smallest_shown_value(const CallGraph& graph, const std::vector<std::uint32_t>& nodes);

/// Node indices sorted as pprof's top table sorts them: by |flat|
/// descending, then by name.
std::vector<std::uint32_t> top_order(const CallGraph& graph);
/// By |cum| descending, then by name (pprof -top -cum).
std::vector<std::uint32_t> top_order_by_cum(const CallGraph& graph);

}  // namespace fg
