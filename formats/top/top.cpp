#include "formats/top/top.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fg/call_graph.h"
#include "fg/error.h"
#include "fg/units.h"
#include "formats/common/delta_view.h"
#include "formats/common/json_escape.h"
#include "formats/common/profile_labels.h"
#include "formats/common/table_text.h"

namespace fg::formats::top {

namespace {

struct Table {
  /// What the table shows: the profile given, or its delta view (held).
  std::shared_ptr<const Profile> held;
  const Profile* profile = nullptr;
  /// The call graph of the column: `own`, or one the profile's
  /// CallGraphCache holds (WriteOptions::call_graphs).
  std::unique_ptr<const CallGraph> own;
  const CallGraph* shared = nullptr;
  const CallGraph& graph() const { return shared ? *shared : *own; }
  /// pprof's inline marks, recomputed from the kept edges: per node, 0 as
  /// the graph says, else 1 + (0: none, 1: inline, 2: partial-inline);
  /// empty when none was recomputed.
  std::vector<std::uint8_t> marks;
  std::vector<std::uint32_t> rows;  // shown, in order
  std::size_t dropped = 0;          // under the node fraction
  std::int64_t cutoff = 0;
  std::string unit;  // of the column
  int decimals = 0;  // of the column: values are fixed point (fractional counts)
  std::size_t column = 0;
  std::string type;
};

Table make_table(const Profile& given, WriteOptions o) {
  Table t;
  if (std::optional<Profile> deltas = delta_view(given, o))
    t.held = std::make_shared<const Profile>(std::move(*deltas));
  const Profile& p = t.held ? *t.held : given;
  t.profile = &p;
  CallGraphOptions go;
  go.column = o.value ? p.find_value(*o.value) : p.default_value_index();
  go.granularity = o.granularity;
  go.edges = false;  // the marks come from kept_edges()
  t.shared = o.call_graphs ? o.call_graphs->find(p, go) : nullptr;
  if (!t.shared) t.own = std::make_unique<const CallGraph>(build_call_graph(p, go));
  const CallGraph& graph = t.graph();
  t.unit = p.value_types()[go.column].unit;
  t.decimals = p.value_types()[go.column].decimals;
  t.column = go.column;
  t.type = p.value_types()[go.column].type;
  // As pprof: nodes are dropped by a share of the summed flat values, and
  // the cut-off is printed as that share of the report's total.
  const std::int64_t drop_below = fraction_cutoff(graph.flat_sum, o.node_fraction, "--node-fraction");
  t.cutoff = fraction_cutoff(graph.total, o.node_fraction, "--node-fraction");
  std::vector<bool> kept(graph.nodes.size(), false);
  for (std::uint32_t n : o.sort_by_cum ? top_order_by_cum(graph) : top_order(graph)) {
    const CallGraphNode& node = graph.nodes[n];
    if (node.flat == 0 && node.cum == 0) continue;  // frames of samples with no value here
    if (std::llabs(node.cum) < drop_below) {
      ++t.dropped;
      continue;
    }
    kept[n] = true;
    if (o.node_count == 0 || t.rows.size() < o.node_count) t.rows.push_back(n);
  }
  // pprof marks a row "(inline)" or "(partial-inline)" by the edges into it
  // that survive its trimming of the graph: recompute the marks from those.
  // Only a function inlined somewhere can be marked: the edges into the
  // others need not be counted.
  std::vector<bool> marked(graph.nodes.size(), false);
  bool any = false;
  for (std::size_t n = 0; n < graph.nodes.size(); ++n)
    if (kept[n] && (graph.nodes[n].inlined || graph.nodes[n].partly_inlined)) marked[n] = any = true;
  std::vector<std::uint8_t> in(graph.nodes.size(), 0);  // bit 1: inlined edge, bit 2: called edge
  if (any)
    for (const CallGraphEdge& e : kept_edges(p, graph, go.column, kept, o.edge_fraction, &marked))
      in[e.callee] |= e.inlined ? 1 : 2;
  // A node without surviving edges in (a root, or one whose callers' edges
  // fall under --edge-fraction) is not marked, whatever its frames say.
  if (any) t.marks.assign(graph.nodes.size(), 0);
  for (std::size_t n = 0; n < graph.nodes.size(); ++n)
    if (marked[n]) t.marks[n] = static_cast<std::uint8_t>(1 + (in[n] == 1 ? 1 : in[n] == 3 ? 2 : 0));
  return t;
}

// pprof's mark of node `n`: "inline", "partial-inline" or "".
std::string_view inline_mark(const Table& t, std::uint32_t n) {
  const std::uint8_t m = t.marks.empty() ? 0 : t.marks[n];
  const CallGraphNode& node = t.graph().nodes[n];
  if (m ? m == 2 : node.inlined) return "inline";
  if (m ? m == 3 : node.partly_inlined) return "partial-inline";
  return "";
}

std::string row_name(const Table& t, std::uint32_t n) {
  const std::string_view mark = inline_mark(t, n);
  const std::string& name = t.graph().nodes[n].name;
  return mark.empty() ? name : name + " (" + std::string(mark) + ")";
}

std::string percent(std::int64_t v, std::int64_t total) { return units::percent(v, total); }

// The unit the whole table is written in, as pprof's selectOutputUnit
// chooses it from the smallest value shown.
struct Scale {
  std::string from, to;
  int decimals = 0;
};
Scale scale_for(const Table& t) {
  return {t.unit,
          units::output_unit(smallest_shown_value(t.graph(), t.rows), t.graph().total, t.unit, t.decimals),
          t.decimals};
}

std::string scaled(std::int64_t v, const Scale& s) {
  return units::scaled_label(v, s.from, s.to, s.decimals);
}

// A value as a number in the column's unit, unscaled: "335", "335.2".
std::string number(std::int64_t v, const Table& t) { return fixed_point_text(v, t.decimals); }

}  // namespace

void write_text(const Profile& p, const WriteOptions& o, std::ostream& out, Diagnostics&) {
  Table t = make_table(p, o);
  const Scale s = scale_for(t);
  std::int64_t shown = 0;
  for (std::uint32_t n : t.rows) shown += t.graph().nodes[n].flat;
  for (const std::string& line :
       profile_labels(*t.profile, t.column, t.graph().total, [&s](std::int64_t v) { return scaled(v, s); }))
    out << text_cell(line) << '\n';
  out << "Showing nodes accounting for " << scaled(shown, s) << ", " << percent(shown, t.graph().total)
      << " of " << scaled(t.graph().total, s) << " total\n";
  if (t.dropped > 0) out << "Dropped " << t.dropped << " nodes (cum <= " << scaled(t.cutoff, s) << ")\n";
  char line[128];
  std::snprintf(line, sizeof line, "%10s %6s %6s %10s %6s\n", "flat", "flat%", "sum%", "cum", "cum%");
  out << line;
  std::int64_t sum = 0;
  for (std::uint32_t n : t.rows) {
    const CallGraphNode& node = t.graph().nodes[n];
    sum += node.flat;
    std::snprintf(line, sizeof line, "%10s %6s %6s %10s %6s  ", scaled(node.flat, s).c_str(),
                  percent(node.flat, t.graph().total).c_str(), percent(sum, t.graph().total).c_str(),
                  scaled(node.cum, s).c_str(), percent(node.cum, t.graph().total).c_str());
    out << line << text_cell(row_name(t, n)) << '\n';
  }
}

void write_csv(const Profile& p, const WriteOptions& o, std::ostream& out, Diagnostics&) {
  Table t = make_table(p, o);
  out << "flat,flat%,sum%,cum,cum%,name\n";
  std::int64_t sum = 0;
  for (std::uint32_t n : t.rows) {
    const CallGraphNode& node = t.graph().nodes[n];
    sum += node.flat;
    auto pct = [&](std::int64_t v) {
      std::string s = percent(v, t.graph().total);
      s.pop_back();  // the number alone in CSV
      return s;
    };
    out << number(node.flat, t) << ',' << pct(node.flat) << ',' << pct(sum) << ',' << number(node.cum, t)
        << ',' << pct(node.cum) << ',' << csv_text_field(row_name(t, n)) << '\n';
  }
}

void write_markdown(const Profile& p, const WriteOptions& o, std::ostream& out, Diagnostics&) {
  Table t = make_table(p, o);
  const Scale s = scale_for(t);
  out << "| flat | flat% | sum% | cum | cum% | name |\n|---:|---:|---:|---:|---:|:---|\n";
  std::int64_t sum = 0;
  for (std::uint32_t n : t.rows) {
    const CallGraphNode& node = t.graph().nodes[n];
    sum += node.flat;
    out << "| " << scaled(node.flat, s) << " | " << percent(node.flat, t.graph().total) << " | "
        << percent(sum, t.graph().total) << " | " << scaled(node.cum, s) << " | "
        << percent(node.cum, t.graph().total) << " | " << markdown_cell(row_name(t, n)) << " |\n";
  }
}

void write_all_columns(const Profile& p, const WriteOptions& o, std::ostream& out) {
  // Rows: the functions of the first column's table, in its order; then
  // flat and cum of every column, each in its own unit.
  WriteOptions first = o;
  first.value = "0";
  Table rows = make_table(p, first);
  std::vector<Table> columns;
  std::vector<Scale> scales;
  for (std::size_t c = 0; c < p.value_count(); ++c) {
    WriteOptions oc = o;
    oc.value = std::to_string(c);
    oc.node_count = 0;
    oc.node_fraction = 0;
    columns.push_back(make_table(p, oc));
    scales.push_back(scale_for(columns.back()));
  }
  char cell[64];
  std::string head, sub;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    std::snprintf(cell, sizeof cell, "%21s ", text_cell(p.value_types()[c].type).substr(0, 21).c_str());
    head += cell;
    std::snprintf(cell, sizeof cell, "%10s %10s ", "flat", "cum");
    sub += cell;
  }
  out << head << '\n' << sub << " name\n";
  for (std::uint32_t n : rows.rows) {
    std::string line;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const CallGraphNode& node = columns[c].graph().nodes[n];  // the same profile: the same nodes
      std::snprintf(cell, sizeof cell, "%10s %10s ", scaled(node.flat, scales[c]).c_str(),
                    scaled(node.cum, scales[c]).c_str());
      line += cell;
    }
    out << line << ' ' << text_cell(row_name(rows, n)) << '\n';
  }
}

void write_json(const Profile& p, const WriteOptions& o, std::ostream& out, Diagnostics&) {
  Table t = make_table(p, o);
  std::uint64_t replaced = 0;
  std::string j = "{\"type\":";
  append_json_string(j, t.type, JsonEscaping::kGo, replaced);
  j += ",\"unit\":";
  append_json_string(j, t.unit, JsonEscaping::kGo, replaced);
  j += ",\"total\":" + number(t.graph().total, t) + ",\"dropped\":" + std::to_string(t.dropped) +
       ",\"rows\":[";
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const CallGraphNode& node = t.graph().nodes[t.rows[i]];
    sum += node.flat;
    auto pct = [&](std::int64_t v) {
      std::string s = percent(v, t.graph().total);
      s.pop_back();
      return s;
    };
    j += i ? ",{\"name\":" : "{\"name\":";
    append_json_string(j, node.name, JsonEscaping::kGo, replaced);
    j += ",\"flat\":" + number(node.flat, t) + ",\"flat_pct\":" + pct(node.flat) +
         ",\"sum_pct\":" + pct(sum) + ",\"cum\":" + number(node.cum, t) + ",\"cum_pct\":" + pct(node.cum) +
         ",\"inline\":\"" + std::string(inline_mark(t, t.rows[i])) + "\"}";
  }
  out << j << "]}\n";
}

}  // namespace fg::formats::top
