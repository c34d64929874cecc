// Walks over the stack tree that cost one step per node, and the bound on
// work that spells out every stack whole (see check_expansion in
// fg/profile.h): what transforms and layouts use instead of walking each
// sample's path to the root, which a chain N deep makes N^2 steps.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "fg/profile.h"

namespace fg {

/// Every stack's depth (frames on its path, 0 for the root), by stack id:
/// one pass in id order (parents first), O(stacks).
std::vector<std::uint32_t> stack_depths(const Profile& profile);

/// check_expansion() for work other than an output format that spells out
/// every stack whole: `what` is the message's subject ("reversing the
/// stacks"), `instead` its advice. Throws Error past the same bounds.
void check_expansion(const Profile& profile, std::string_view what, std::string_view instead);

}  // namespace fg
