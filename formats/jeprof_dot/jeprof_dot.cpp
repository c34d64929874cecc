#include "formats/jeprof_dot/jeprof_dot.h"

#include <cmath>
#include <string>

#include "fg/builder.h"
#include "fg/recorded_call_graph.h"
#include "formats/common/unfolded_stacks.h"
#include "formats/jeprof_dot/jeprof_graph.h"
#include "formats/jeprof_dot/reconcile.h"
#include "formats/jeprof_dot/unfold.h"

namespace fg::formats::jeprof_dot {

namespace {

std::string_view skip_blanks(std::string_view s) {
  while (!s.empty() && (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n')) s.remove_prefix(1);
  return s;
}

void warn_about(const UnfoldResult& r, const std::string& file, std::size_t limit, Diagnostics& d) {
  if (r.truncated)
    d.warn("call graph too large to unfold",
           file + ": unfolding the call graph stopped at " + std::to_string(limit) +
               " stacks (64 per node and edge, plus 10,000); values further down stay with their callers");
}

// The graph's own numbers, as written (not reconciled), for the call graph
// views: jeprof's nodes and edges come back from them exactly.
// `frames` are the frames unfolding made for the nodes, in their order.
RecordedCallGraph recorded_graph(const JeprofGraph& g, const std::vector<FrameId>& frames) {
  RecordedCallGraph rec;
  rec.total = std::llround(g.total);
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    rec.nodes.push_back({frames[i], std::llround(g.nodes[i].flat), std::llround(g.nodes[i].cum)});
  for (const JeprofEdge& e : g.edges) rec.edges.push_back({e.caller, e.callee, std::llround(e.weight)});
  return rec;
}

}  // namespace

Sniff sniff(std::string_view head, std::string_view) {
  head = skip_blanks(head);
  if (head.substr(0, 7) != "digraph" && head.substr(0, 14) != "strict digraph") return Sniff::kNo;
  const bool legend = head.find("Legend [") != std::string_view::npos;
  for (std::string_view unit : {"Total MB:", "Total objects:", "Total B:", "Total samples:"})
    if (legend && head.substr(0, 9) == "digraph \"" && head.find(unit) != std::string_view::npos)
      return Sniff::kYes;
  return Sniff::kMaybe;
}

Profile read(Input& input, const ReadOptions&, Diagnostics& diagnostics) {
  // A NUL byte near the start (a gzip of zeros, say) is refused as the
  // parser would, before the rest is held.
  if (const std::size_t nul = input.head().find('\0'); nul != std::string_view::npos)
    throw ParseError(SourcePosition::binary(input.name(), nul), "a NUL byte: not a DOT graph");
  const std::string text(read_all(input).view());
  const JeprofGraph recorded = parse_jeprof_graph(text, input.name());
  const JeprofGraph graph = reconcile(recorded);
  ProfileBuilder b({ValueType{graph.value_type, graph.value_unit}});
  Metadata& m = b.metadata();
  m.source_format = "jeprof-dot";
  m.sources.push_back(input.name());
  m.properties.emplace_back(std::string(kUnfoldedProperty), "call graph");
  m.properties.emplace_back("jeprof_unit", graph.unit);
  if (!graph.program.empty()) m.properties.emplace_back("main_binary", graph.program);
  for (std::size_t i = 1; i < graph.legend.size(); ++i)
    if (!graph.legend[i].empty()) m.comments.push_back(graph.legend[i]);
  const std::size_t limit = unfold_limit(graph);
  const UnfoldResult r = unfold(graph, b, limit);
  warn_about(r, input.name(), limit, diagnostics);
  if (r.recursive_edges > 0)
    m.properties.emplace_back(std::string(kRecursiveEdgesProperty), std::to_string(r.recursive_edges));
  try {
    b.set_recorded_graph(recorded_graph(recorded, r.node_frames));
  } catch (const Error& e) {
    throw ParseError(SourcePosition::text(input.name(), 1), e.what());
  }
  return std::move(b).finish();
}

}  // namespace fg::formats::jeprof_dot
