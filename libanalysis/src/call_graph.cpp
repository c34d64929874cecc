#include "fg/call_graph.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <tuple>

#include "fg/detail/u64_map.h"
#include "fg/error.h"
#include "fg/names.h"
#include "fg/recorded_call_graph.h"
#include "fg/string_pool.h"
#include "sample_paths.h"
#include "stack_sums.h"

namespace fg {

namespace {

// The key that makes frames one node at a granularity.
using NodeKey = std::tuple<std::string, std::string, std::int64_t, std::uint64_t>;

// Function names as reports show them: C++ names simplified as pprof
// does, unless the profile already carries a demangled name beside the
// system name.
std::vector<std::string> report_names(const Profile& p) {
  std::vector<std::string> names(p.function_count());
  for (const FunctionId f : id_range<FunctionId>(p.function_count())) {
    const Function& fn = p.function(f);
    const std::string_view name = p.str(fn.name);
    names[f.index()] = fn.system_name == StringId{} || p.str(fn.system_name) == name ? simplify_cpp_name(name)
                                                                                     : std::string(name);
  }
  return names;
}

// pprof's NodeInfo.PrintableName: address, name, then file:line (or the
// file alone) when the granularity shows them.
std::string printable_name(const CallGraphNode& n) {
  std::string out;
  if (n.address != 0) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx ", static_cast<unsigned long long>(n.address));
    out = buf;
  }
  out += n.function;
  if (n.line != 0)
    out += " " + n.file + ":" + std::to_string(n.line);
  else if (!n.file.empty())
    out += " " + n.file;
  if (out.empty()) out = "<unknown>";
  return out;
}

NodeKey key_of(const Profile& p, const std::vector<std::string>& names, FrameId f, Granularity g) {
  if (g == Granularity::kFile) return {file_frame_name(p, f), std::string(), 0, 0};
  const Frame& fr = p.frame(f);
  // As pprof's NodeInfo for a location without lines: its module, and
  // its address when addresses are shown.
  if (fr.kind == FrameKind::kUnsymbolized)
    return {module_frame_name(p, f), std::string(), 0, g == Granularity::kAddress ? fr.address : 0};
  const Function& fn = p.function(fr.function);
  std::int64_t line = g == Granularity::kFunction ? 0 : fr.line;
  std::uint64_t address = g == Granularity::kAddress ? fr.address : 0;
  // Per function, as pprof aggregates: by name alone, so that one
  // function compiled from two source paths (two builds) is one node.
  std::string file = g == Granularity::kFunction ? std::string() : std::string(p.str(fn.filename));
  return {names[fr.function.index()], std::move(file), line, address};
}

// Edges caller -> callee, each counted once per sample however often it
// recurs there. As pprof: an edge is inlined if every sample inlined it,
// residual if any sample skipped nodes along it.
//
// A large graph has hundreds of thousands of edges: the index and the
// edges are far apart in memory, and a sample's steps each look up another.
// A sample's steps are therefore taken together: every step's index slot
// fetched first, then every step's edge found (or made) and its entry
// fetched, then the steps counted, so that a stack's misses overlap.
//
// The index is a hash map, or, for edges among a few thousand kept nodes
// (numbered by `slots`), a table of every pair: one place per step to
// look, and smaller than the map once a good share of pairs are edges.
class EdgeCounter {
 public:
  struct Step {
    std::uint32_t caller, callee;
    bool inlined, residual;
    std::uint32_t edge = 0;  // add()'s
  };
  /// `slots`, if given, numbers the nodes that edges may join from 0 to
  /// `slot_count` - 1; it must outlive the counter.
  explicit EdgeCounter(std::vector<CallGraphEdge>& edges, const std::vector<std::uint32_t>* slots = nullptr,
                       std::size_t slot_count = 0)
      : edges_(edges) {
    constexpr std::size_t kMaxPairs = std::size_t(1) << 22;  // 16 MB of table
    if (slots && slot_count > 0 && slot_count <= kMaxPairs / slot_count) {
      slots_ = slots;
      slot_count_ = slot_count;
      pairs_.assign(slot_count * slot_count, U64Map::kMissing);
    }
  }
  /// The steps of one sample, in walk order, with the sample's value.
  void add(std::vector<Step>& steps, std::int64_t v, std::uint32_t sample) {
    for (const Step& s : steps) prefetch(s.caller, s.callee);
    for (Step& s : steps) {
      const auto next = static_cast<std::uint32_t>(edges_.size());
      const std::uint32_t e = find_or_add(s.caller, s.callee, next);
      if (e == next) {
        edges_.push_back({s.caller, s.callee, 0, s.inlined, s.residual});
        seen_.push_back(UINT32_MAX);
      } else {
        __builtin_prefetch(&edges_[e]);
        __builtin_prefetch(&seen_[e]);
      }
      s.edge = e;
    }
    for (const Step& s : steps) {
      if (seen_[s.edge] == sample) continue;
      seen_[s.edge] = sample;
      CallGraphEdge& edge = edges_[s.edge];
      edge.weight += v;
      edge.inlined = edge.inlined && s.inlined;
      edge.residual = edge.residual || s.residual;
    }
  }
  /// Adds the edges another counter found in later samples: first-seen
  /// order is kept, as if one counter had seen every sample.
  void merge(const std::vector<CallGraphEdge>& later) {
    for (const CallGraphEdge& e : later) {
      const auto next = static_cast<std::uint32_t>(edges_.size());
      const std::uint32_t at = find_or_add(e.caller, e.callee, next);
      if (at == next) {
        edges_.push_back(e);
        seen_.push_back(UINT32_MAX);
        continue;
      }
      CallGraphEdge& edge = edges_[at];
      edge.weight += e.weight;
      edge.inlined = edge.inlined && e.inlined;
      edge.residual = edge.residual || e.residual;
    }
  }

 private:
  static std::uint64_t key(std::uint32_t caller, std::uint32_t callee) {
    return std::uint64_t(caller) << 32 | callee;
  }
  std::size_t pair(std::uint32_t caller, std::uint32_t callee) const {
    return std::size_t((*slots_)[caller]) * slot_count_ + (*slots_)[callee];
  }
  void prefetch(std::uint32_t caller, std::uint32_t callee) const {
    if (slots_)
      __builtin_prefetch(&pairs_[pair(caller, callee)]);
    else
      index_.prefetch(key(caller, callee));
  }
  // The edge of (caller, callee), or `next` when there was none (it is
  // then that edge's).
  std::uint32_t find_or_add(std::uint32_t caller, std::uint32_t callee, std::uint32_t next) {
    if (slots_) {
      std::uint32_t& at = pairs_[pair(caller, callee)];
      if (at == U64Map::kMissing) at = next;
      return at;
    }
    const std::uint32_t e = index_.find(key(caller, callee));  // inline: most steps meet a counted edge
    return e != U64Map::kMissing ? e : index_.insert(key(caller, callee), next);
  }

  std::vector<CallGraphEdge>& edges_;
  U64Map index_;  // caller << 32 | callee -> edge, without slots
  const std::vector<std::uint32_t>* slots_ = nullptr;
  std::size_t slot_count_ = 0;
  std::vector<std::uint32_t> pairs_;  // slot(caller) * slot_count_ + slot(callee) -> edge, with slots
  std::vector<std::uint32_t> seen_;
};

// The edges the `used` parts of a walk counted, as one counter over every
// sample would have them: the later parts' edges into the first's
// (hundreds of thousands of edges in a large profile: no third copy of
// them), each part's room freed as soon as it is merged.
template <class Part>
std::vector<CallGraphEdge> merged_edges(std::array<std::unique_ptr<Part>, 2>& parts, std::size_t used) {
  for (std::size_t k = 1; k < used; ++k) {
    parts[0]->counter.merge(parts[k]->edges);
    parts[k].reset();
  }
  std::vector<CallGraphEdge> edges = std::move(parts[0]->edges);
  parts[0].reset();
  return edges;
}

// Each frame's node and whether the frame was inlined, packed so that a
// walk up millions of stacks touches one small array.
std::vector<std::uint32_t> packed_nodes(const Profile& p, const CallGraph& g) {
  std::vector<std::uint32_t> packed(p.frame_count());
  for (const FrameId f : id_range<FrameId>(p.frame_count()))
    packed[f.index()] = g.node_of_frame[f.index()] << 1 | (p.frame(f).kind == FrameKind::kInlined ? 1u : 0u);
  return packed;
}

// One step up a stack, callee to caller, for edges summed over the tree.
struct TreeStep {
  std::uint32_t caller = kNoNode, callee = kNoNode;  // kNoNode: the stack steps on no edge
  bool inlined = false, residual = false;
};

// The edges of `steps` (one per stack), each counted once per valued
// sample whose stack holds it, in the order a walk over the samples, each
// from its leaf up, meets them first. As pprof: an edge is inlined if
// every sample inlined it, residual if any sample skipped nodes along it
// (the step of a sample being the first a walk up its stack meets).
std::vector<CallGraphEdge> edges_of(const StackSums& sums, const std::vector<TreeStep>& steps) {
  U64Map index;
  std::vector<std::uint32_t> keys(steps.size(), StackSums::kNone);
  std::vector<CallGraphEdge> found;
  for (std::size_t s = 1; s < steps.size(); ++s) {
    const TreeStep& step = steps[s];
    if (step.caller == kNoNode) continue;
    const auto next = static_cast<std::uint32_t>(found.size());
    keys[s] = index.insert(std::uint64_t(step.caller) << 32 | step.callee, next);
    if (keys[s] == next) found.push_back({step.caller, step.callee, 0, true, false});
  }
  std::vector<std::uint32_t> first_met;
  std::vector<bool> met;
  const std::vector<std::int64_t> weight = sums.count(keys, found.size(), &first_met, &met);
  for (std::size_t s = 1; s < steps.size(); ++s) {
    if (!met[s]) continue;
    CallGraphEdge& e = found[keys[s]];
    e.inlined = e.inlined && steps[s].inlined;
    e.residual = e.residual || steps[s].residual;
  }
  std::vector<CallGraphEdge> edges(found.size());
  for (std::uint32_t k = 0; k < found.size(); ++k) {
    found[k].weight = weight[k];
    edges[first_met[k]] = found[k];
  }
  return edges;
}

// Whether walking up every valued sample's stack takes far more steps than
// the stack tree has nodes (a deep chain with a sample at every node): then
// the counts are summed over the tree instead (StackSums), which costs a
// few passes over every stack and their memory; else the walk, quicker for
// the usual profile whose samples mostly end in stacks of their own.
bool walk_is_long(const Profile& p, std::size_t column) {
  constexpr std::uint64_t kStepsPerStack = 16;
  std::vector<std::uint16_t> depth(p.stack_count(), 0);  // held at 65535
  for (const StackId s : id_range<StackId>(StackId{1}, p.stack_count()))
    depth[s.index()] = static_cast<std::uint16_t>(std::min(depth[p.parent(s).index()] + 1, 0xffff));
  std::uint64_t steps = 0;
  for (std::size_t i = 0; i < p.sample_count(); ++i)
    if (p.values(i)[column] != 0) steps += depth[p.sample(i).stack.index()];
  return steps > kStepsPerStack * p.stack_count() + 4096;
}

// a + b, held at the int64 bounds: the entries of a recorded graph that
// one node or edge gathers are not bounded together.
void add_saturated(std::int64_t& a, std::int64_t b) {
  if (__builtin_add_overflow(a, b, &a)) a = b < 0 ? -INT64_MAX : INT64_MAX;  // |a| stays defined
}

// The recorded edges between nodes of `g` that `keep(caller, callee)`
// accepts, one per node pair: what kept_edges() and the graph itself draw
// of a recorded graph.
template <class Keep>
std::vector<CallGraphEdge> recorded_edges(const RecordedCallGraph& rec, const CallGraph& g, Keep keep) {
  std::vector<CallGraphEdge> edges;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> index;
  for (const RecordedCallGraph::Edge& e : rec.edges) {
    const std::uint32_t a = g.node_of_frame[rec.nodes[e.caller].frame.index()];
    const std::uint32_t b = g.node_of_frame[rec.nodes[e.callee].frame.index()];
    if (!keep(a, b)) continue;
    auto [it, added] = index.try_emplace({a, b}, edges.size());
    if (added) edges.push_back({a, b, 0, false, false});
    add_saturated(edges[it->second].weight, e.weight);
  }
  return edges;
}

// The call graph of a recorded graph: `g` has a node per frame key; keep
// the nodes the recording names, with its values and edges.
void take_recorded(const RecordedCallGraph& rec, bool with_edges, CallGraph& g) {
  std::vector<std::uint32_t> renumber(g.nodes.size(), kNoNode);
  std::vector<CallGraphNode> nodes;
  for (const RecordedCallGraph::Node& r : rec.nodes) {
    std::uint32_t& n = renumber[g.node_of_frame[r.frame.index()]];
    if (n == kNoNode) {
      n = static_cast<std::uint32_t>(nodes.size());
      nodes.push_back(std::move(g.nodes[g.node_of_frame[r.frame.index()]]));
    }
    add_saturated(nodes[n].flat, r.flat);
    add_saturated(nodes[n].cum, r.cum);
    g.flat_sum += r.flat;  // bounded by set_recorded_graph
  }
  for (std::uint32_t& n : g.node_of_frame) n = renumber[n];
  g.nodes = std::move(nodes);
  if (with_edges) g.edges = recorded_edges(rec, g, [](std::uint32_t, std::uint32_t) { return true; });
  g.total = rec.total;
  g.recorded = true;
}

// Counts each sample walked from its leaf up: a node (and an edge) once
// per sample however often it recurs, as pprof counts. Returns the base
// samples' total (kDiffBaseLabel).
std::int64_t count_by_walk(const Profile& p, const CallGraphOptions& o, const std::vector<bool>& base_set,
                           CallGraph& g) {
  const std::vector<std::uint32_t> packed = packed_nodes(p, g);
  struct Part {
    std::vector<std::int64_t> flat, cum;
    std::vector<std::uint32_t> seen;
    std::int64_t total = 0, base_total = 0, flat_sum = 0;
    std::vector<CallGraphEdge> edges;
    EdgeCounter counter{edges};
    std::vector<EdgeCounter::Step> steps;  // of the sample walked
  };
  const std::size_t node_count = g.nodes.size();
  std::array<std::unique_ptr<Part>, 2> parts;
  const std::size_t used = in_parts(p.sample_count(), [&](std::size_t begin, std::size_t end, std::size_t k) {
    parts[k] = std::make_unique<Part>();
    Part& part = *parts[k];
    part.flat.assign(node_count, 0);
    part.cum.assign(node_count, 0);
    part.seen.assign(node_count, UINT32_MAX);
    auto valued = [&](std::size_t i) { return p.values(i)[o.column] != 0; };
    each_sample_path(p, begin, end, valued, [&](std::size_t i, std::span<const FrameId> path) {
      const std::int64_t v = p.values(i)[o.column];
      const auto stamp = static_cast<std::uint32_t>(i);
      part.total += v < 0 ? -v : v;
      if (base_set[p.sample(i).labels.index()]) part.base_total += v < 0 ? -v : v;
      if (path.empty()) return;  // the root alone
      part.flat[packed[path[0].index()] >> 1] += v;
      part.flat_sum += v;
      std::uint32_t callee = UINT32_MAX;
      bool callee_inlined = false;
      part.steps.clear();
      for (FrameId f : path) {
        const std::uint32_t x = packed[f.index()], n = x >> 1;
        if (part.seen[n] != stamp) {
          part.seen[n] = stamp;
          part.cum[n] += v;
        }
        if (o.edges && callee != UINT32_MAX && callee != n)
          part.steps.push_back({n, callee, callee_inlined, false});
        callee = n;
        callee_inlined = x & 1;
      }
      if (!part.steps.empty()) part.counter.add(part.steps, v, stamp);
    });
  });
  std::int64_t base_total = 0;
  for (std::size_t k = 0; k < used; ++k) {
    const Part& part = *parts[k];
    for (std::size_t n = 0; n < node_count; ++n) {
      g.nodes[n].flat += part.flat[n];
      g.nodes[n].cum += part.cum[n];
    }
    g.total += part.total;
    base_total += part.base_total;
    g.flat_sum += part.flat_sum;
  }
  g.edges = merged_edges(parts, used);
  return base_total;
}

// Counts as count_by_walk() does, summed over the stack tree.
std::int64_t count_over_tree(const Profile& p, const CallGraphOptions& o, const std::vector<bool>& base_set,
                             CallGraph& g) {
  std::int64_t base_total = 0;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const std::int64_t v = p.values(i)[o.column];
    if (v == 0) continue;
    g.total += v < 0 ? -v : v;
    if (base_set[p.sample(i).labels.index()]) base_total += v < 0 ? -v : v;
    const StackId s = p.sample(i).stack;
    if (s == kRootStack) continue;  // the root alone
    g.nodes[g.node_of_frame[p.stack(s).frame.index()]].flat += v;
    g.flat_sum += v;
  }
  const StackSums sums(p, o.column);
  std::vector<std::uint32_t> node_keys(p.stack_count(), StackSums::kNone);
  for (const StackId s : id_range<StackId>(StackId{1}, p.stack_count()))
    if (sums.live(s)) node_keys[s.index()] = g.node_of_frame[p.stack(s).frame.index()];
  const std::vector<std::int64_t> cum = sums.count(node_keys, g.nodes.size());
  for (std::size_t n = 0; n < g.nodes.size(); ++n) g.nodes[n].cum = cum[n];
  if (!o.edges) return base_total;
  std::vector<TreeStep> steps(p.stack_count());
  for (const StackId s : id_range<StackId>(StackId{1}, p.stack_count())) {
    const StackId up = sums.parent(s);
    const std::uint32_t n = node_keys[s.index()];
    if (n == StackSums::kNone || up == kRootStack || node_keys[up.index()] == n) continue;
    steps[s.index()] = {node_keys[up.index()], n, p.frame(p.stack(s).frame).kind == FrameKind::kInlined,
                        false};
  }
  g.edges = edges_of(sums, steps);
  return base_total;
}

// kept_edges() summed over the stack tree: each kept stack's step up to
// the nearest kept stack above it (a residual step when dropped ones lay
// between).
std::vector<CallGraphEdge> kept_edges_over_tree(const Profile& p, const CallGraph& g, std::size_t column,
                                                const std::vector<bool>& kept,
                                                const std::vector<bool>* callees) {
  const StackSums sums(p, column);
  std::vector<std::uint32_t> kept_node(p.stack_count(), kNoNode);
  std::vector<StackId> kept_above(p.stack_count(), kRootStack);  // kRootStack: none
  std::vector<TreeStep> steps(p.stack_count());
  for (const StackId s : id_range<StackId>(StackId{1}, p.stack_count())) {
    const StackId up = sums.parent(s);
    kept_above[s.index()] =
        up == kRootStack || kept_node[up.index()] != kNoNode ? up : kept_above[up.index()];
    const std::uint32_t n = g.node_of_frame[p.stack(s).frame.index()];
    if (!kept[n] || !sums.live(s)) continue;
    kept_node[s.index()] = n;
    const StackId caller = kept_above[s.index()];
    if (caller == kRootStack || kept_node[caller.index()] == n || (callees && !(*callees)[n])) continue;
    steps[s.index()] = {kept_node[caller.index()], n, p.frame(p.stack(s).frame).kind == FrameKind::kInlined,
                        caller != up};
  }
  return edges_of(sums, steps);
}

// The nodes of `p`'s frames at `granularity` (g.nodes, g.node_of_frame).
// Its own function: the names and the key index are the largest
// temporaries of a graph, gone before the samples are walked.
void assign_nodes(const Profile& p, Granularity granularity, CallGraph& g) {
  std::map<NodeKey, std::uint32_t> index;
  std::vector<std::uint32_t>& node_of = g.node_of_frame;
  node_of.assign(p.frame_count(), 0);
  const std::vector<std::string> names = report_names(p);
  // Per function, a node's key is its function's name alone: each
  // function's key is made and looked up once, not once per frame (a
  // profile of addresses has hundreds of thousands of frames).
  std::vector<std::uint32_t> of_function;
  if (granularity == Granularity::kFunction) {
    of_function.assign(p.function_count(), UINT32_MAX);
    // At most a node per function: no copies of the nodes as they grow.
    g.nodes.reserve(std::min(p.function_count(), p.frame_count()));
  }
  for (const FrameId f : id_range<FrameId>(p.frame_count())) {
    const bool inlined = p.frame(f).kind == FrameKind::kInlined;
    std::uint32_t at = of_function.empty() ? UINT32_MAX : of_function[p.frame(f).function.index()];
    bool added = false;
    if (at == UINT32_MAX) {
      NodeKey key = key_of(p, names, f, granularity);
      auto it = index.try_emplace(key, static_cast<std::uint32_t>(g.nodes.size()));
      at = it.first->second;
      added = it.second;
      if (!of_function.empty()) of_function[p.frame(f).function.index()] = at;
      if (added) {
        CallGraphNode n;
        n.function = std::move(std::get<0>(key));  // the index holds its own copy
        if (granularity != Granularity::kFunction) {
          n.file = std::move(std::get<1>(key));
          n.line = std::get<2>(key);
        }
        n.address = std::get<3>(key);
        n.name = printable_name(n);
        n.inlined = inlined;
        n.frame = f;
        g.nodes.push_back(std::move(n));
      }
    }
    if (!added && g.nodes[at].inlined != inlined) {
      g.nodes[at].partly_inlined = true;
      g.nodes[at].inlined = false;
    }
    node_of[f.index()] = at;
  }
}

}  // namespace

CallGraph build_call_graph(const Profile& p, const CallGraphOptions& o) {
  CallGraph g;
  assign_nodes(p, o.granularity, g);
  if (const RecordedCallGraph* rec = p.recorded_graph();
      rec && rec->column == o.column && o.granularity == Granularity::kFunction) {
    take_recorded(*rec, o.edges, g);
    return g;
  }

  std::vector<bool> base_set(p.label_set_count(), false);  // label sets marking diff-base samples
  for (const LabelSetId l : id_range<LabelSetId>(p.label_set_count()))
    for (const Label& label : p.labels(l))
      if (p.str(label.key) == kDiffBaseLabel) base_set[l.index()] = true;
  g.walked_column = o.column;
  g.walks_long = walk_is_long(p, o.column);
  const std::int64_t base_total =
      g.walks_long ? count_over_tree(p, o, base_set, g) : count_by_walk(p, o, base_set, g);
  if (base_total > 0) g.total = base_total;
  // A filtered profile keeps percentages of the whole, as pprof's reports.
  else if (o.column < p.metadata().unfiltered_totals.size())
    g.total = p.metadata().unfiltered_totals[o.column];
  return g;
}

CallGraphCache::Entry* CallGraphCache::entry(const CallGraphOptions& o) {
  for (Entry& e : graphs_)
    if (e.options.column == o.column && e.options.granularity == o.granularity && e.options.edges == o.edges)
      return &e;
  return nullptr;
}

const CallGraph* CallGraphCache::find(const Profile& profile, const CallGraphOptions& options) {
  if (&profile != profile_) return nullptr;
  Entry* e = entry(options);
  if (!e) e = &graphs_.emplace_back(Entry{options, nullptr});
  if (!e->graph) e->graph = std::make_unique<CallGraph>(build_call_graph(profile, options));
  return e->graph.get();
}

CallGraph CallGraphCache::take(const Profile& profile, const CallGraphOptions& options) {
  Entry* e = &profile == profile_ ? entry(options) : nullptr;
  if (!e || !e->graph) return build_call_graph(profile, options);
  CallGraph g = std::move(*e->graph);
  e->graph.reset();
  return g;
}

std::vector<CallGraphEdge> kept_edges(const Profile& p, const CallGraph& g, std::size_t column,
                                      const std::vector<bool>& kept, double edge_fraction,
                                      const std::vector<bool>* callees, const SamplePathVisitor* also) {
  std::vector<CallGraphEdge> edges;
  if (g.recorded) {
    edges = recorded_edges(*p.recorded_graph(), g, [&](std::uint32_t a, std::uint32_t b) {
      return kept[a] && kept[b] && (!callees || (*callees)[b]);
    });
  } else if (g.walked_column == column ? g.walks_long : walk_is_long(p, column)) {
    edges = kept_edges_over_tree(p, g, column, kept, callees);
  } else {
    // Each frame's node, or kDropped: one lookup per step up a stack.
    constexpr std::uint32_t kDropped = UINT32_MAX;
    std::vector<std::uint32_t> packed = packed_nodes(p, g);
    for (std::uint32_t& x : packed)
      if (!kept[x >> 1]) x = kDropped;
    // The kept nodes numbered, for a counter that indexes their pairs.
    std::vector<std::uint32_t> slots(g.nodes.size(), 0);
    std::size_t slot_count = 0;
    for (std::size_t n = 0; n < g.nodes.size(); ++n)
      if (kept[n]) slots[n] = static_cast<std::uint32_t>(slot_count++);
    struct Part {
      Part(const std::vector<std::uint32_t>& slots, std::size_t count) : counter(edges, &slots, count) {}
      std::vector<CallGraphEdge> edges;
      EdgeCounter counter;
      std::vector<EdgeCounter::Step> steps;  // of the sample walked
    };
    std::array<std::unique_ptr<Part>, 2> parts;
    const std::size_t used =
        in_parts(p.sample_count(), [&](std::size_t begin, std::size_t end, std::size_t k) {
          parts[k] = std::make_unique<Part>(slots, slot_count);
          EdgeCounter& counter = parts[k]->counter;
          std::vector<EdgeCounter::Step>& steps = parts[k]->steps;
          auto valued = [&](std::size_t i) { return p.values(i)[column] != 0; };
          each_sample_path(p, begin, end, valued, [&](std::size_t i, std::span<const FrameId> path) {
            if (also) (*also)(k, i, path);
            const std::int64_t v = p.values(i)[column];
            const auto stamp = static_cast<std::uint32_t>(i);
            // From the leaf up: each kept node and the next kept node above it.
            std::uint32_t callee = UINT32_MAX;
            bool callee_inlined = false, skipped = false;
            steps.clear();
            for (FrameId f : path) {
              const std::uint32_t x = packed[f.index()];
              if (x == kDropped) {
                skipped = true;
                continue;
              }
              const std::uint32_t n = x >> 1;
              if (callee != UINT32_MAX && callee != n && (!callees || (*callees)[callee]))
                steps.push_back({n, callee, callee_inlined, skipped});
              callee = n;
              callee_inlined = x & 1;
              skipped = false;
            }
            if (!steps.empty()) counter.add(steps, v, stamp);
          });
        });
    edges = merged_edges(parts, used);
  }
  const std::int64_t cutoff = fraction_cutoff(g.flat_sum, edge_fraction, "--edge-fraction");
  std::erase_if(edges, [cutoff](const CallGraphEdge& e) { return std::llabs(e.weight) < cutoff; });
  return edges;
}

std::int64_t fraction_cutoff(std::int64_t total, double fraction, const char* option) {
  if (!(fraction >= 0 && fraction <= 1))
    throw UsageError(std::string(option) + " " + std::to_string(fraction) +
                     ": expected a fraction from 0 to 1");
  // |total| * fraction <= 2^63, which (rounded up as a double) does not fit.
  const double cutoff = std::fabs(static_cast<double>(total) * fraction);
  return cutoff >= 0x1p63 ? INT64_MAX : static_cast<std::int64_t>(cutoff);
}

std::int64_t smallest_shown_value(const CallGraph& g, const std::vector<std::uint32_t>& nodes) {
  std::int64_t smallest = 0;
  for (std::uint32_t n : nodes) {
    std::int64_t v = std::llabs(g.nodes[n].flat);
    if (v == 0) v = std::llabs(g.nodes[n].cum);
    if (v > 0 && (smallest == 0 || v < smallest)) smallest = v;
  }
  return smallest;
}

namespace {

std::vector<std::uint32_t> sorted(const CallGraph& g, bool cum_first) {
  std::vector<std::uint32_t> order(g.nodes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const CallGraphNode &x = g.nodes[a], &y = g.nodes[b];
    std::int64_t xf = std::llabs(x.flat), yf = std::llabs(y.flat), xc = std::llabs(x.cum),
                 yc = std::llabs(y.cum);
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
