// Flame graph SVG, a match for flamegraph.pl: the same options, the same
// frame geometry (x, width and y of every frame, to the 0.1 px it prints),
// the same titles and, by default, the same colours; differential graphs
// for profiles with a base column. Streamed, deterministic (frames in
// depth-first order), every name escaped, with an embedded script of our
// own for details, zoom and regular-expression search.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "fg/call_tree.h"
#include "fg/diagnostics.h"
#include "fg/profile.h"
#include "formats/options.h"

namespace fg::formats::svg {

/// Throws UsageError for bad options (palette, --bgcolors, --minwidth,
/// --width, ...) and Error when the selected column has nothing to draw.
void write_flamegraph(const Profile& profile, const WriteOptions& options, std::ostream& out,
                      Diagnostics& diagnostics);
/// Throws the UsageError that write_flamegraph() would for `options`,
/// without a profile: tools call it before reading anything.
void check_write_options(const WriteOptions& options);

}  // namespace fg::formats::svg
