#include "fg/flame_layout.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>

#include "fg/error.h"
#include "fg/expansion.h"

namespace fg {

namespace {

std::int64_t sample_delta(const Profile& p, std::size_t sample, std::size_t col, std::size_t base) {
  auto v = p.values(sample);
  return v[col] - v[base];
}

// Depth first, parents before children, left to right. `emit` may be null
// (measuring only).
void layout_tree(const CallTree& tree, const FlameLayoutOptions& o, std::optional<std::size_t> base,
                 FlameLayout& out, const std::function<void(const FlameRect&)>* emit) {
  struct Item {
    StackId node;
    std::int64_t start;
    std::uint32_t depth;
  };
  std::vector<Item> todo{{kRootStack, 0, 0}};
  while (!todo.empty()) {
    Item it = todo.back();
    todo.pop_back();
    std::int64_t width = tree.total(it.node, o.column);
    if (it.node != kRootStack && static_cast<double>(width) < o.min_width) continue;
    if (it.depth > out.max_depth) out.max_depth = it.depth;
    const std::int64_t self = tree.self(it.node, o.column);
    if (emit) {
      FlameRect r;
      r.node = it.node;
      r.depth = it.depth;
      r.start = it.start;
      r.width = width;
      if (base) r.self_delta = self - tree.self(it.node, *base);
      (*emit)(r);
    }
    // Own value first, then children left to right; pushed in reverse so
    // the depth-first order visits them left to right.
    auto kids = tree.children(it.node);
    std::int64_t x = it.start + self;
    std::size_t first = todo.size();
    for (StackId k : kids) {
      todo.push_back({k, x, it.depth + 1});
      x += tree.total(k, o.column);
    }
    std::reverse(todo.begin() + static_cast<std::ptrdiff_t>(first), todo.end());
  }
}

// flamegraph.pl's flow(): consecutive samples share the frames of their
// common prefix; a frame ends when a sample no longer has it.
void layout_chart(const CallTree& tree, const FlameLayoutOptions& o, std::optional<std::size_t> base,
                  FlameLayout& out) {
  const Profile& p = tree.profile();
  struct Open {
    StackId node;
    std::int64_t start;
    std::int64_t delta;
  };
  std::vector<Open> open;  // open[d] is the frame at depth d+1
  std::vector<StackId> path;
  std::int64_t now = 0;
  std::vector<FlameRect> closed;
  auto close_to = [&](std::size_t keep) {
    while (open.size() > keep) {
      Open f = open.back();
      open.pop_back();
      std::int64_t w = now - f.start;
      if (static_cast<double>(w) < o.min_width) continue;
      closed.push_back(FlameRect{f.node, static_cast<std::uint32_t>(open.size() + 1), f.start, w, f.delta});
    }
  };
  // Time order: by timestamp where samples have one, else table order.
  std::vector<std::size_t> order(p.sample_count());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&p](std::size_t a, std::size_t b) {
    return p.sample(a).timestamp < p.sample(b).timestamp;
  });
  // Each node's depth, in one pass (parents have smaller ids): a sample's
  // path is walked up only to the deepest frame still open, so the walk
  // costs one step per frame opened, never the whole depth.
  const std::vector<std::uint32_t> depth = stack_depths(p);
  for (std::size_t i : order) {
    StackId s = p.sample(i).stack;
    std::size_t same = depth[s.index()];
    path.clear();
    for (; same > open.size(); --same, s = p.parent(s)) path.push_back(s);
    for (; same > 0 && open[same - 1].node != s; --same, s = p.parent(s)) path.push_back(s);
    close_to(same);
    for (auto it = path.rbegin(); it != path.rend(); ++it) open.push_back({*it, now, 0});
    if (base) {
      std::int64_t d = sample_delta(p, i, o.column, *base);
      if (!open.empty()) open.back().delta += d;
    }
    now += p.values(i)[o.column];
  }
  close_to(0);
  FlameRect root{kRootStack, 0, 0, now, 0};
  if (base) root.self_delta = tree.self(kRootStack, o.column) - tree.self(kRootStack, *base);
  out.rects.push_back(root);
  // Left to right, and at one x parents before children.
  std::sort(closed.begin(), closed.end(), [](const FlameRect& a, const FlameRect& b) {
    return a.start != b.start ? a.start < b.start : a.depth < b.depth;
  });
  for (const FlameRect& r : closed) {
    out.rects.push_back(r);
    if (r.depth > out.max_depth) out.max_depth = r.depth;
  }
}

}  // namespace

namespace {

// Everything but the rects and the depth.
FlameLayout layout_head(const CallTree& tree, const FlameLayoutOptions& o, std::optional<std::size_t>& base) {
  const Profile& p = tree.profile();
  require_non_negative(p, o.column);
  FlameLayout out;
  out.total = tree.total(kRootStack, o.column);
  base = p.base_of(o.column);
  out.diff = base.has_value();
  if (base) {
    for (std::size_t i = 0; i < p.sample_count(); ++i) {
      std::int64_t d = std::llabs(sample_delta(p, i, o.column, *base));
      if (d > out.max_abs_delta) out.max_abs_delta = d;
    }
  }
  return out;
}

}  // namespace

void require_non_negative(const Profile& p, std::size_t column) {
  const std::optional<std::size_t> base = p.base_of(column);
  std::size_t negative = 0;
  for (std::size_t i = 0; i < p.sample_count(); ++i) {
    const auto v = p.values(i);
    if (v[column] < 0 || (base && v[*base] < 0)) ++negative;
  }
  if (negative == 0) return;
  std::string where;
  for (const std::string& s : p.metadata().sources) where += s + ": ";
  throw Error(where + std::to_string(negative) + " samples have negative values in column '" +
              p.value_types()[column].type + "', which a flame graph cannot draw as widths; compare two " +
              "profiles with fg-diff BASE NEW");
}

FlameLayout measure_flame(const CallTree& tree, const FlameLayoutOptions& o) {
  std::optional<std::size_t> base;
  FlameLayout out = layout_head(tree, o, base);
  if (o.chart) {
    layout_chart(tree, o, base, out);
    out.rects.clear();
  } else {
    layout_tree(tree, o, base, out, nullptr);
  }
  return out;
}

void each_flame_rect(const CallTree& tree, const FlameLayoutOptions& o,
                     const std::function<void(const FlameRect&)>& emit) {
  require_non_negative(tree.profile(), o.column);
  std::optional<std::size_t> base = tree.profile().base_of(o.column);
  FlameLayout scratch;
  if (o.chart) {
    layout_chart(tree, o, base, scratch);
    for (const FlameRect& r : scratch.rects) emit(r);
  } else {
    layout_tree(tree, o, base, scratch, &emit);
  }
}

FlameLayout layout_flame(const CallTree& tree, const FlameLayoutOptions& o) {
  // One pass: a chart is collected anyway; the tree's rects are kept as
  // they are laid out.
  std::optional<std::size_t> base;
  FlameLayout out = layout_head(tree, o, base);
  if (o.chart) {
    layout_chart(tree, o, base, out);
  } else {
    std::function<void(const FlameRect&)> keep = [&out](const FlameRect& r) { out.rects.push_back(r); };
    layout_tree(tree, o, base, out, &keep);
  }
  return out;
}

}  // namespace fg
