// The stack-reversed view (flamegraph.pl --reverse): every sample's stack
// turned leaf-first, so the graph merges from the leaves.
#pragma once

#include "fg/profile.h"

namespace fg {

/// A copy of `profile` whose stacks run leaf to root.
Profile reverse_stacks(const Profile& profile);

}  // namespace fg
