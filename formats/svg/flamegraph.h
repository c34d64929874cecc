// Flame graph SVG, a match for flamegraph.pl: the same options, the same
// frame geometry (x, width and y of every frame, to the 0.1 px it prints),
// the same titles and, by default, the same colours; differential graphs
// for profiles with a base column. Streamed, deterministic (frames in
// depth-first order), every name escaped, with an embedded script of our
// own for details, zoom and regular-expression search.
#pragma once

#include <ostream>
#include <string>

#include "fg/call_tree.h"
#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/options.h"

namespace fg::formats::svg {

/// Throws UsageError for bad options (palette, --bgcolors, --minwidth,
/// --width, ...) and Error when the selected column has nothing to draw.
void write_flamegraph(const Profile& profile, const WriteOptions& options, std::ostream& out,
                      Diagnostics& diagnostics);

// Shared with the HTML flame graph (formats/html).

/// What the values are called in frame titles: --countname, else "samples"
/// for a count column, else the column's unit.
std::string count_name(const ValueType& column, const FlameGraphOptions& options);
/// Throws Error, naming the inputs, when column `col` of `tree` totals
/// zero or less (there is nothing to draw) or has negative values
/// (fg::require_non_negative()).
void require_something_to_draw(const CallTree& tree, std::size_t col);

}  // namespace fg::formats::svg
