// What the two flame graph writers (SVG and HTML) share: the root frame's
// label, what the values are called, and the check that there is
// something to draw.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "fg/call_tree.h"
#include "fg/profile.h"
#include "formats/options.h"

namespace fg::formats {

/// The root frame's label in every flame graph (SVG and HTML), for every
/// input: flamegraph.pl's "all", whatever root name the input had (a
/// DeepFlow tree's root node, a file's name).
inline constexpr std::string_view kRootLabel = "all";

/// What the values are called in frame titles: --countname, else "samples"
/// for a count column, else the column's unit.
std::string count_name(const ValueType& column, const FlameGraphOptions& options);
/// Throws Error, naming the inputs, when column `col` of `tree` totals
/// zero or less (there is nothing to draw) or has negative values
/// (fg::require_non_negative()).
void require_something_to_draw(const CallTree& tree, std::size_t col);

}  // namespace fg::formats
