#include "formats/jeprof_dot/reconcile.h"

#include <algorithm>
#include <cmath>

namespace fg::formats::jeprof_dot {

namespace {

// The sweeps converge linearly and slowly (thousands on jeprof's graphs of
// a hundred nodes); their number is bounded by the work, so that a huge
// graph costs seconds, not hours.
constexpr std::size_t kMaxSweeps = 5000, kMinSweeps = 20, kWork = 20'000'000;

// A value and the range its printed digits allow.
struct Box {
  double* value;
  double low, high;
  void shift(double by) const { *value = std::clamp(*value + by, low, high); }
};

class Reconciler {
 public:
  explicit Reconciler(JeprofGraph& g) : g_(g) {}
  void run();

 private:
  Box box(double& v, bool may_be_zero) const;
  // Closes `gap` by moving the values of `plus` up and of `minus` down
  // (for a negative gap the other way), when it fits in their ranges;
  // else nothing moves. Returns how much moved.
  double balance(const std::vector<Box>& plus, const std::vector<Box>& minus, double gap) const;

  // Values printed as zero have no range: they stay out of the balance.
  static void add(std::vector<Box>& to, const Box& b) {
    if (b.high > b.low) to.push_back(b);
  }

  /// One pass over every node, balancing its out side, then its in side.
  /// Returns how much moved.
  double sweep();

  JeprofGraph& g_;
  bool negative_ = false;  // some value is negative (a diff): zeros may be either side
  std::vector<std::vector<std::size_t>> out_, in_;  // per node: edge indices, self-edges left out
  std::vector<Box> flat_, cum_, weight_;            // each value's range, fixed before anything moves
  std::vector<Box> plus_, minus_;                   // scratch
};

// A little inside the printed digits' range, so that what unfolding
// computes from the reconciled values still reads as the printed ones.
constexpr double kInside = 0.98;

Box Reconciler::box(double& v, bool may_be_zero) const {
  const double s = slack(g_) * kInside;
  if (v == 0) return may_be_zero ? Box{&v, 0, 0} : Box{&v, negative_ ? -s : 0, s};
  if (!g_.truncated) return {&v, v - s, v + s};
  return v > 0 ? Box{&v, v, v + s} : Box{&v, v - s, v};
}

double Reconciler::balance(const std::vector<Box>& plus, const std::vector<Box>& minus, double gap) const {
  // Each value moves in proportion to its room in the direction that
  // closes the gap, so that none is pushed past the end of its range.
  auto room_up = [](const Box& b) { return b.high - *b.value; };
  auto room_down = [](const Box& b) { return *b.value - b.low; };
  double room = 0;
  for (const Box& b : plus) room += gap > 0 ? room_up(b) : room_down(b);
  for (const Box& b : minus) room += gap > 0 ? room_down(b) : room_up(b);
  if (room <= 0 || std::fabs(gap) > room + 1e-9 * g_.resolution) return 0;
  const double part = std::fabs(gap) / room;
  for (const Box& b : plus) b.shift(gap > 0 ? room_up(b) * part : -room_down(b) * part);
  for (const Box& b : minus) b.shift(gap > 0 ? -room_down(b) * part : room_up(b) * part);
  return std::fabs(gap);
}

void Reconciler::run() {
  const std::size_t n = g_.nodes.size();
  out_.assign(n, {}), in_.assign(n, {});
  for (std::size_t i = 0; i < g_.edges.size(); ++i) {
    const JeprofEdge& e = g_.edges[i];
    negative_ = negative_ || e.weight < 0;
    if (e.caller == e.callee) continue;
    out_[e.caller].push_back(i);
    in_[e.callee].push_back(i);
  }
  for (const JeprofNode& node : g_.nodes) negative_ = negative_ || node.flat < 0 || node.cum < 0;
  // Each value's original range is fixed before anything moves. An edge
  // printed as 0.0 carries something; so does a leaf's flat (it is the
  // leaf's cum), but a flat of 0.0 beside callees is taken as none.
  for (std::size_t v = 0; v < n; ++v) {
    flat_.push_back(box(g_.nodes[v].flat, !out_[v].empty()));
    cum_.push_back(box(g_.nodes[v].cum, false));
  }
  for (JeprofEdge& e : g_.edges) weight_.push_back(box(e.weight, false));
  const std::size_t sweeps = std::clamp(kWork / (n + g_.edges.size() + 1), kMinSweeps, kMaxSweeps);
  for (std::size_t sweep = 0; sweep < sweeps; ++sweep)
    if (this->sweep() < 1e-9 * g_.resolution) break;
}

double Reconciler::sweep() {
  double moved = 0;
  for (std::size_t v = 0; v < g_.nodes.size(); ++v) {
    // Out side: cum = flat + out-edges.
    plus_.clear(), minus_.clear();
    add(plus_, flat_[v]);
    double sum = g_.nodes[v].flat;
    for (std::size_t e : out_[v]) add(plus_, weight_[e]), sum += g_.edges[e].weight;
    add(minus_, cum_[v]);
    moved += balance(plus_, minus_, g_.nodes[v].cum - sum);
    // In side: cum = in-edges, when they bring (nearly) all of it.
    if (in_[v].empty()) continue;
    plus_.clear();
    sum = 0;
    for (std::size_t e : in_[v]) add(plus_, weight_[e]), sum += g_.edges[e].weight;
    moved += balance(plus_, minus_, g_.nodes[v].cum - sum);
  }
  return moved;
}

}  // namespace

JeprofGraph reconcile(JeprofGraph graph) {
  Reconciler(graph).run();
  return graph;
}

}  // namespace fg::formats::jeprof_dot
