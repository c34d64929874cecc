// jeprof prints each value on its own, rounded ("%.1f" MB) or truncated
// ("%d" objects), so the printed numbers of a graph rarely add up: a
// node's out-edges may sum to 8.3 MB where its cum says 8.2. Unfolding
// printed numbers as they are would spread such gaps over whole subtrees.
// Reconciling first moves each value within the range its printed digits
// allow (±0.05 MB; [n, n+1) for a truncated count n) so that, where
// possible, every node's cum is its flat plus its out-edges and its
// in-edges plus what enters there as a root. Gaps larger than the printed
// digits allow are left alone: they are what jeprof dropped (nodes and
// edges under its fractions), and unfolding keeps them as such.
#pragma once

#include <vector>

#include "formats/jeprof_dot/jeprof_graph.h"

namespace fg::formats::jeprof_dot {

/// `graph` with its node and edge values reconciled as above (self-edges
/// take no part: they are not unfolded). Values printed as zero stay zero.
/// Deterministic; at most 5,000 sweeps over the graph, fewer for a large
/// one (20 million node and edge visits in all).
JeprofGraph reconcile(JeprofGraph graph);

}  // namespace fg::formats::jeprof_dot
