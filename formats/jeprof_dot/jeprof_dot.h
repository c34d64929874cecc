// jeprof's DOT call graphs: what `jeprof --dot` (and gperftools' pprof.pl)
// prints for a heap profile, and what StarRocks, Doris and other servers
// built on jemalloc hand out as their heap profile (jeprof-dot in
// --list-formats; fg's own DOT writer, `--to dot`, writes go tool pprof's
// style instead). See jeprof_graph.h for the text jeprof writes; it is
// parsed with Graphviz's cgraph.
//
// The graph has per-function flat and cum values and caller -> callee
// weights, not stacks; fg's model is a profile of stacks, so the graph is
// unfolded into a tree (see unfold.h): each node's value is split over its
// callees by edge weight. The DOT, top and callgraph-svg views of the
// result reproduce the graph's nodes and edge weights (exactly for an
// acyclic graph whose numbers agree, to jeprof's rounding); flame graphs,
// collapsed stacks and other per-stack views are estimates, and fg says so
// in a warning when it writes one. The one value column is named after the
// legend's unit: space/bytes (MB are jeprof's 2^20 bytes), objects/count or
// samples/count; which of inuse/alloc it was, the DOT does not say.
#pragma once

#include <string_view>

#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/format.h"
#include "formats/input.h"
#include "formats/options.h"

namespace fg::formats::jeprof_dot {

/// Yes for `digraph "` with a `Legend [` node and a `Total <unit>:` line in
/// the head, maybe for other DOT digraphs, no otherwise.
Sniff sniff(std::string_view head, std::string_view filename);

/// Reads jeprof's DOT and unfolds it into a profile with one value column.
/// Throws ParseError for input that is not jeprof's DOT (see
/// parse_jeprof_graph). Warns when unfolding was cut short by its size
/// limit; recursive edges not unfolded are counted in a property.
Profile read(Input& input, const ReadOptions& options, Diagnostics& diagnostics);

}  // namespace fg::formats::jeprof_dot
