#include "formats/jeprof_dot/unfold.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "fg/error.h"

namespace fg::formats::jeprof_dot {

namespace {

/// Frames that stand for what jeprof left out of its graph (under its node
/// and edge fractions), so that values keep their place in the tree.
constexpr const char* kDroppedCallees = "[callees dropped by jeprof]";
constexpr const char* kDroppedCallers = "[callers dropped by jeprof]";

struct Out {
  std::uint32_t callee = 0;  ///< node index, or kDroppedNode
  double weight = 0;
  std::uint32_t edge = 0;  ///< index into JeprofGraph::edges
};
constexpr std::uint32_t kDroppedNode = UINT32_MAX;

// Tarjan's strongly connected components, without recursion: the
// component of each node (self-edges make no difference).
std::vector<std::uint32_t> components(const std::vector<std::uint32_t>& first, const std::vector<Out>& out) {
  const std::size_t n = first.size() - 1;
  constexpr std::uint32_t kUnseen = UINT32_MAX;
  std::vector<std::uint32_t> index(n, kUnseen), low(n, 0), comp(n, kUnseen), stack;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> walk;  // node, next out-edge
  std::uint32_t next_index = 0, next_comp = 0;
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != kUnseen) continue;
    walk.push_back({root, first[root]});
    index[root] = low[root] = next_index++;
    stack.push_back(root);
    while (!walk.empty()) {
      auto& [v, at] = walk.back();
      if (at < first[v + 1]) {
        const std::uint32_t w = out[at++].callee;
        if (index[w] == kUnseen) {
          index[w] = low[w] = next_index++;
          stack.push_back(w);
          walk.push_back({w, first[w]});
        } else if (comp[w] == kUnseen) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      const std::uint32_t done = v;
      walk.pop_back();
      if (!walk.empty()) low[walk.back().first] = std::min(low[walk.back().first], low[done]);
      if (low[done] != index[done]) continue;
      std::uint32_t w;
      do {
        w = stack.back();
        stack.pop_back();
        comp[w] = next_comp;
      } while (w != done);
      ++next_comp;
    }
  }
  return comp;
}

class Unfolder {
 public:
  Unfolder(const JeprofGraph& g, ProfileBuilder& b, std::size_t max) : g_(g), b_(b), max_(max) {}
  UnfoldResult run();

 private:
  void adjacency();
  void entries();
  void dropped_callees();
  void roots();
  void expand(StackId s, std::uint32_t v, double amount);
  void emit(StackId s, double amount);
  // A gap that reconcile() left is what jeprof dropped; gaps this small
  // are what its sweeps left of the printed digits' rounding.
  double noise() const { return g_.resolution / 100; }

  struct Work {
    StackId parent{};
    std::uint32_t node = 0;  ///< node index, or kDroppedNode
    double amount = 0;
    bool leave = false;  ///< the walk leaves `node`: it is no longer on the path
  };
  const JeprofGraph& g_;
  ProfileBuilder& b_;
  std::size_t max_;
  std::size_t planned_ = 0;           // tree nodes made or waiting in work_
  std::vector<std::uint32_t> first_;  // out_[first_[v] .. first_[v + 1]) are v's callees
  std::vector<Out> out_;
  std::vector<double> in_sum_;
  std::vector<double> dropped_;  // per node: cum beyond flat and out-edges, or 0
  std::vector<std::size_t> in_count_;
  bool signed_ = false;      // some value is negative (a diff): gaps and roots of either sign
  std::vector<bool> entry_;  // where a cycle is entered from the root: one node per cycle
  std::vector<FrameId> frame_;
  FrameId dropped_callees_{}, dropped_callers_{};
  std::vector<bool> on_path_, recursive_;
  std::vector<Work> work_;
  double carry_ = 0;
  UnfoldResult result_;
};

void Unfolder::adjacency() {
  const std::size_t n = g_.nodes.size();
  first_.assign(n + 1, 0);
  in_sum_.assign(n, 0);
  in_count_.assign(n, 0);
  for (const JeprofEdge& e : g_.edges) ++first_[e.caller + 1];
  for (std::size_t v = 0; v < n; ++v) first_[v + 1] += first_[v];
  out_.resize(g_.edges.size());
  std::vector<std::uint32_t> fill(first_.begin(), first_.end() - 1);
  for (std::uint32_t i = 0; i < g_.edges.size(); ++i) {
    const JeprofEdge& e = g_.edges[i];
    out_[fill[e.caller]++] = {e.callee, e.weight, i};
    if (e.caller != e.callee) ++in_count_[e.callee];
  }
  for (const JeprofEdge& e : g_.edges) signed_ = signed_ || e.weight < 0;
  for (const JeprofNode& node : g_.nodes) signed_ = signed_ || node.flat < 0 || node.cum < 0;
  recursive_.assign(g_.edges.size(), false);
  on_path_.assign(n, false);
  for (const JeprofNode& node : g_.nodes) frame_.push_back(b_.frame(b_.function(node.name, node.label)));
  dropped_callees_ = b_.frame(kDroppedCallees);
  dropped_callers_ = b_.frame(kDroppedCallers);
}

void Unfolder::entries() {
  const std::size_t n = g_.nodes.size();
  // In a cycle (functions calling each other), jeprof counts an edge once
  // per call: only the edges from outside the cycle say what enters it.
  const std::vector<std::uint32_t> comp = components(first_, out_);
  for (const JeprofEdge& e : g_.edges)
    if (comp[e.caller] != comp[e.callee]) in_sum_[e.callee] += e.weight;
  entry_.assign(n, true);
  std::vector<std::uint32_t> best(n, UINT32_MAX);  // per component: the member with most left to enter
  for (std::uint32_t v = 0; v < n; ++v) {
    std::uint32_t& b = best[comp[v]];
    if (b == UINT32_MAX || g_.nodes[v].cum - in_sum_[v] > g_.nodes[b].cum - in_sum_[b]) b = v;
  }
  for (std::uint32_t v = 0; v < n; ++v) entry_[v] = best[comp[v]] == v;
}

// Callees jeprof dropped: what each cum has beyond flat and the drawn
// callees (self-edges aside).
void Unfolder::dropped_callees() {
  const std::size_t n = g_.nodes.size();
  dropped_.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const JeprofNode& node = g_.nodes[v];
    double sum = node.flat;
    for (std::uint32_t i = first_[v]; i < first_[v + 1]; ++i)
      if (out_[i].callee != v) sum += out_[i].weight;
    const double gap = node.cum - sum;
    if (std::fabs(gap) > noise() && (signed_ || (gap > 0) == (node.cum > 0))) dropped_[v] = gap;
  }
}

// Where values enter the graph: a node without callers with its cum; a
// node whose cum exceeds what its callers bring (after reconcile(), by
// more than noise) with the excess, under a frame for its dropped callers;
// in a cycle, only at its entry.
void Unfolder::roots() {
  for (std::uint32_t v = 0; v < g_.nodes.size(); ++v) {
    const double cum = g_.nodes[v].cum;
    if (in_count_[v] == 0) {
      if (cum != 0) work_.push_back({kRootStack, v, cum, false});
      continue;
    }
    const double excess = cum - in_sum_[v];
    if (!entry_[v] || std::fabs(excess) <= noise() || (!signed_ && (excess > 0) != (cum > 0))) continue;
    const StackId callers = b_.stack(kRootStack, dropped_callers_);
    ++result_.stacks;
    work_.push_back({callers, v, excess, false});
  }
  planned_ = result_.stacks + work_.size();
}

// Splits `amount`, arriving at node v on the path `s`, over v's flat value,
// its callees not on the path, and its dropped callees.
void Unfolder::expand(StackId s, std::uint32_t v, double amount) {
  const JeprofNode& node = g_.nodes[v];
  double sum = node.flat, magnitude = std::fabs(node.flat);
  bool positive = node.flat > 0, negative = node.flat < 0;
  for (std::uint32_t i = first_[v]; i < first_[v + 1]; ++i) {
    if (on_path_[out_[i].callee]) {
      if (!recursive_[out_[i].edge]) recursive_[out_[i].edge] = true, ++result_.recursive_edges;
      continue;
    }
    sum += out_[i].weight, magnitude += std::fabs(out_[i].weight);
    positive = positive || out_[i].weight > 0, negative = negative || out_[i].weight < 0;
  }
  // Callees jeprof dropped: what cum has beyond flat and the drawn callees.
  const double dropped = !signed_ && sum != 0 && (dropped_[v] > 0) != (sum > 0) ? 0 : dropped_[v];
  magnitude += std::fabs(dropped);
  // Terms of mixed sign are split as signed shares of their sum (exact for
  // a consistent graph), unless they nearly cancel: then by magnitude.
  const bool mixed = positive && negative && std::fabs(sum + dropped) < magnitude / 100;
  const double total = mixed ? magnitude : sum + dropped;
  if (total == 0) return emit(s, amount);
  auto share = [&](double term) { return amount * (mixed ? std::fabs(term) : term) / total; };
  double kept = share(node.flat);
  auto push = [&](std::uint32_t callee, double child) {
    if (std::fabs(child) < noise() || planned_ >= max_) {
      result_.truncated = result_.truncated || planned_ >= max_;
      kept += child;
      return;
    }
    work_.push_back({s, callee, child, false});
    ++planned_;
  };
  for (std::uint32_t i = first_[v]; i < first_[v + 1]; ++i)
    if (!on_path_[out_[i].callee]) push(out_[i].callee, share(out_[i].weight));
  if (dropped != 0) push(kDroppedNode, share(dropped));
  emit(s, kept);
}

void Unfolder::emit(StackId s, double amount) {
  const double x = amount + carry_;
  // Signed shares of values that nearly cancel can grow along a path.
  if (!(std::fabs(x) < 0x1p62))
    throw Error(
        "unfolding the call graph gives values out of range (values of mixed sign that nearly cancel)");
  std::int64_t value = std::llround(x);
  // The rounding carried from the stacks before can reach -0.5, and a
  // stack of no value of its own after it must not get -1: in a graph of
  // no negative values the deficit waits for the next stack with a value.
  if (!signed_ && value < 0) value = 0;
  carry_ = x - static_cast<double>(value);
  if (value != 0) b_.add_sample(s, {&value, 1});
}

UnfoldResult Unfolder::run() {
  adjacency();
  entries();
  dropped_callees();
  roots();
  while (!work_.empty()) {
    const Work w = work_.back();
    work_.pop_back();
    if (w.leave) {
      on_path_[w.node] = false;
      continue;
    }
    const bool dropped = w.node == kDroppedNode;
    const StackId s = b_.stack(w.parent, dropped ? dropped_callees_ : frame_[w.node]);
    ++result_.stacks;
    if (dropped) {
      emit(s, w.amount);
      continue;
    }
    on_path_[w.node] = true;
    work_.push_back({s, w.node, 0, true});
    expand(s, w.node, w.amount);
  }
  result_.node_frames = std::move(frame_);  // the walk is over
  return result_;
}

}  // namespace

std::size_t unfold_limit(const JeprofGraph& graph) {
  return 64 * (graph.nodes.size() + graph.edges.size()) + 10000;
}

UnfoldResult unfold(const JeprofGraph& graph, ProfileBuilder& builder, std::size_t max_stacks) {
  return Unfolder(graph, builder, max_stacks).run();
}

}  // namespace fg::formats::jeprof_dot
