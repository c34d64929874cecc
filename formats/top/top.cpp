#include "formats/top/top.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fg/call_graph.h"
#include "fg/error.h"
#include "formats/report/profile_labels.h"

namespace fg::formats::top {

namespace {

struct Table {
  CallGraph graph;
  std::vector<std::uint32_t> rows;  // shown, in order
  std::size_t dropped = 0;          // under the node fraction
  std::int64_t cutoff = 0;
  std::string unit;                 // of the column
  std::size_t column = 0;
  std::string type;
};

Table make_table(const Profile& p, const WriteOptions& o) {
  if (o.node_fraction < 0 || o.node_fraction > 1)
    throw UsageError("--node-fraction " + std::to_string(o.node_fraction) + ": expected a fraction from 0 to 1");
  Table t;
  CallGraphOptions go;
  go.column = o.value ? p.find_value(*o.value) : p.default_value_index();
  go.granularity = o.granularity;
  go.edges = false;  // the marks come from kept_edges()
  t.graph = build_call_graph(p, go);
  t.unit = p.value_types()[go.column].unit;
  t.column = go.column;
  t.type = p.value_types()[go.column].type;
  // As pprof: nodes are dropped by a share of the summed flat values, and
  // the cut-off is printed as that share of the report's total.
  const std::int64_t drop_below =
      std::llabs(static_cast<std::int64_t>(static_cast<double>(t.graph.flat_sum) * o.node_fraction));
  t.cutoff = std::llabs(static_cast<std::int64_t>(static_cast<double>(t.graph.total) * o.node_fraction));
  std::vector<bool> kept(t.graph.nodes.size(), false);
  for (std::uint32_t n : o.sort_by_cum ? top_order_by_cum(t.graph) : top_order(t.graph)) {
    const CallGraphNode& node = t.graph.nodes[n];
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
  std::vector<std::uint8_t> in(t.graph.nodes.size(), 0);  // bit 1: inlined edge, bit 2: called edge
  for (const CallGraphEdge& e : kept_edges(p, t.graph, go.column, kept, o.edge_fraction))
    in[e.callee] |= e.inlined ? 1 : 2;
  for (std::size_t n = 0; n < t.graph.nodes.size(); ++n) {
    if (!kept[n] || in[n] == 0) continue;  // no edges in: keep what the frames say
    t.graph.nodes[n].inlined = in[n] == 1;
    t.graph.nodes[n].partly_inlined = in[n] == 3;
  }
  return t;
}

std::string row_name(const CallGraphNode& n) {
  if (n.inlined) return n.name + " (inline)";
  if (n.partly_inlined) return n.name + " (partial-inline)";
  return n.name;
}

// A share of the total as pprof prints it: two decimals from 1% up, two
// significant digits below, and "100%" for anything that rounds to it.
std::string percent(std::int64_t v, std::int64_t total) {
  double ratio = total == 0 ? 0 : std::fabs(static_cast<double>(v) / static_cast<double>(total)) * 100;
  char buf[32];
  if (ratio >= 99.95 && ratio <= 100.05) return "100%";
  if (ratio >= 1.0) std::snprintf(buf, sizeof buf, "%.2f%%", ratio);
  else std::snprintf(buf, sizeof buf, "%.2g%%", ratio);
  return buf;
}

// A unit for the whole table, as pprof scales: the largest in which the
// total is at least 1.
struct Scale {
  double divisor = 1;
  std::string suffix;
};
Scale scale_for(const std::string& unit, std::int64_t total) {
  const double t = std::fabs(static_cast<double>(total));
  if (unit == "nanoseconds") {
    if (t >= 1e9) return {1e9, "s"};
    if (t >= 1e6) return {1e6, "ms"};
    if (t >= 1e3) return {1e3, "us"};
    return {1, "ns"};
  }
  if (unit == "microseconds") {
    if (t >= 1e6) return {1e6, "s"};
    if (t >= 1e3) return {1e3, "ms"};
    return {1, "us"};
  }
  if (unit == "milliseconds") return t >= 1e3 ? Scale{1e3, "s"} : Scale{1, "ms"};
  if (unit == "bytes") {
    const char* names[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    double d = 1;
    int i = 0;
    while (i < 5 && t >= d * 1024) d *= 1024, ++i;
    return {d, names[i]};
  }
  return {1, ""};
}

std::string scaled(std::int64_t v, const Scale& s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(v) / s.divisor);
  std::string text = buf;
  if (text.size() > 3 && text.compare(text.size() - 3, 3, ".00") == 0) text.resize(text.size() - 3);
  if (text == "0" || text == "-0") return "0";
  return text + s.suffix;
}

std::string csv_quoted(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

void write_text(const Profile& p, const WriteOptions& o, std::ostream& out, Diagnostics&) {
  Table t = make_table(p, o);
  const Scale s = scale_for(t.unit, t.graph.total);
  std::int64_t shown = 0;
  for (std::uint32_t n : t.rows) shown += t.graph.nodes[n].flat;
  for (const std::string& line : report::profile_labels(p, t.column, t.graph.total,
                                                         [&s](std::int64_t v) { return scaled(v, s); }))
    out << line << '\n';
  out << "Showing nodes accounting for " << scaled(shown, s) << ", " << percent(shown, t.graph.total) << " of "
      << scaled(t.graph.total, s) << " total\n";
  if (t.dropped > 0) out << "Dropped " << t.dropped << " nodes (cum <= " << scaled(t.cutoff, s) << ")\n";
  char line[128];
  std::snprintf(line, sizeof line, "%10s %6s %6s %10s %6s\n", "flat", "flat%", "sum%", "cum", "cum%");
  out << line;
  std::int64_t sum = 0;
  for (std::uint32_t n : t.rows) {
    const CallGraphNode& node = t.graph.nodes[n];
    sum += node.flat;
    std::snprintf(line, sizeof line, "%10s %6s %6s %10s %6s  ", scaled(node.flat, s).c_str(),
                  percent(node.flat, t.graph.total).c_str(), percent(sum, t.graph.total).c_str(),
                  scaled(node.cum, s).c_str(), percent(node.cum, t.graph.total).c_str());
    out << line << row_name(node) << '\n';
  }
}

void write_csv(const Profile& p, const WriteOptions& o, std::ostream& out, Diagnostics&) {
  Table t = make_table(p, o);
  out << "flat,flat%,sum%,cum,cum%,name\n";
  std::int64_t sum = 0;
  for (std::uint32_t n : t.rows) {
    const CallGraphNode& node = t.graph.nodes[n];
    sum += node.flat;
    auto pct = [&](std::int64_t v) {
      std::string s = percent(v, t.graph.total);
      s.pop_back();  // the number alone in CSV
      return s;
    };
    out << node.flat << ',' << pct(node.flat) << ',' << pct(sum) << ',' << node.cum << ',' << pct(node.cum) << ','
        << csv_quoted(row_name(node)) << '\n';
  }
}

}  // namespace fg::formats::top
