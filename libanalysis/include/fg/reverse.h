// The stack-reversed view (flamegraph.pl --reverse): every sample's stack
// turned leaf-first, so the graph merges from the leaves.
#pragma once

#include "fg/profile.h"

namespace fg {

/// A copy of `profile` whose stacks run leaf to root.
Profile reverse_stacks(const Profile& profile);

/// reverse_stacks() for a view that draws only the nodes at least
/// `min_total` wide in `column` (CallTreeOptions::min_total): each reversed
/// path ends at its first node narrower than that, which keeps the total
/// of all it stood for (a narrow frame still takes its place), so narrow
/// paths are not spelled out. The frames are those reverse_stacks() makes,
/// in its order; the tree a view prunes at `min_total` in `column` has the
/// same kept nodes, totals and children's totals. Throws as
/// reverse_stacks() does.
Profile reverse_stacks(const Profile& profile, std::size_t column, double min_total);

}  // namespace fg
