#include "stack_sums.h"

#include <algorithm>
#include <utility>

namespace fg {

namespace {

// a + b wrapping as the machine adds: sums of values of both signs may
// pass through values a column's totals never take.
std::int64_t add(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

// Each key's rank by `at` (kNone for keys at kNone).
std::vector<std::uint32_t> ranks(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& at) {
  std::vector<std::pair<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t>> order;
  order.reserve(at.size());
  for (std::size_t k = 0; k < at.size(); ++k)
    if (at[k].first != StackSums::kNone) order.push_back({at[k], static_cast<std::uint32_t>(k)});
  std::sort(order.begin(), order.end());
  std::vector<std::uint32_t> rank(at.size(), StackSums::kNone);
  for (std::size_t r = 0; r < order.size(); ++r) rank[order[r].second] = static_cast<std::uint32_t>(r);
  return rank;
}

}  // namespace

StackSums::StackSums(const Profile& p, std::size_t column) {
  const std::size_t n = p.stack_count();
  parent_.resize(n);
  total_.assign(n, 0);
  count_.assign(n, 0);
  first_.assign(n, kNone);
  for (const StackId s : id_range<StackId>(StackId{1}, n)) parent_[s.index()] = p.parent(s);
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const std::int64_t v = p.values(i)[column];
    if (v == 0) continue;
    const std::uint32_t s = p.sample(i).stack.index();
    total_[s] = add(total_[s], v);
    ++count_[s];
    first_[s] = std::min(first_[s], static_cast<std::uint32_t>(i));
  }
  // Children have larger ids than their parents: one pass from the last.
  for (std::size_t s = n; s-- > 1;) {
    const std::uint32_t up = parent_[s].index();
    total_[up] = add(total_[up], total_[s]);
    count_[up] += count_[s];
    first_[up] = std::min(first_[up], first_[s]);
  }
}

std::vector<StackId> StackSums::preorder() const {
  const std::size_t n = stack_count();
  // The live children of each stack, as ranges of one array.
  std::vector<std::uint32_t> begin(n + 1, 0);
  for (const StackId s : id_range<StackId>(StackId{1}, n))
    if (live(s)) ++begin[parent(s).index() + 1];
  for (std::size_t s = 0; s < n; ++s) begin[s + 1] += begin[s];
  std::vector<StackId> children(begin[n]);
  std::vector<std::uint32_t> next(begin.begin(), begin.end() - 1);
  for (const StackId s : id_range<StackId>(StackId{1}, n))
    if (live(s)) children[next[parent(s).index()]++] = s;
  std::vector<StackId> order, todo;
  order.reserve(children.size());
  auto push_children = [&](StackId s) {
    for (std::uint32_t c = begin[s.index() + 1]; c-- > begin[s.index()];) todo.push_back(children[c]);
  };
  if (n > 0) push_children(kRootStack);
  while (!todo.empty()) {
    const StackId s = todo.back();
    todo.pop_back();
    order.push_back(s);
    push_children(s);
  }
  return order;
}

std::vector<std::int64_t> StackSums::count(const std::vector<std::uint32_t>& keys, std::size_t key_count,
                                           std::vector<std::uint32_t>* first_met,
                                           std::vector<bool>* met) const {
  std::vector<std::int64_t> weight(key_count, 0);
  // Depth first, with the path from the root: per key its innermost
  // occurrence on the path, per stack the occurrence of its key above it
  // (kNone: it is the topmost, and its subtree's samples count for the key).
  std::vector<std::uint32_t> open(key_count, kNone), above(stack_count(), kNone), depth(stack_count(), 0);
  std::vector<StackId> path;
  auto leave = [&](StackId s) {
    if (keys[s.index()] != kNone) open[keys[s.index()]] = above[s.index()];
  };
  for (const StackId s : preorder()) {
    while (!path.empty() && path.back() != parent(s)) {
      leave(path.back());
      path.pop_back();
    }
    depth[s.index()] = static_cast<std::uint32_t>(path.size());
    path.push_back(s);
    const std::uint32_t k = keys[s.index()];
    if (k == kNone) continue;
    above[s.index()] = open[k];
    open[k] = s.index();
    if (above[s.index()] == kNone) weight[k] = add(weight[k], total_[s.index()]);
  }
  if (!first_met) return weight;
  // A stack is met first, walking up, by the samples below it that no
  // occurrence of its key further down takes.
  std::vector<std::uint32_t> taken(stack_count(), 0);
  for (std::size_t s = 1; s < stack_count(); ++s)
    if (keys[s] != kNone && above[s] != kNone) taken[above[s]] += count_[s];
  met->assign(stack_count(), false);
  // Per key, the first sample holding it and, on that sample's stack, the
  // depth of its deepest occurrence (met first walking up).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> at(key_count, {kNone, 0});
  for (std::size_t s = 1; s < stack_count(); ++s) {
    const std::uint32_t k = keys[s];
    if (k == kNone || !live(StackId{static_cast<std::uint32_t>(s)})) continue;
    (*met)[s] = count_[s] > taken[s];
    const std::pair<std::uint32_t, std::uint32_t> here{first_[s], UINT32_MAX - depth[s]};
    at[k] = std::min(at[k], here);
  }
  *first_met = ranks(at);
  return weight;
}

}  // namespace fg
