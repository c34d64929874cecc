// jeprof's DOT call graph as a plain graph: the legend's unit and totals,
// and each node's name, flat and cum, and each edge's weight, converted to
// whole units (bytes, objects, samples). Parsed with Graphviz's cgraph, so
// any DOT syntax Graphviz accepts is read as Graphviz reads it.
//
// What jeprof writes (PrintDot in jeprof / pprof.pl):
//
//   digraph "<program>; <total> <unit>" {
//   node [width=0.375,height=0.25];
//   Legend [...,label="<program>\lTotal <unit>: <total>\lFocusing on: <x>\l
//           Dropped nodes with <= <x> abs(<unit>)\lDropped edges with <= <x> <unit>\l"];
//   N1 [label="<name>\n<flat> (<flat%>)\rof <cum> (<cum%>)\r",shape=box,...];
//   N2 -> N1 [label=<weight>, weight=..., style="setlinewidth(..)[,dashed]"];
//   }
//
// <unit> is MB (values "%.1f" of bytes / 2^20), B (--show_bytes), objects
// or samples (integers). "\rof <cum> (...)" is left out when cum equals
// flat. <name> is jeprof's short function name with every run of white
// space and every "::" replaced by "\n"; "(inline)" ends the names of
// inlined frames, which jeprof keeps as nodes of their own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fg::formats::jeprof_dot {

struct JeprofNode {
  std::string id;     ///< the DOT node name, "N12"
  std::string label;  ///< the name part of the label as written, "\n" separated
  std::string name;   ///< the function name rebuilt from it (see rebuild_name)
  double flat = 0;    ///< in whole units (bytes for MB)
  double cum = 0;
};

struct JeprofEdge {
  std::uint32_t caller = 0, callee = 0;  ///< node indices
  double weight = 0;                     ///< in whole units
};

struct JeprofGraph {
  std::string program;              ///< the legend's first line
  std::string unit;                 ///< as written: "MB", "B", "objects", "samples"
  std::string value_type;           ///< the profile column: "space", "objects" or "samples"
  std::string value_unit;           ///< "bytes" or "count"
  double scale = 1;                 ///< whole units per written unit (2^20 for MB)
  double resolution = 1;            ///< one step of the last written digit, in whole units
  bool truncated = true;            ///< values were truncated ("%d"), not rounded ("%.1f" for MB)
  double total = 0;                 ///< "Total <unit>:", in whole units
  std::vector<std::string> legend;  ///< the legend's lines
  std::vector<JeprofNode> nodes;    ///< in declaration order, the Legend left out
  std::vector<JeprofEdge> edges;
};

/// How far a printed value may be from the value jeprof had: half a step
/// of the last digit when rounded, a whole step when truncated.
inline double slack(const JeprofGraph& g) { return g.truncated ? g.resolution : g.resolution / 2; }

/// Parses jeprof's DOT text. `file` names the input in errors. Throws
/// ParseError for text that is not DOT ("file:line: ..." from Graphviz's
/// parser), DOT without jeprof's legend, labels that do not parse and
/// edges to nodes the graph does not declare ("file:line: node N5: ...").
JeprofGraph parse_jeprof_graph(const std::string& text, const std::string& file);

/// jeprof's node name back from its "\n"-separated components: joined by
/// "::", except that a component opening with "(" or "[", or inside an
/// unclosed bracket, is joined by a space ("subdivide\n[clone\n.localalias]"
/// -> "subdivide [clone .localalias]", "f\n(inline)" -> "f (inline)").
/// jeprof's replacement is lossy; this is the usual reading of it.
std::string rebuild_name(std::string_view label_name);

/// A node label's parts: the name (as written) and the values as written.
/// False when the label is not "<name>\n<flat> (<pct>)[\rof <cum> (<pct>)]\r".
struct NodeLabel {
  std::string name;
  double flat = 0, cum = 0;
};
bool parse_node_label(std::string_view label, NodeLabel& out);

}  // namespace fg::formats::jeprof_dot
