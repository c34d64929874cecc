// Stacks estimated from a call graph: a reader whose format has no stacks
// (jeprof's DOT) unfolds the graph into estimated ones and marks the
// profile with these properties; writers of per-stack views read them to
// warn (formats/registry.cpp). Neither side includes the other's folder.
#pragma once

#include <cstddef>
#include <string_view>

#include "fg/profile.h"

namespace fg::formats {

/// The metadata property a profile unfolded from a call graph carries
/// (value "call graph"), so that writers of per-stack views can warn.
inline constexpr std::string_view kUnfoldedProperty = "stacks_unfolded_from";
/// The number of recursive edges left out of the unfolded stacks, when
/// there were any (the per-stack views' warning names it).
inline constexpr std::string_view kRecursiveEdgesProperty = "recursive_edges_not_unfolded";

/// True when `profile` was unfolded from a call graph.
bool unfolded_from_graph(const Profile& profile);
/// The recursive edges its stacks leave out (0 when none, or not unfolded).
std::size_t recursive_edges_left_out(const Profile& profile);

}  // namespace fg::formats
