// The DOT writer follows go tool pprof's -dot output (pprof's
// internal/graph/dotgraph.go and internal/report): the same trimming (see
// fg/graph_trim.h), labels, font sizes, colours, edge weights and legend, so
// that a graph from fg reads like the one pprof users know.
#include "formats/dot/dot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "fg/error.h"
#include "fg/graph_trim.h"
#include "fg/names.h"
#include "fg/units.h"
#include "formats/common/delta_view.h"
#include "formats/common/profile_labels.h"

namespace fg::formats::dot {

namespace {

// pprof's dotColor: grey at 0, red toward +1, green toward -1; light for
// backgrounds.
std::string color(double score, bool background) {
  double saturation = background ? 0.1 : 1.0;
  const double value = background ? 0.93 : 0.7;
  score = std::max(-1.0, std::min(1.0, score));
  if (std::fabs(score) < 0.2) saturation *= std::fabs(score) / 0.2;
  if (score > 0) score = std::pow(score, 1.0 - 0.7);
  if (score < 0) score = -std::pow(-score, 1.0 - 0.7);
  double r, g;
  if (score < 0) {
    g = value;
    r = value * (1 + saturation * score);
  } else {
    r = value;
    g = value * (1 - saturation * score);
  }
  const double b = value * (1 - saturation);
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<unsigned>(static_cast<std::uint8_t>(r * 255.0)),
                static_cast<unsigned>(static_cast<std::uint8_t>(g * 255.0)),
                static_cast<unsigned>(static_cast<std::uint8_t>(b * 255.0)));
  return buf;
}

class Writer {
 public:
  /// `budget`: bound the graph for a layout engine (layout_dot()).
  Writer(const Profile& p, const WriteOptions& o, const LayoutBudget* budget = nullptr);
  std::string text();

 private:
  std::string value(std::int64_t v) const { return units::scaled_label(v, unit_, output_unit_, decimals_); }
  std::vector<std::string> components(std::uint32_t n, bool label) const;
  std::string printable(std::uint32_t n) const;
  std::vector<std::string> legend() const;
  void node(std::uint32_t n, std::size_t id, double max_flat);
  bool nodelets(std::uint32_t n, std::size_t id);
  void numeric_nodelets(std::vector<GraphTag> tags, bool flat_tags, const std::string& source);
  void edge(const CallGraphEdge& e);

  const Profile& p_;
  const WriteOptions& o_;
  LayoutBudget budget_;  // when layout_ (layout_dot())
  bool layout_ = false;
  std::size_t column_;
  TrimmedGraph t_;
  std::string unit_, output_unit_;
  int decimals_ = 0;             // of the column (fractional counts)
  std::vector<std::size_t> id_;  // per graph node: 1-based DOT id, 0 if not drawn
  std::vector<bool> has_out_, has_nodelets_;
  std::size_t layout_edges_ = 0;    // edges before bound_for_layout()
  std::size_t layout_dropped_ = 0;  // and how many it left out
  std::string out_;
};

Writer::Writer(const Profile& p, const WriteOptions& o, const LayoutBudget* budget)
    : p_(p), o_(o), budget_(budget ? *budget : LayoutBudget{}), layout_(budget != nullptr) {
  if (!(o.node_fraction >= 0 && o.node_fraction <= 1 && o.edge_fraction >= 0 && o.edge_fraction <= 1))
    throw UsageError("--node-fraction and --edge-fraction take fractions from 0 to 1");
  column_ = o.value ? p.find_value(*o.value) : p.default_value_index();
  CallGraphOptions go;
  go.column = column_;
  go.granularity = o.granularity;
  go.edges = false;  // trim_call_graph() redraws them among the kept nodes
  TrimOptions to;
  to.node_count = o.node_count == 0 ? 80 : o.node_count;
  if (layout_) to.node_count = std::min(to.node_count, budget_.nodes);
  to.node_fraction = o.node_fraction;
  to.edge_fraction = o.edge_fraction;
  // The graph is the last of the profile's views to need it: taken.
  t_ = o.call_graphs ? trim_call_graph(p, o.call_graphs->take(p, go), go, to) : trim_call_graph(p, go, to);
  unit_ = p.value_types()[column_].unit;
  decimals_ = p.value_types()[column_].decimals;
  // pprof's selectOutputUnit: the smallest value shown decides.
  output_unit_ =
      units::output_unit(smallest_shown_value(t_.graph, t_.nodes), t_.graph.total, unit_, decimals_);
  id_.assign(t_.graph.nodes.size(), 0);
  for (std::size_t i = 0; i < t_.nodes.size(); ++i) id_[t_.nodes[i]] = i + 1;
  has_out_.assign(t_.graph.nodes.size(), false);
  for (const CallGraphEdge& e : t_.edges) has_out_[e.caller] = true;
  has_nodelets_.assign(t_.graph.nodes.size(), false);
  // After has_out_: a node shows the same tags whichever of its edges are drawn.
  layout_edges_ = t_.edges.size();
  if (layout_) layout_dropped_ = bound_for_layout(t_, budget_);
}

// pprof's NameComponents: [address] name [file:line], the file by its
// base name in labels.
std::vector<std::string> Writer::components(std::uint32_t n, bool label) const {
  const CallGraphNode& node = t_.graph.nodes[n];
  std::vector<std::string> out;
  if (node.address != 0) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(node.address));
    out.emplace_back(buf);
  }
  if (!node.function.empty()) out.push_back(node.function);
  const std::string file = label ? base_name(node.file) : node.file;
  if (node.line != 0)
    out.push_back(file + ":" + std::to_string(node.line));
  else if (!node.file.empty())
    out.push_back(file);
  if (out.empty()) out.emplace_back("<unknown>");
  return out;
}

std::string Writer::printable(std::uint32_t n) const { return t_.graph.nodes[n].name; }

std::vector<std::string> Writer::legend() const {
  const std::int64_t total = t_.graph.total;
  std::vector<std::string> l =
      profile_labels(p_, column_, total, [this](std::int64_t v) { return value(v); });
  std::int64_t shown = 0;
  for (std::uint32_t n : t_.nodes) shown += t_.graph.nodes[n].flat;
  l.push_back("Showing nodes accounting for " + value(shown) + ", " + units::percent(shown, total) + " of " +
              value(total) + " total");
  if (total != 0) {
    auto dropped = [&](std::size_t count, const char* what, const char* by, double fraction) {
      const auto cut = std::llabs(static_cast<std::int64_t>(static_cast<double>(total) * fraction));
      l.push_back("Dropped " + std::to_string(count) + " " + what + (count > 1 ? "s" : "") + " (" + by +
                  " <= " + value(cut) + ")");
    };
    if (t_.dropped_nodes > 0) dropped(t_.dropped_nodes, "node", "cum", o_.node_fraction);
    if (t_.dropped_edges > 0) dropped(t_.dropped_edges, "edge", "freq", o_.edge_fraction);
    if (!t_.nodes.empty() && t_.nodes.size() < t_.candidates)
      l.push_back("Showing top " + std::to_string(t_.nodes.size()) + " nodes out of " +
                  std::to_string(t_.candidates));
  }
  if (layout_dropped_ > 0)
    l.push_back("Drawing " + std::to_string(t_.edges.size()) + " of " + std::to_string(layout_edges_) +
                " edges, the heaviest (a dense graph: layout bounded)");
  return l;
}

void Writer::node(std::uint32_t n, std::size_t id, double max_flat) {
  const CallGraphNode& node = t_.graph.nodes[n];
  const std::int64_t total = t_.graph.total;
  // The label: one component per line, the function's short name broken
  // at its "::" and "." too, then the values. Code without symbols is
  // named by its module ("[libc.so.6]"), which pprof does not break.
  const bool named = p_.frame(node.frame).kind != FrameKind::kUnsymbolized;
  std::string label;
  for (const std::string& c : components(n, true)) {
    if (c != node.function || !named) {
      label += escape(c) + "\\n";
      continue;
    }
    const std::string e = escape(shorten_function_name(c));
    std::string lines;
    for (std::size_t i = 0; i < e.size(); ++i) {
      if (e.compare(i, 2, "::") == 0) {
        lines += "\\n";
        ++i;
      } else if (e.compare(i, 5, "[...]") == 0) {
        lines += "[\xE2\x80\xA6]";
        i += 4;
      } else if (e[i] == '.') {
        lines += "\\n";
      } else {
        lines += e[i];
      }
    }
    label += lines + "\\n";
  }
  const std::string flat_value = value(node.flat);
  label += node.flat != 0 ? flat_value + " (" + units::percent(node.flat, total) + ")" : "0";
  std::string cum_value = flat_value;
  if (node.cum != node.flat) {
    cum_value = value(node.cum);
    label +=
        (node.flat != 0 ? "\\n" : " ") + ("of " + cum_value + " (" + units::percent(node.cum, total) + ")");
  }
  int font_size = 8;
  const double flat = std::fabs(static_cast<double>(node.flat));
  if (max_flat != 0 && node.flat != 0 && flat <= max_flat)
    font_size += static_cast<int>(std::ceil(16 * std::sqrt(flat / max_flat)));
  const double score = total == 0 ? 0 : static_cast<double>(node.cum) / std::fabs(static_cast<double>(total));
  out_ += "N" + std::to_string(id) + " [label=\"" + label + "\" id=\"node" + std::to_string(id) +
          "\" fontsize=" + std::to_string(font_size) + " shape=box tooltip=\"" + escape(printable(n)) + " (" +
          cum_value + ")\" color=\"" + color(score, false) + "\" fillcolor=\"" + color(score, true) + "\"]\n";
}

// Tag order (pprof's SortTags): by |cum| unless drawing flat tags, then by
// |flat|, then by name.
void sort_tags(std::vector<GraphTag>& tags, bool flat) {
  std::sort(tags.begin(), tags.end(), [flat](const GraphTag& a, const GraphTag& b) {
    if (!flat && a.cum != b.cum) return std::llabs(a.cum) > std::llabs(b.cum);
    if (a.flat != b.flat) return std::llabs(a.flat) > std::llabs(b.flat);
    return a.name < b.name;
  });
}

// A label set's name for a tag box: one escaped "key:value" per line.
std::string tag_label(const std::string& name) {
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t nl = name.find('\n', start);
    out += escape(
        std::string_view(name).substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) return out;
    out += "\\n";
    start = nl + 1;
  }
}

void box(std::string& out, const std::string& id, const std::string& label, const std::string& weight) {
  out += id + " [label = \"" + label + "\" id=\"" + id + "\" fontsize=8 shape=box3d tooltip=\"" + weight +
         "\"]\n";
}

void box_edge(std::string& out, const std::string& from, const std::string& to, const std::string& weight,
              const char* attr) {
  out += from + " -> " + to + " [label=\" " + weight + "\" weight=100 tooltip=\"" + weight +
         "\" labeltooltip=\"" + weight + "\"" + attr + "]\n";
}

bool Writer::nodelets(std::uint32_t n, std::size_t id) {
  const std::size_t before = out_.size();
  NodeTags tags = t_.tags[n];
  // A leaf shows cumulative tags (they include its dropped callees); other
  // nodes their flat ones.
  const bool flat_tags = has_out_[n];
  sort_tags(tags.labels, flat_tags);
  if (tags.labels.size() > kMaxTagBoxes) tags.labels.resize(kMaxTagBoxes);
  auto numeric_of = [&](const std::string& key) -> const std::vector<GraphTag>* {
    for (const auto& [k, list] : tags.numeric)
      if (k == key) return &list;
    return nullptr;
  };
  for (std::size_t i = 0; i < tags.labels.size(); ++i) {
    const GraphTag& t = tags.labels[i];
    const std::int64_t w = flat_tags ? t.flat : t.cum;
    if (w == 0) continue;
    const std::string from = "N" + std::to_string(id), to = from + "_" + std::to_string(i);
    box(out_, to, tag_label(t.name), value(w));
    box_edge(out_, from, to, value(w), "");
    if (const auto* list = numeric_of(t.name)) numeric_nodelets(*list, flat_tags, to);
  }
  if (const auto* list = numeric_of("")) numeric_nodelets(*list, flat_tags, "N" + std::to_string(id));
  return out_.size() != before;
}

// pprof's collapsedTags: at most four numeric boxes; further values join
// the box whose first value is nearest, shown as a range "min..max".
std::vector<GraphTag> collapse(std::vector<GraphTag> tags, bool flat_tags) {
  sort_tags(tags, flat_tags);
  if (tags.size() <= kMaxTagBoxes) return tags;
  std::vector<std::vector<const GraphTag*>> groups(kMaxTagBoxes);
  for (std::size_t i = 0; i < kMaxTagBoxes; ++i) groups[i].push_back(&tags[i]);
  auto distance = [](const GraphTag& a, const GraphTag& b) {
    const double v = units::scale(b.value, b.unit, a.unit).value;
    return std::fabs(static_cast<double>(a.value) - v);
  };
  for (std::size_t i = kMaxTagBoxes; i < tags.size(); ++i) {
    std::size_t best = 0;
    double d = distance(tags[i], *groups[0][0]);
    for (std::size_t g = 1; g < kMaxTagBoxes; ++g) {
      const double nd = distance(tags[i], *groups[g][0]);
      if (nd < d) best = g, d = nd;
    }
    groups[best].push_back(&tags[i]);
  }
  std::vector<GraphTag> out;
  for (const auto& g : groups) {
    GraphTag t;
    const GraphTag *lo = g[0], *hi = g[0];
    for (const GraphTag* x : g) {
      if (x != g[0]) {
        if (static_cast<std::int64_t>(units::scale(x->value, x->unit, lo->unit).value) < lo->value) lo = x;
        if (static_cast<std::int64_t>(units::scale(x->value, x->unit, hi->unit).value) > hi->value) hi = x;
      }
      t.flat += x->flat;
      t.cum += x->cum;
    }
    t.name = units::label(lo->value, lo->unit);
    if (g.size() > 1) t.name += ".." + units::label(hi->value, hi->unit);
    out.push_back(std::move(t));
  }
  sort_tags(out, flat_tags);
  return out;
}

void Writer::numeric_nodelets(std::vector<GraphTag> tags, bool flat_tags, const std::string& source) {
  const std::vector<GraphTag> boxes = collapse(std::move(tags), flat_tags);
  for (std::size_t j = 0; j < boxes.size(); ++j) {
    const GraphTag& t = boxes[j];
    const bool flat = flat_tags || t.flat == t.cum;
    const std::int64_t w = flat ? t.flat : t.cum;
    if (w == 0) continue;
    const std::string to = "N" + source + "_" + std::to_string(j);
    box(out_, to, escape(t.name), value(w));
    box_edge(out_, source, to, value(w), flat ? "" : " style=\"dotted\"");
  }
}

void Writer::edge(const CallGraphEdge& e) {
  const std::int64_t total = t_.graph.total;
  const std::string w = value(e.weight);
  std::string attr = "label=\" " + w + (e.inlined ? "\\n (inline)" : "") + "\"";
  if (total != 0) {
    auto share = [&](int scale) {  // |weight * scale / total| in integers, without overflow
      const __int128 q = static_cast<__int128>(e.weight) * scale / total;
      return static_cast<std::int64_t>(std::min<__int128>(q < 0 ? -q : q, scale));
    };
    const std::int64_t weight = 1 + share(100);
    if (weight > 1) attr += " weight=" + std::to_string(weight);
    const std::int64_t width = 1 + share(5);
    if (width > 1) attr += " penwidth=" + std::to_string(width);
    attr += " color=\"" +
            color(static_cast<double>(e.weight) / std::fabs(static_cast<double>(total)), false) + "\"";
  }
  const std::string tooltip = "\"" + escape(printable(e.caller)) + (e.residual ? " ... " : " -> ") +
                              escape(printable(e.callee)) + " (" + w + ")\"";
  attr += " tooltip=" + tooltip + " labeltooltip=" + tooltip;
  // Residual edges dotted as pprof draws them; inlined calls dashed.
  if (e.residual)
    attr += " style=\"dotted\"";
  else if (e.inlined)
    attr += " style=\"dashed\"";
  if (has_nodelets_[e.caller]) attr += " minlen=2";
  out_ += "N" + std::to_string(id_[e.caller]) + " -> N" + std::to_string(id_[e.callee]) + " [" + attr + "]\n";
}

std::string Writer::text() {
  const std::string binary = property(p_, "main_binary");
  const std::string title = binary.empty() ? "" : escape(base_name(binary));
  out_ = "digraph \"" + (title.empty() ? std::string("unnamed") : title) + "\" {\n";
  out_ += "node [style=filled fillcolor=\"#f8f8f8\"]\n";
  // dot's network simplex and crossing reduction iterate until nothing
  // improves; a dense graph gets a bounded number of rounds of each.
  // Beyond the edge budget (every node's first edge in stays),
  // straight edges: routing splines around the ranks' virtual nodes is
  // the next cost.
  if (layout_dropped_ > 0)
    out_ += std::string("graph [nslimit=1 nslimit1=1 mclimit=0.5") +
            (t_.edges.size() > budget_.edges ? " splines=line" : "") + "]\n";
  const std::vector<std::string> lines = legend();
  out_ += "subgraph cluster_L { \"" + escape(lines[0]) + "\" [shape=box fontsize=16 label=\"";
  for (const std::string& line : lines) out_ += escape(line) + "\\l";
  out_ += "\"";
  if (!title.empty()) out_ += " tooltip=\"" + title + "\"";
  out_ += "] }\n";
  if (!t_.nodes.empty()) {
    double max_flat = static_cast<double>(std::llabs(t_.graph.nodes[t_.nodes[0]].flat));
    for (std::uint32_t n : t_.nodes)
      max_flat = std::max(max_flat, static_cast<double>(std::llabs(t_.graph.nodes[n].flat)));
    for (std::uint32_t n : t_.nodes) {
      node(n, id_[n], max_flat);
      has_nodelets_[n] = nodelets(n, id_[n]);
    }
    for (const CallGraphEdge& e : t_.edges) edge(e);
  }
  out_ += "}\n";
  return std::move(out_);
}

std::string dot_text(const Profile& profile, const WriteOptions& options, const LayoutBudget* budget) {
  WriteOptions o = options;
  const std::optional<Profile> deltas = delta_view(profile, o);
  return Writer(deltas ? *deltas : profile, o, budget).text();
}

}  // namespace

std::string call_graph_dot(const Profile& profile, const WriteOptions& options) {
  return dot_text(profile, options, nullptr);
}

std::string layout_dot(const Profile& profile, const WriteOptions& options) {
  const LayoutBudget budget;
  return dot_text(profile, options, &budget);
}

void write(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics&) {
  out << call_graph_dot(profile, options);
}

}  // namespace fg::formats::dot
