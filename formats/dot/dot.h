// Call graphs in Graphviz's DOT language, drawn as go tool pprof -dot draws
// them: a box per function with flat and cum values, font size growing with
// flat, colour with cum; edges caller -> callee weighted by the value through
// them (dashed when inlined, dotted "..." when nodes were dropped between);
// tag boxes for the samples' labels; a legend with the totals and what was
// dropped. --to callgraph-svg lays the same graph out with Graphviz's
// libraries and writes SVG.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/options.h"

namespace fg::formats::dot {

/// Text for inside a DOT double-quoted string: backslashes and quotes
/// escaped, a newline made a left-justified line break, other control
/// bytes made spaces, invalid UTF-8 replaced. The one escaping path of DOT
/// output.
std::string escape(std::string_view text);

/// The call graph of the --value column as DOT text. Throws UsageError for
/// fractions outside 0..1.
std::string call_graph_dot(const Profile& profile, const WriteOptions& options);

/// call_graph_dot() for a layout engine, which must not stall on a dense
/// graph: at most LayoutBudget's nodes, and beyond its edges the lighter
/// ones left out (bound_for_layout(); the legend says how many) and dot
/// asked for its cheaper layout. Equal to call_graph_dot() for a graph
/// within the budget.
std::string layout_dot(const Profile& profile, const WriteOptions& options);

/// Writes call_graph_dot().
void write(const Profile& profile, const WriteOptions& options, std::ostream& out, Diagnostics& diagnostics);

/// Lays call_graph_dot() out with Graphviz (dot layout) and writes SVG
/// that fits the window and pans and zooms in a browser (pan_zoom.h).
/// Throws Error when Graphviz cannot.
void write_svg(const Profile& profile, const WriteOptions& options, std::ostream& out,
               Diagnostics& diagnostics);

}  // namespace fg::formats::dot
