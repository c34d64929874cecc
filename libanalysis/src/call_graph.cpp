#include "fg/call_graph.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

#include "fg/call_tree.h"

namespace fg {

namespace {

// The key that makes frames one node at a granularity.
using NodeKey = std::tuple<std::string, std::string, std::int64_t, std::uint64_t>;

NodeKey key_of(const Profile& p, FrameId f, Granularity g) {
  const Frame& fr = p.frame(f);
  const Function& fn = p.function(fr.function);
  std::int64_t line = g == Granularity::kFunction ? 0 : fr.line;
  std::uint64_t address = g == Granularity::kAddress ? fr.address : 0;
  return {std::string(p.str(fn.name)), std::string(p.str(fn.filename)), line, address};
}

}  // namespace

CallGraph build_call_graph(const Profile& p, const CallGraphOptions& o) {
  CallGraph g;
  // Frames to nodes.
  std::map<NodeKey, std::uint32_t> index;
  std::vector<std::uint32_t>& node_of = g.node_of_frame;
  node_of.assign(p.frame_count(), 0);
  for (FrameId f = 0; f < p.frame_count(); ++f) {
    NodeKey key = key_of(p, f, o.granularity);
    auto [it, added] = index.try_emplace(key, static_cast<std::uint32_t>(g.nodes.size()));
    const bool inlined = p.frame(f).kind == FrameKind::kInlined;
    if (added) {
      CallGraphNode n;
      n.name = std::get<0>(key);
      if (o.granularity != Granularity::kFunction && std::get<2>(key) != 0)
        n.name += ":" + std::to_string(std::get<2>(key));
      n.file = std::get<1>(key);
      n.inlined = inlined;
      n.frame = f;
      g.nodes.push_back(std::move(n));
    } else if (g.nodes[it->second].inlined != inlined) {
      g.nodes[it->second].partly_inlined = true;
      g.nodes[it->second].inlined = false;
    }
    node_of[f] = it->second;
  }

  // Values per stack (labels merged), then each sampled stack walked once:
  // a node (and an edge) counts once per stack however often it recurs.
  CallTree tree(p);
  std::vector<std::uint32_t> seen_node(g.nodes.size(), UINT32_MAX);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> edge_index;
  std::vector<std::uint32_t> seen_edge;
  for (StackId s = 1; s < p.stack_count(); ++s) {
    const std::int64_t v = tree.self(s, o.column);
    if (v == 0) continue;
    g.total += v;
    g.nodes[node_of[tree.frame(s)]].flat += v;
    StackId child = kRootStack;
    for (StackId at = s; at != kRootStack; child = at, at = tree.parent(at)) {
      std::uint32_t n = node_of[tree.frame(at)];
      if (seen_node[n] != s) {
        seen_node[n] = s;
        g.nodes[n].cum += v;
      }
      if (child == kRootStack) continue;
      std::uint32_t callee = node_of[tree.frame(child)];
      auto [it, added] = edge_index.try_emplace({n, callee}, static_cast<std::uint32_t>(g.edges.size()));
      if (added) {
        g.edges.push_back({n, callee, 0, p.frame(tree.frame(child)).kind == FrameKind::kInlined});
        seen_edge.push_back(UINT32_MAX);
      }
      if (seen_edge[it->second] != s) {
        seen_edge[it->second] = s;
        g.edges[it->second].weight += v;
      }
    }
  }
  g.total += tree.self(kRootStack, o.column);
  return g;
}

std::vector<CallGraphEdge> kept_edges(const Profile& p, const CallGraph& g, std::size_t column,
                                      const std::vector<bool>& kept, double edge_fraction) {
  CallTree tree(p);
  std::vector<CallGraphEdge> edges;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> index;
  std::vector<std::uint32_t> seen;
  for (StackId s = 1; s < p.stack_count(); ++s) {
    const std::int64_t v = tree.self(s, column);
    if (v == 0) continue;
    // From the leaf up: each kept node and the next kept node above it.
    std::uint32_t callee = UINT32_MAX;
    bool callee_inlined = false;
    for (StackId at = s; at != kRootStack; at = tree.parent(at)) {
      std::uint32_t n = g.node_of_frame[tree.frame(at)];
      if (!kept[n]) continue;
      if (callee != UINT32_MAX && callee != n) {
        auto [it, added] = index.try_emplace({n, callee}, static_cast<std::uint32_t>(edges.size()));
        if (added) {
          edges.push_back({n, callee, 0, callee_inlined});
          seen.push_back(UINT32_MAX);
        }
        if (seen[it->second] != s) {
          seen[it->second] = s;
          edges[it->second].weight += v;
        }
      }
      callee = n;
      callee_inlined = p.frame(tree.frame(at)).kind == FrameKind::kInlined;
    }
  }
  const std::int64_t cutoff = std::llabs(static_cast<std::int64_t>(static_cast<double>(g.total) * edge_fraction));
  std::vector<CallGraphEdge> out;
  for (const CallGraphEdge& e : edges)
    if (std::llabs(e.weight) >= cutoff) out.push_back(e);
  return out;
}

namespace {

std::vector<std::uint32_t> sorted(const CallGraph& g, bool cum_first) {
  std::vector<std::uint32_t> order(g.nodes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const CallGraphNode &x = g.nodes[a], &y = g.nodes[b];
    std::int64_t xf = std::llabs(x.flat), yf = std::llabs(y.flat), xc = std::llabs(x.cum), yc = std::llabs(y.cum);
    if (cum_first ? xc != yc : xf != yf) return cum_first ? xc > yc : xf > yf;
    if (x.name != y.name) return x.name < y.name;  // pprof breaks ties by name
    if (cum_first ? xf != yf : xc != yc) return cum_first ? xf > yf : xc > yc;
    return a < b;
  });
  return order;
}

}  // namespace

std::vector<std::uint32_t> top_order(const CallGraph& g) { return sorted(g, false); }
std::vector<std::uint32_t> top_order_by_cum(const CallGraph& g) { return sorted(g, true); }

}  // namespace fg
