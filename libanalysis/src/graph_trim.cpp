#include "fg/graph_trim.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <tuple>

#include "fg/detail/u64_map.h"
#include "fg/string_pool.h"
#include "fg/units.h"
#include "sample_paths.h"

namespace fg {

namespace {

// What a label set contributes to tags: its string labels joined as pprof
// joins them, and its "bytes" numeric labels (the only numeric label pprof
// keeps for graphs), each with its formatted name.
struct LabelInfo {
  std::string joined;
  std::uint32_t joined_id = 0;  // equal joined strings, equal ids
  std::vector<GraphTag> bytes;
  std::vector<std::uint32_t> bytes_keys;  // per bytes tag: equal (joined, name), equal keys
};

std::vector<LabelInfo> label_infos(const Profile& p) {
  std::vector<LabelInfo> out(p.label_set_count());
  std::map<std::string, std::uint32_t> ids;
  std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> keys;  // (joined_id, name) of bytes tags
  for (const LabelSetId set : id_range<LabelSetId>(p.label_set_count())) {
    const std::uint32_t id = set.index();
    std::vector<std::string> parts;
    for (const Label& l : p.labels(set)) {
      const std::string_view key = p.str(l.key);
      if (key == kDiffBaseLabel) continue;  // marks a delta profile's base samples, not a tag
      if (!l.numeric) {
        parts.push_back(std::string(key) + ":" + std::string(p.str(l.str)));
      } else if (key == "bytes") {
        std::string unit = l.unit != StringId{} ? std::string(p.str(l.unit)) : "bytes";
        GraphTag t;
        t.name = units::scaled_label(l.num, unit, "minimum");
        t.value = l.num;
        t.unit = std::move(unit);
        out[id].bytes.push_back(std::move(t));
      }
    }
    std::sort(parts.begin(), parts.end());
    for (std::size_t i = 0; i < parts.size(); ++i) out[id].joined += (i ? "\n" : "") + parts[i];
    out[id].joined_id = ids.try_emplace(out[id].joined, static_cast<std::uint32_t>(ids.size())).first->second;
    for (const GraphTag& t : out[id].bytes)
      out[id].bytes_keys.push_back(
          keys.try_emplace({out[id].joined_id, t.name}, static_cast<std::uint32_t>(keys.size()))
              .first->second);
  }
  return out;
}

// Tags of the kept nodes, accumulated as pprof's newGraph does: cum once
// per sample for every kept node on the stack, flat for the leaf when the
// leaf itself is kept.
class TagCollector {
 public:
  void add(std::uint32_t node, const LabelInfo& info, std::int64_t v, bool flat) {
    if (!info.joined.empty()) {
      GraphTag& t = label_tag(node, info.joined_id, info.joined);
      (flat ? t.flat : t.cum) += v;
    }
    for (std::size_t k = 0; k < info.bytes.size(); ++k) {
      GraphTag& t = numeric_tag(node, info.joined_id, info.bytes_keys[k], info.bytes[k]);
      (flat ? t.flat : t.cum) += v;
    }
  }

  /// Adds what another collector gathered from later samples: the result
  /// is what one collector would have made of all of them.
  void merge(TagCollector&& later) {
    for (LabelTag& l : later.labels_) {
      GraphTag& t = label_tag(l.node, l.joined_id, l.tag.name);
      t.flat += l.tag.flat;
      t.cum += l.tag.cum;
    }
    for (NumericTag& n : later.numeric_) {
      GraphTag& t = numeric_tag(n.node, n.joined_id, n.key, n.tag);  // the value of the first sample
      t.flat += n.tag.flat;
      t.cum += n.tag.cum;
    }
  }

  std::vector<NodeTags> take(std::size_t nodes, const std::vector<LabelInfo>& infos) {
    std::vector<std::string> joined(infos.size() + 1);
    for (const LabelInfo& i : infos) joined[i.joined_id] = i.joined;
    std::vector<NodeTags> out(nodes);
    for (LabelTag& l : labels_) out[l.node].labels.push_back(std::move(l.tag));
    // By node, label set and name, as pprof lists them.
    std::sort(numeric_.begin(), numeric_.end(), [](const NumericTag& a, const NumericTag& b) {
      return std::tie(a.node, a.joined_id, a.tag.name) < std::tie(b.node, b.joined_id, b.tag.name);
    });
    for (NumericTag& n : numeric_) {
      auto& lists = out[n.node].numeric;
      if (lists.empty() || lists.back().first != joined[n.joined_id])
        lists.emplace_back(joined[n.joined_id], std::vector<GraphTag>{});
      lists.back().second.push_back(std::move(n.tag));
    }
    return out;
  }

 private:
  struct LabelTag {
    std::uint32_t node;
    std::uint32_t joined_id;
    GraphTag tag;
  };
  // The tag of a node and string label set, made on first sight.
  GraphTag& label_tag(std::uint32_t node, std::uint32_t joined_id, const std::string& joined) {
    const auto next = static_cast<std::uint32_t>(labels_.size());
    const std::uint32_t at = index_.insert(std::uint64_t(node) << 32 | joined_id, next);
    if (at == next) labels_.push_back({node, joined_id, GraphTag{joined, 0, 0, 0, {}}});
    return labels_[at].tag;
  }
  U64Map index_;                  // node << 32 | joined label set -> labels_
  std::vector<LabelTag> labels_;  // in first-seen order
  // A node's numeric tag of one name under one label set, made on first
  // sight with that sample's value.
  struct NumericTag {
    std::uint32_t node;
    std::uint32_t joined_id;
    std::uint32_t key;  // LabelInfo::bytes_keys
    GraphTag tag;
  };
  GraphTag& numeric_tag(std::uint32_t node, std::uint32_t joined_id, std::uint32_t key,
                        const GraphTag& first) {
    const auto next = static_cast<std::uint32_t>(numeric_.size());
    const std::uint32_t at = numeric_index_.insert(std::uint64_t(node) << 32 | key, next);
    if (at == next)
      numeric_.push_back({node, joined_id, key, GraphTag{first.name, 0, 0, first.value, first.unit}});
    return numeric_[at].tag;
  }
  U64Map numeric_index_;  // node << 32 | key -> numeric_
  std::vector<NumericTag> numeric_;
};

// Tags are gathered from the walk that kept_edges() makes (one walk up
// every stack fewer), or, when it makes none (a recorded graph, or counts
// summed over the stack tree), from a walk of their own up the stacks of
// the samples with labels only.
class TagWalk {
 public:
  TagWalk(const Profile& p, const CallGraph& g, std::size_t column, const std::vector<bool>& kept,
          const std::vector<LabelInfo>& infos)
      : p_(p), g_(g), column_(column), kept_(kept), infos_(infos) {}

  /// For kept_edges(), which calls it with every sample of a value.
  SamplePathVisitor visitor() {
    return [this](std::size_t part, std::size_t i, std::span<const FrameId> path) {
      visited_ = true;
      visit(part, i, path);
    };
  }
  /// The walk, when kept_edges() made none (then it called no visitor; nor
  /// when no sample has a value, and then there is nothing to walk).
  void walk_unless_visited() {
    if (visited_) return;
    auto tagged = [&](std::size_t i) {
      const LabelInfo& info = infos_[p_.sample(i).labels.index()];
      return p_.values(i)[column_] != 0 && !(info.joined.empty() && info.bytes.empty());
    };
    in_parts(p_.sample_count(), [&](std::size_t begin, std::size_t end, std::size_t part) {
      each_sample_path(p_, begin, end, tagged,
                       [&](std::size_t i, std::span<const FrameId> path) { visit(part, i, path); });
    });
  }
  std::vector<NodeTags> take() {
    parts_[0].collector.merge(std::move(parts_[1].collector));
    return parts_[0].collector.take(g_.nodes.size(), infos_);
  }

 private:
  void visit(std::size_t part, std::size_t i, std::span<const FrameId> path) {
    const LabelInfo& info = infos_[p_.sample(i).labels.index()];
    if (info.joined.empty() && info.bytes.empty()) return;
    Part& w = parts_[part];
    if (w.seen.empty()) w.seen.assign(g_.nodes.size(), UINT32_MAX);
    const std::int64_t v = p_.values(i)[column_];
    const auto stamp = static_cast<std::uint32_t>(i);
    bool leaf = true;
    for (FrameId f : path) {
      const std::uint32_t n = g_.node_of_frame[f.index()];
      if (n != kNoNode && kept_[n]) {
        if (leaf) w.collector.add(n, info, v, true);
        if (w.seen[n] != stamp) {
          w.seen[n] = stamp;
          w.collector.add(n, info, v, false);
        }
      }
      leaf = false;
    }
  }

  const Profile& p_;
  const CallGraph& g_;
  std::size_t column_;
  const std::vector<bool>& kept_;
  const std::vector<LabelInfo>& infos_;
  struct Part {
    TagCollector collector;
    std::vector<std::uint32_t> seen;  // the last sample that counted each node
  };
  std::array<Part, 2> parts_;  // of the samples' first half, and of the second
  std::atomic<bool> visited_{false};
};

// pprof's edgeEntropyScore: the entropy of the split of a node's weight
// over its edges (and its own flat value).
double edge_entropy(const std::vector<const CallGraphEdge*>& edges, std::int64_t self) {
  std::int64_t total = self;
  for (const CallGraphEdge* e : edges)
    if (e->weight > 0) total += std::llabs(e->weight);
  if (total == 0) return 0;
  double score = 0;
  auto term = [&](std::int64_t w) {
    const double frac = static_cast<double>(std::llabs(w)) / static_cast<double>(total);
    score += -frac * std::log2(frac);
  };
  for (const CallGraphEdge* e : edges) term(e->weight);
  if (self > 0) term(self);
  return score;
}

// pprof's EntropyOrder: nodes that merely pass their weight through score
// low; entries, leaves and branching nodes high.
void entropy_sort(const CallGraph& g, const std::vector<CallGraphEdge>& edges,
                  std::vector<std::uint32_t>& nodes) {
  std::vector<std::vector<const CallGraphEdge*>> in(g.nodes.size()), out(g.nodes.size());
  for (const CallGraphEdge& e : edges) {
    out[e.caller].push_back(&e);
    in[e.callee].push_back(&e);
  }
  std::vector<std::int64_t> score(g.nodes.size(), 0);
  for (std::uint32_t n : nodes) {
    const CallGraphNode& node = g.nodes[n];
    double s = in[n].empty() ? 1 : edge_entropy(in[n], 0);
    s += out[n].empty() ? 1 : edge_entropy(out[n], node.flat);
    const double scaled = s * static_cast<double>(node.cum);
    // As Go on amd64: a NaN or infinite score (a zero-weight edge in a
    // diff) converts to INT64_MIN, and the addition wraps.
    const std::int64_t base =
        std::isfinite(scaled) && std::fabs(scaled) < 9.2e18 ? static_cast<std::int64_t>(scaled) : INT64_MIN;
    score[n] =
        static_cast<std::int64_t>(static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(node.flat));
  }
  std::sort(nodes.begin(), nodes.end(), [&](std::uint32_t a, std::uint32_t b) {
    if (score[a] != score[b]) return score[a] > score[b];
    const CallGraphNode &x = g.nodes[a], &y = g.nodes[b];
    if (x.name != y.name) return x.name < y.name;
    if (std::llabs(x.flat) != std::llabs(y.flat)) return std::llabs(x.flat) > std::llabs(y.flat);
    return a < b;
  });
}

bool tag_kept(const GraphTag& t, std::int64_t cutoff) {
  return std::llabs(t.flat) >= cutoff || std::llabs(t.cum) >= cutoff;
}

void trim_tags(NodeTags& tags, std::int64_t cutoff) {
  std::erase_if(tags.labels, [&](const GraphTag& t) { return !tag_kept(t, cutoff); });
  for (auto& [key, list] : tags.numeric)
    std::erase_if(list, [&](const GraphTag& t) { return !tag_kept(t, cutoff); });
}

// pprof's countTags: the tags with a flat value, which selection counts as
// nodes of their own.
std::size_t count_tags(const NodeTags& tags) {
  std::size_t count = 0;
  for (const GraphTag& t : tags.labels) count += t.flat != 0;
  for (const auto& [key, list] : tags.numeric)
    for (const GraphTag& t : list) count += t.flat != 0;
  return count;
}

// pprof's order of edges: heaviest first, then by caller and callee name.
void sort_edges(const CallGraph& g, std::vector<CallGraphEdge>& edges) {
  std::sort(edges.begin(), edges.end(), [&](const CallGraphEdge& a, const CallGraphEdge& b) {
    if (a.weight != b.weight) return std::llabs(a.weight) > std::llabs(b.weight);
    if (g.nodes[a.caller].name != g.nodes[b.caller].name)
      return g.nodes[a.caller].name < g.nodes[b.caller].name;
    return g.nodes[a.callee].name < g.nodes[b.callee].name;
  });
}

// Whether `e`'s caller reaches its callee through the other live edges.
bool redundant(const std::vector<CallGraphEdge>& edges, const std::vector<bool>& live, std::size_t e,
               const std::vector<std::vector<std::size_t>>& in) {
  const std::uint32_t src = edges[e].caller;
  std::vector<std::uint32_t> seen{edges[e].callee};
  std::deque<std::uint32_t> queue{edges[e].callee};
  while (!queue.empty()) {
    const std::uint32_t n = queue.front();
    queue.pop_front();
    for (std::size_t ie : in[n]) {
      if (ie == e || !live[ie]) continue;
      const std::uint32_t from = edges[ie].caller;
      if (std::find(seen.begin(), seen.end(), from) != seen.end()) continue;
      if (from == src) return true;
      seen.push_back(from);
      queue.push_back(from);
    }
  }
  return false;
}

// pprof's RemoveRedundantEdges: from the last node back, each node's
// lightest incoming edges first, a residual edge goes when another path
// joins its ends; the first non-residual edge stops the node's walk.
std::vector<CallGraphEdge> remove_redundant(const CallGraph& g, const std::vector<std::uint32_t>& nodes,
                                            std::vector<CallGraphEdge> edges) {
  sort_edges(g, edges);  // each node's in-edges are then in pprof's order
  std::vector<std::vector<std::size_t>> in(g.nodes.size());
  for (std::size_t e = 0; e < edges.size(); ++e) in[edges[e].callee].push_back(e);
  std::vector<bool> live(edges.size(), true);
  for (auto n = nodes.rbegin(); n != nodes.rend(); ++n) {
    const std::vector<std::size_t>& list = in[*n];
    for (auto e = list.rbegin(); e != list.rend(); ++e) {
      if (!edges[*e].residual) break;
      if (redundant(edges, live, *e, in)) live[*e] = false;
    }
  }
  std::vector<CallGraphEdge> out;
  for (std::size_t e = 0; e < edges.size(); ++e)
    if (live[e]) out.push_back(edges[e]);
  return out;
}

std::vector<bool> as_set(std::size_t size, const std::vector<std::uint32_t>& nodes) {
  std::vector<bool> set(size, false);
  for (std::uint32_t n : nodes) set[n] = true;
  return set;
}

}  // namespace

TrimmedGraph trim_call_graph(const Profile& p, const CallGraphOptions& go, const TrimOptions& o) {
  return trim_call_graph(p, build_call_graph(p, go), go, o);
}

TrimmedGraph trim_call_graph(const Profile& p, CallGraph graph, const CallGraphOptions& go,
                             const TrimOptions& o) {
  TrimmedGraph t;
  t.graph = std::move(graph);
  const CallGraph& g = t.graph;
  const std::int64_t flat_sum = g.flat_sum;
  t.node_cutoff = fraction_cutoff(flat_sum, o.node_fraction, "--node-fraction");
  t.edge_cutoff = fraction_cutoff(flat_sum, o.edge_fraction, "--edge-fraction");

  // Nodes with a value (or that a recorded graph drew, though its printed
  // values round to 0), then those at or over the node cutoff.
  for (std::uint32_t n = 0; n < g.nodes.size(); ++n) {
    if (g.nodes[n].flat == 0 && g.nodes[n].cum == 0 && !g.recorded) continue;
    if (std::llabs(g.nodes[n].cum) < t.node_cutoff)
      ++t.dropped_nodes;
    else
      t.nodes.push_back(n);
  }
  t.candidates = t.nodes.size();
  const std::vector<LabelInfo> infos = label_infos(p);
  std::vector<bool> kept = as_set(g.nodes.size(), t.nodes);
  TagWalk tags(p, g, go.column, kept, infos);
  const SamplePathVisitor visit_tags = tags.visitor();
  std::vector<CallGraphEdge> edges = kept_edges(p, g, go.column, kept, 0, nullptr, &visit_tags);
  tags.walk_unless_visited();
  t.tags = tags.take();
  entropy_sort(g, edges, t.nodes);
  for (std::uint32_t n : t.nodes) trim_tags(t.tags[n], t.node_cutoff);

  if (o.node_count > 0) {
    std::size_t limit = o.node_count, count = 0;
    for (std::size_t i = 0; i < t.nodes.size(); ++i) {
      count += std::min(count_tags(t.tags[t.nodes[i]]), kMaxTagBoxes) + 1;
      if (count >= limit) {
        limit = i + 1;
        break;
      }
    }
    if (limit < t.nodes.size()) {
      t.nodes.resize(limit);
      kept = as_set(g.nodes.size(), t.nodes);
      edges = kept_edges(p, g, go.column, kept, 0);
      entropy_sort(g, edges, t.nodes);
      // A kept node's tags do not depend on which other nodes are kept.
    }
  }

  t.dropped_edges =
      static_cast<std::size_t>(std::count_if(edges.begin(), edges.end(), [&](const CallGraphEdge& e) {
        return std::llabs(e.weight) < t.edge_cutoff;
      }));
  std::erase_if(edges, [&](const CallGraphEdge& e) { return std::llabs(e.weight) < t.edge_cutoff; });
  t.edges = remove_redundant(g, t.nodes, std::move(edges));
  return t;
}

std::size_t bound_for_layout(TrimmedGraph& t, const LayoutBudget& budget) {
  if (t.edges.size() <= budget.edges) return 0;
  std::vector<std::size_t> in(t.graph.nodes.size(), 0), out(t.graph.nodes.size(), 0);
  std::vector<bool> keep(t.edges.size(), false);
  std::size_t kept = 0;
  const auto take = [&](std::size_t e) {
    keep[e] = true;
    ++kept;
    ++in[t.edges[e].callee];
    ++out[t.edges[e].caller];
  };
  for (std::size_t e = 0; e < t.edges.size(); ++e)
    if (in[t.edges[e].callee] == 0) take(e);
  for (std::size_t e = 0; e < t.edges.size() && kept < budget.edges; ++e)
    if (!keep[e] && in[t.edges[e].callee] < budget.degree && out[t.edges[e].caller] < budget.degree) take(e);
  std::vector<CallGraphEdge> edges;
  edges.reserve(kept);
  for (std::size_t e = 0; e < t.edges.size(); ++e)
    if (keep[e]) edges.push_back(t.edges[e]);
  const std::size_t dropped = t.edges.size() - kept;
  t.edges = std::move(edges);
  return dropped;
}

}  // namespace fg
